#!/usr/bin/env bash
# Builds the refcheck test client (the image-reference oracle) and caches it outside the repository,
# keyed by its sources and go.sum. Prints the path of the binary on its last line.
#
# Invariants: two runs never build at once (flock on the cache directory); the binary is published by
# rename only once it built, so a cache hit is always a complete binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$here/go.mod" "$here/go.sum" "$here"/*.go "$here/build.sh" | sha256sum | cut -c1-12)
dest="$cache_root/clients/refcheck-$key"

if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/clients"
exec 9>"$cache_root/clients/build.lock"
flock 9
if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to build the refcheck test client" >&2; exit 1; }
tmp="$dest.tmp.$$"
trap 'rm -f "$tmp"' EXIT
(cd "$here" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -o "$tmp" .)
mv "$tmp" "$dest"; trap - EXIT
echo "$dest"
