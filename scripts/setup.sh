#!/usr/bin/env bash
# Installs the Debian packages quasidyn needs, when any is missing (run as root,
# or with sudo available). Safe to run again: it installs nothing that is present.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config clang-format clang-14 libclang-rt-14-dev
  libeigen3-dev libyaml-cpp-dev liburdfdom-dev libfcl-dev libccd-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  libsiconos-numerics-dev coinor-libbonmin-dev python3 python3-cvxopt
  python3-dev python3-numpy python3-pytest pybind11-dev python3-matplotlib
  python3-venv python3-pip python3-setuptools python3-wheel
  python3-distributed python3-dask python3-zarr python3-yaml
  libsdformat-dev libmujoco-dev libqhull-dev libassimp-dev libzip-dev libtinyxml2-dev libgl-dev libopengl-dev
  libbullet-dev libode-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The web viewer is bundled with npm at build time and tested in headless Chromium.
# A node/npm already on PATH is used as it is; otherwise Debian's.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
