#!/usr/bin/env bash
# Times README command 1 (scripts/demo.sh) as a new user meets it: a clean clone of HEAD in a
# fresh Debian 12 (bookworm) minimal system, without any of the packages, an empty ccache.
# Run as root; needs debootstrap and the network to the Debian mirror and the npm registry.
#   scripts/measure_demo_fresh.sh WORK_DIR [BASE_DIR]
# WORK_DIR receives the system (about 2 GB once the demo is built) and is removed at the end.
# BASE_DIR, when given, is a minimal system made earlier by `debootstrap --variant=minbase
# bookworm BASE_DIR` and is copied instead of made anew (its making is not part of the time).
# Prints each phase's wall time and the build's CPU time (user + sys): on a shared machine the
# CPU time over the core count bounds the wall time an idle machine would take.
set -euo pipefail
work=${1:?usage: measure_demo_fresh.sh WORK_DIR [BASE_DIR]}
base=${2:-}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
[[ $(id -u) -eq 0 ]] || { echo "measure_demo_fresh: run as root (chroot, mounts)" >&2; exit 2; }
[[ ! -e $work ]] || { echo "measure_demo_fresh: $work exists; give a new folder" >&2; exit 2; }
if [[ -n $base ]]; then
  cp -a "$base" "$work"
else
  debootstrap --variant=minbase bookworm "$work" http://deb.debian.org/debian >/dev/null
fi
cleanup() {
  for m in dev/pts dev sys proc; do umount -l "$work/$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cp /etc/resolv.conf "$work/etc/resolv.conf"
# The host's trust store, for registries reached through a proxy with a CA of its own (npm's
# registry is, on the development machine); apart from the Debian bundle the system keeps.
mkdir -p "$work/etc/ssl"
cp /etc/ssl/certs/ca-certificates.crt "$work/etc/ssl/host-ca.crt"
mount -t proc proc "$work/proc"
mount --rbind /sys "$work/sys"
mount --rbind /dev "$work/dev"
git clone -q "$source_dir" "$work/root/quasidyn"
echo "measure_demo_fresh: commit $(git -C "$work/root/quasidyn" rev-parse --short HEAD), $(nproc) cores"
# Inside: the demo's three phases as scripts/demo.sh runs them, each timed.
chroot "$work" /usr/bin/env -i HOME=/root TERM=dumb \
  NODE_EXTRA_CA_CERTS=/etc/ssl/host-ca.crt npm_config_cafile=/etc/ssl/host-ca.crt \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c '
  set -euo pipefail
  cd /root/quasidyn
  TIMEFORMAT="%R s wall, %U s user, %S s sys"
  echo "packages (scripts/setup.sh demo):"; time scripts/setup.sh demo
  echo "build and demo (bash scripts/demo.sh, packages present):"
  status=0
  time bash scripts/demo.sh >demo.log 2>&1 || status=$?
  tail -n 40 demo.log
  echo "build steps: $(grep -c "^\[" demo.log || true); scripts/demo.sh exit $status"
  exit $status'
