#!/usr/bin/env bash
# Builds etcd, kube-apiserver and kube-controller-manager from their Go modules (the wrapper modules in
# ./go) and caches them outside the repository, keyed by the pinned versions and the go.sum of each
# wrapper. Prints the directory holding the three binaries on its last line.
#
# Invariants: two runs never build at once (flock on the cache root); a directory is published only
# once every binary in it built (build into a temporary directory, then rename), so a cache hit is
# always complete. Binaries found in $KUBEBUILDER_ASSETS (envtest's layout) are used instead of
# building them; envtest ships no kube-controller-manager, which is then built.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K8S_VERSION=v1.36.3
ETCD_VERSION=v3.6.16
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
key=$(cat "$here/go/kube/go.sum" "$here/go/etcd/go.sum" "$here/build-binaries.sh" | sha256sum | cut -c1-12)
dest="$cache_root/controlplane/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-$key"

have_all() { [ -x "$1/etcd" ] && [ -x "$1/kube-apiserver" ] && [ -x "$1/kube-controller-manager" ]; }

if have_all "$dest"; then echo "$dest"; exit 0; fi

mkdir -p "$cache_root/controlplane"
exec 9>"$cache_root/controlplane/build.lock"
echo "waiting for the control-plane build lock ($cache_root/controlplane/build.lock)" >&2
flock 9
if have_all "$dest"; then echo "$dest"; exit 0; fi

command -v go >/dev/null || { echo "Go is required to build the control plane (or set KUBEBUILDER_ASSETS / PADDOCK_CONTROLPLANE_BIN)" >&2; exit 1; }
tmp="$dest.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly
started=$(date +%s)
reuse() { # reuse <name>: copy a binary from KUBEBUILDER_ASSETS if it is there
  [ -n "${KUBEBUILDER_ASSETS:-}" ] && [ -x "$KUBEBUILDER_ASSETS/$1" ] && cp "$KUBEBUILDER_ASSETS/$1" "$tmp/$1"
}
if ! reuse etcd; then
  echo "building etcd $ETCD_VERSION from Go modules (first use only)..." >&2
  (cd "$here/go/etcd" && go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" ./cmd/etcd)
fi
minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for kv in gitVersion=$K8S_VERSION gitMajor=1 gitMinor=$minor gitTreeState=clean \
          buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ); do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
for bin in kube-apiserver kube-controller-manager; do
  if ! reuse "$bin"; then
    echo "building $bin $K8S_VERSION from Go modules (first use only; several minutes)..." >&2
    (cd "$here/go/kube" && go build -trimpath -ldflags "$ldflags" -o "$tmp/$bin" "./cmd/$bin")
  fi
done
rm -rf "$dest"; mv "$tmp" "$dest"; trap - EXIT
echo "control-plane binaries built in $(( $(date +%s) - started ))s" >&2
echo "$dest"
