#!/usr/bin/env bash
# Builds the Go test client in test/clients/<name> and caches it outside the repository, keyed by its
# sources, go.sum and this script. Prints the path of the binary on its last line.
#
# Invariants: two runs never build at once (flock on the cache directory); the binary is published by
# rename only once it built, so a cache hit is always a complete binary. A cold build of a client-go
# client takes about two minutes on two cores; a hit costs nothing.
set -euo pipefail

name=${1:?usage: build-go-client.sh <client directory name>}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/$name" && pwd)
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$here/go.mod" "$here/go.sum" "$here"/*.go "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)
dest="$cache_root/clients/$name-$key"

if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/clients"
exec 9>"$cache_root/clients/build.lock"
flock 9
if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to build the $name test client" >&2; exit 1; }
tmp="$dest.tmp.$$"
trap 'rm -f "$tmp"' EXIT
started=$(date +%s)
(cd "$here" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -o "$tmp" .)
mv "$tmp" "$dest"; trap - EXIT
echo "$name built in $(( $(date +%s) - started ))s" >&2
echo "$dest"
