#!/usr/bin/env bash
# Builds a command-line tool the tests drive (helm) from its upstream Go module, pinned by the
# wrapper module in ./go/<name> (go.mod and go.sum), and caches it outside the repository, keyed by that
# wrapper and this script. Prints the path of the binary on its last line.
#
# Invariants: two runs never build at once (flock on the cache directory); the binary is published by
# rename only once it built, so a cache hit is always a complete binary. Nothing built is committed.
set -euo pipefail

name=${1:?usage: build-tool.sh helm}
case "$name" in
  helm) package=helm.sh/helm/v3/cmd/helm ;;
  *) echo "unknown tool: $name" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/go/$name" && pwd)
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$here/go.mod" "$here/go.sum" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)
dest="$cache_root/tools/$name-$key"

if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/tools"
exec 9>"$cache_root/tools/build.lock"
flock 9
if [ -x "$dest" ]; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to build $name" >&2; exit 1; }
tmp="$dest.tmp.$$"
trap 'rm -f "$tmp"' EXIT
started=$(date +%s)
echo "building $name from its Go module (first use only; a few minutes)..." >&2
(cd "$here" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w" -o "$tmp" "$package")
mv "$tmp" "$dest"; trap - EXIT
echo "$name built in $(( $(date +%s) - started ))s" >&2
echo "$dest"
