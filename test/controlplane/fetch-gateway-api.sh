#!/usr/bin/env bash
# Fetches the Gateway API CRDs (standard channel) from the Go module sigs.k8s.io/gateway-api, through the
# Go module proxy (checked against the checksum database like any module), and caches them outside the
# repository, keyed by version. Prints the directory holding the CRD manifests on its last line.
#
# The standard channel of this version has GatewayClass, Gateway, ListenerSet, HTTPRoute, GRPCRoute,
# TLSRoute, TCPRoute, UDPRoute, ReferenceGrant and BackendTLSPolicy; only the CRDs are taken (the channel
# also ships a ValidatingAdmissionPolicy that guards CRD upgrades, which a test bed does not need).
#
# Invariants as build-binaries.sh: one fetch at a time (flock), a directory published whole (rename).
set -euo pipefail

GATEWAY_API_VERSION=v1.6.3
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
dest="$cache_root/gateway-api/$GATEWAY_API_VERSION-standard"

have_crds() { [ -f "$1/gateway.networking.k8s.io_gatewayclasses.yaml" ]; }

if have_crds "$dest"; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/gateway-api"
exec 9>"$cache_root/gateway-api/fetch.lock"
flock 9
if have_crds "$dest"; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to fetch the Gateway API CRDs" >&2; exit 1; }
tmp="$dest.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp/module"
trap 'rm -rf "$tmp"' EXIT
# Outside any module: `go mod download` of a module@version needs no go.mod of ours.
dir=$(cd "$tmp/module" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] && [ -d "$dir/config/crd/standard" ] || { echo "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION has no config/crd/standard" >&2; exit 1; }
rmdir "$tmp/module"
for f in "$dir"/config/crd/standard/*.yaml; do
  grep -q '^kind: CustomResourceDefinition$' "$f" && cp "$f" "$tmp/"
done
chmod -R u+w "$tmp"
rm -rf "$dest"; mv "$tmp" "$dest"; trap - EXIT
echo "$dest"
