#!/usr/bin/env bash
# Builds capsule-proxy (github.com/projectcapsule/capsule-proxy) for the benchmark's comparison scenario
# from a local source checkout, and caches the binary outside the repository (like the control-plane
# binaries). Prints the binary's path on its last line.
#
#   PADDOCK_CAPSULE_PROXY_SRC  a checkout of capsule-proxy at a release tag (required)
#   PADDOCK_CAPSULE_SRC        a checkout of github.com/projectcapsule/capsule at the version that
#                              capsule-proxy's go.mod requires (optional: needed only when the Go module
#                              proxy does not serve that module). It is wired in with a `replace` in a
#                              generated go.mod (-modfile): the checkouts themselves are never modified.
#
# Every other dependency comes from the Go module proxy at the versions capsule-proxy's go.sum pins.
# Invariants: two runs never build at once (flock); the binary is published by rename once built.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${PADDOCK_CAPSULE_PROXY_SRC:?set PADDOCK_CAPSULE_PROXY_SRC to a checkout of github.com/projectcapsule/capsule-proxy}
src=$(cd "$src" && pwd)
[ -f "$src/go.mod" ] && grep -q '^module github.com/projectcapsule/capsule-proxy$' "$src/go.mod" ||
  { echo "$src is not a checkout of github.com/projectcapsule/capsule-proxy" >&2; exit 1; }
capsule=${PADDOCK_CAPSULE_SRC:-}
if [ -n "$capsule" ]; then
  capsule=$(cd "$capsule" && pwd)
  grep -q '^module github.com/projectcapsule/capsule$' "$capsule/go.mod" ||
    { echo "$capsule is not a checkout of github.com/projectcapsule/capsule" >&2; exit 1; }
fi

# The version: the checkout's tag (or commit), recorded next to the binary for the results.
version=$(git -C "$src" describe --tags --always 2>/dev/null || echo unknown)
capsule_version=""
[ -n "$capsule" ] && capsule_version=$(git -C "$capsule" describe --tags --always 2>/dev/null || echo unknown)
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$src/go.mod" "$src/go.sum" "$here/build-capsule-proxy.sh" <(echo "$version $capsule_version") | sha256sum | cut -c1-12)
dest="$cache_root/capsule-proxy/$version-$key"
if [ -x "$dest/capsule-proxy" ]; then echo "$dest/capsule-proxy"; exit 0; fi

mkdir -p "$cache_root/capsule-proxy"
exec 9>"$cache_root/capsule-proxy/build.lock"
flock 9
if [ -x "$dest/capsule-proxy" ]; then echo "$dest/capsule-proxy"; exit 0; fi
command -v go >/dev/null || { echo "Go is required to build capsule-proxy" >&2; exit 1; }

tmp="$dest.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cp "$src/go.mod" "$tmp/go.mod"
cp "$src/go.sum" "$tmp/go.sum"
if [ -n "$capsule" ]; then
  echo "replace github.com/projectcapsule/capsule => $capsule" >>"$tmp/go.mod"
fi
echo "building capsule-proxy $version${capsule_version:+ (capsule $capsule_version from source)} (first use only; several minutes)..." >&2
started=$(date +%s)
(cd "$src" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false" go build -modfile="$tmp/go.mod" -trimpath -ldflags "-s -w" -o "$tmp/capsule-proxy" .)
echo "$version" >"$tmp/VERSION"
rm -f "$tmp/go.mod" "$tmp/go.sum"
rm -rf "$dest"; mv "$tmp" "$dest"; trap - EXIT
echo "capsule-proxy built in $(( $(date +%s) - started ))s" >&2
echo "$dest/capsule-proxy"
