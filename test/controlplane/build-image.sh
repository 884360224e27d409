#!/usr/bin/env bash
# Builds Paddock's container image from the repository's Dockerfile, unmodified, with buildah and no
# registry, and writes it as an OCI archive. The Dockerfile's two base images are made locally under the
# exact names it uses, once, and kept in a buildah store in the cache:
#   docker.io/library/node:24-bookworm-slim        a debootstrap (minbase) Debian 12 with Node.js 24 and npm
#   gcr.io/distroless/nodejs24-debian12:nonroot    scratch with /nodejs/bin/node, its shared libraries,
#                                                  CA certificates and the nonroot user 65532
# Node.js is the one the repository pins (node_modules/node), npm the machine's. The CA bundle of the
# machine goes into the build image (NODE_EXTRA_CA_CERTS) so that `npm install` works where TLS is
# intercepted. Usage: build-image.sh <output.tar>; prints the archive's path on its last line. The
# archive is reused while Dockerfile, package files and src/ are unchanged.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$1
IMAGE=localhost/paddock:test
NODE_IMAGE=docker.io/library/node:24-bookworm-slim
DISTROLESS_IMAGE=gcr.io/distroless/nodejs24-debian12:nonroot
cache_root=${PADDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paddock}
store="$cache_root/node/buildah"
node_bin=$(readlink -f "$repo/node_modules/.bin/node")
npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
base_key=$( { "$node_bin" --version; cat "$npm_dir/package.json" /etc/ssl/certs/ca-certificates.crt "$here/build-image.sh"; } | sha256sum | cut -c1-12)
input_key=$(cd "$repo" && { cat Dockerfile .dockerignore package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json;
  find src -type f | sort | xargs cat; echo "$base_key"; } | sha256sum | cut -c1-16)

if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$input_key" ]; then echo "$out"; exit 0; fi

mkdir -p "$store"
exec 9>"$store.lock"
flock 9
had_cache=$([ -e /var/lib/containers ] && echo yes || echo no)
bah() { buildah --root "$store/root" --runroot "$store/run" --storage-driver vfs "$@"; }
started=$(date +%s)

if [ "$(cat "$store/base.key" 2>/dev/null)" != "$base_key" ]; then
  echo "making the Dockerfile's base images locally (first use only)..." >&2
  bah rmi --all --force >/dev/null 2>&1 || true
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # node:24-bookworm-slim, from Debian's own packages (installed first when missing: apt-get, idempotent)
  if ! command -v debootstrap >/dev/null; then
    echo "installing debootstrap" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends debootstrap >&2 ||
      { apt-get update >&2 && apt-get install -y --no-install-recommends debootstrap >&2; }
  fi
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  install -D -m 0755 "$node_bin" "$work/rootfs/usr/local/bin/node"
  mkdir -p "$work/rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$work/rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/ca-certificates.crt"
  tar -C "$work/rootfs" -cf "$work/rootfs.tar" .
  c=$(bah from --quiet scratch)
  bah add --quiet "$c" "$work/rootfs.tar" / >/dev/null
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt --cmd node "$c"
  bah commit --quiet "$c" "$NODE_IMAGE" >/dev/null
  bah rm "$c" >/dev/null
  # distroless nodejs24, nonroot
  mkdir -p "$work/distroless/nodejs/bin" "$work/distroless/etc/ssl/certs" "$work/distroless/tmp" "$work/distroless/home/nonroot"
  install -m 0755 "$node_bin" "$work/distroless/nodejs/bin/node"
  for lib in $(ldd "$node_bin" | awk '/=>/ {print $3} /ld-linux/ {print $1}'); do
    install -D -m 0755 "$(readlink -f "$lib")" "$work/distroless$lib"
  done
  cp /etc/ssl/certs/ca-certificates.crt "$work/distroless/etc/ssl/certs/"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$work/distroless/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' >"$work/distroless/etc/group"
  chmod 1777 "$work/distroless/tmp"; chown 65532:65532 "$work/distroless/home/nonroot"
  tar -C "$work/distroless" -cf "$work/distroless.tar" .
  c=$(bah from --quiet scratch)
  bah add --quiet "$c" "$work/distroless.tar" / >/dev/null
  bah config --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt --entrypoint '["/nodejs/bin/node"]' \
    --user 65532:65532 --workingdir /home/nonroot "$c"
  bah commit --quiet "$c" "$DISTROLESS_IMAGE" >/dev/null
  bah rm "$c" >/dev/null
  rm -rf "$work"; trap - EXIT
  echo "$base_key" >"$store/base.key"
  echo "base images made in $(( $(date +%s) - started ))s" >&2
fi

echo "building $IMAGE from the Dockerfile (buildah bud)..." >&2
t=$(date +%s)
bah bud --quiet --pull=never --network=host --layers=false -t "$IMAGE" -f "$repo/Dockerfile" "$repo" >&2
mkdir -p "$(dirname "$out")"
rm -f "$out"
bah push --quiet "$IMAGE" "oci-archive:$out:$IMAGE"
bah rmi --force "$IMAGE" >/dev/null 2>&1 || true
bah rmi --prune >/dev/null 2>&1 || true
echo "$input_key" >"$out.key"
[ "$had_cache" = yes ] || rm -rf /var/lib/containers
echo "image built in $(( $(date +%s) - t ))s" >&2
echo "$out"
