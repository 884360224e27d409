#!/usr/bin/env bash
# Builds the node of the local test bed from Go modules and caches it outside the repository, keyed by
# the pinned versions, the go.sum of the kube wrapper module and this script:
#   kube-scheduler, kubelet, kube-proxy   (wrapper module ./go/kube, like kube-apiserver)
#   containerd, containerd-shim-runc-v2   (github.com/containerd/containerd/v2)
#   kube-router                           (github.com/cloudnativelabs/kube-router, the NetworkPolicy enforcer)
#   netcheck                              (./go/netcheck: the TCP/UDP echo server and probe of the test image)
# and the two images of the node, as OCI archives made with buildah from scratch (no registry):
#   pause.tar     localhost/pause:3.10     the pod sandbox (netcheck pause)
#   netcheck.tar  localhost/netcheck:1     the test workload (netcheck serve | probe)
# Installs the Debian packages the node uses first when they are missing (apt-get, idempotent).
# Prints the directory holding the binaries on its last line. Same invariants as build-binaries.sh: one
# build at a time (flock), and a directory is published only once every binary in it built.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K8S_VERSION=v1.36.3
CONTAINERD_VERSION=v2.4.2
KUBE_ROUTER_VERSION=v1.4.0
KUBE_ROUTER_SUM=h1:NHItA/+iW5n/ZUvteENoWHDB0j3qYZbz6BuFqZvoCcQ=
BINARIES=(kube-scheduler kubelet kube-proxy containerd containerd-shim-runc-v2 kube-router netcheck pause.tar netcheck.tar)
# runc and the CNI plugins run pods; iptables, ipset and conntrack serve kube-router and kube-proxy, nftables
# the guard table; socat relays the API to the pod network; buildah makes the images; containerd is
# installed for its ctr only (the ctr built with containerd 2.4 cannot talk to it: grpc authority error).
PACKAGES=(runc containernetworking-plugins nftables iptables ipset socat conntrack buildah containerd)
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$here/go/kube/go.sum" "$here/go/netcheck/go.mod" "$here/go/netcheck/main.go" "$here/build-node.sh" | sha256sum | cut -c1-12)
dest="$cache_root/node/k8s-$K8S_VERSION-containerd-$CONTAINERD_VERSION-kube-router-$KUBE_ROUTER_VERSION-$key"

have_all() { for b in "${BINARIES[@]}"; do [ -f "$1/$b" ] || return 1; done; }

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages for the node: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    { apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
fi

if have_all "$dest"; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/node"
exec 9>"$cache_root/node/build.lock"
echo "waiting for the node build lock ($cache_root/node/build.lock)" >&2
flock 9
if have_all "$dest"; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to build the node of the test bed" >&2; exit 1; }
tmp="$dest.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

export GOTOOLCHAIN=local CGO_ENABLED=0
started=$(date +%s)
minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for kv in gitVersion=$K8S_VERSION gitMajor=1 gitMinor=$minor gitTreeState=clean \
          buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ); do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
for bin in kube-scheduler kubelet kube-proxy; do
  echo "building $bin $K8S_VERSION from Go modules (first use only)..." >&2
  (cd "$here/go/kube" && GOFLAGS=-mod=readonly go build -trimpath -ldflags "$ldflags" -o "$tmp/$bin" "./cmd/$bin")
done
echo "building containerd $CONTAINERD_VERSION and its runc shim from Go modules (first use only)..." >&2
GOBIN="$tmp" go install -trimpath -ldflags "-s -w" \
  "github.com/containerd/containerd/v2/cmd/containerd@$CONTAINERD_VERSION" \
  "github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2@$CONTAINERD_VERSION"
echo "building kube-router $KUBE_ROUTER_VERSION from Go modules (first use only)..." >&2
# The checksum database has no entry for this version (404), and `go install` refuses its replace
# directives: download it without the lookup, check it against the hash pinned here, build a copy.
kr_module=github.com/cloudnativelabs/kube-router
kr_dir=$(GONOSUMDB=$kr_module GOFLAGS=-mod=mod go mod download -json "$kr_module@$KUBE_ROUTER_VERSION" |
  sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
kr_sum=$(GONOSUMDB=$kr_module GOFLAGS=-mod=mod go mod download -json "$kr_module@$KUBE_ROUTER_VERSION" |
  sed -n 's/^\t"Sum": "\(.*\)",$/\1/p')
[ "$kr_sum" = "$KUBE_ROUTER_SUM" ] || { echo "kube-router $KUBE_ROUTER_VERSION: module hash $kr_sum, expected $KUBE_ROUTER_SUM" >&2; exit 1; }
cp -r "$kr_dir" "$tmp/kube-router-src"; chmod -R u+w "$tmp/kube-router-src"
(cd "$tmp/kube-router-src" && GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w" -o "$tmp/kube-router" ./cmd/kube-router)
rm -rf "$tmp/kube-router-src"
(cd "$here/go/netcheck" && GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w" -o "$tmp/netcheck" .)

echo "building the pause and netcheck images with buildah..." >&2
store="$tmp/buildah"
had_cache=$([ -e /var/lib/containers ] && echo yes || echo no)
bah() { buildah --root "$store/root" --runroot "$store/run" --storage-driver vfs "$@"; }
image() { # image <archive> <name> <cmd>: netcheck as the only file, run as 65532
  local c
  c=$(bah from --quiet scratch)
  bah copy --quiet "$c" "$tmp/netcheck" /netcheck >/dev/null
  bah config --entrypoint '["/netcheck"]' --cmd "$3" --user 65532:65532 "$c"
  bah commit --quiet "$c" "$2" >/dev/null
  bah push --quiet "$2" "oci-archive:$tmp/$1:$2"
  bah rm "$c" >/dev/null
}
image pause.tar localhost/pause:3.10 pause
image netcheck.tar localhost/netcheck:1 serve
bah rmi --all --force >/dev/null 2>&1 || true
rm -rf "$store"
[ "$had_cache" = yes ] || rm -rf /var/lib/containers
rm -rf "$dest"; mv "$tmp" "$dest"; trap - EXIT
echo "node binaries built in $(( $(date +%s) - started ))s" >&2
echo "$dest"
