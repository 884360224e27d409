#!/usr/bin/env bash
# Decides whether this machine can run the test bed's node. Prints nothing and exits 0 when it can;
# otherwise prints the reason on one line and exits 1. PADDOCK_NODE=0 turns the node off on purpose.
# Read-only apart from a bridge and a veth pair it creates and deletes at once.
set -uo pipefail

no() { echo "$*"; exit 1; }

[ "${PADDOCK_NODE:-1}" != 0 ] || no "PADDOCK_NODE=0"
[ "$(uname -s)" = Linux ] || no "the node needs Linux"
[ "$(id -u)" = 0 ] || no "the node needs root (kubelet, containerd and the pod network)"
for cmd in ip go apt-get dpkg-query flock; do
  command -v "$cmd" >/dev/null || no "the node needs $cmd on PATH"
done
grep -qw overlay /proc/filesystems || no "the kernel has no overlay filesystem"
[ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] || no "the kernel has no br_netfilter (bridged pod traffic must reach the firewall)"
[ -e /proc/net/netfilter/nfnetlink_log ] || [ -d /proc/sys/net/netfilter ] || no "the kernel has no netfilter"
if grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts; then
  grep -qw memory /sys/fs/cgroup/cgroup.controllers || no "cgroup v2 without the memory controller"
elif ! grep -q ' /sys/fs/cgroup/memory cgroup ' /proc/mounts; then
  no "neither a cgroup v2 hierarchy nor a cgroup v1 memory controller at /sys/fs/cgroup"
fi
probe=pdk-probe$$
ip link add "$probe" type bridge 2>/dev/null || no "cannot create a network bridge (kernel feature or capability missing)"
ip link del "$probe"
ip link add "$probe" type veth peer name "${probe}p" 2>/dev/null || no "cannot create a veth pair"
ip link del "$probe"
exit 0
