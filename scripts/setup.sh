#!/usr/bin/env bash
# Installs the Debian packages quasidyn needs, when any is missing (run as root, or with sudo
# available). Safe to run again: it installs nothing that is present.
#   scripts/setup.sh demo   what the demo needs: the library, the command line, the Python
#                           module and the viewer's bundle (README command 1)
#   scripts/setup.sh        all of it: the demo's packages and those of the tests, benchmarks,
#                           peers and reference solvers (README command 2)
set -euo pipefail
scope=${1:-all}
[[ $scope == demo || $scope == all ]] || { echo "setup: unknown scope '$scope' (demo or all)" >&2; exit 2; }
# The build, the library's own dependencies (docs/dependencies.md) and the Python module.
demo_packages=(
  build-essential cmake ninja-build ccache pkg-config
  libeigen3-dev libyaml-cpp-dev liburdfdom-dev libcli11-dev nlohmann-json3-dev
  libsdformat-dev libmujoco-dev libqhull-dev libassimp-dev libzip-dev libtinyxml2-dev
  libgl-dev libopengl-dev
  python3 python3-dev python3-numpy pybind11-dev
)
# The tests' and benchmarks' tools, references and peers, and the Python features they exercise.
test_packages=(
  clang-format clang-14 libclang-rt-14-dev libfcl-dev libccd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsiconos-numerics-dev coinor-libbonmin-dev python3-cvxopt python3-scipy
  python3-pytest python3-matplotlib python3-venv python3-pip python3-setuptools python3-wheel
  python3-distributed python3-dask python3-zarr python3-yaml python3-torch
  libbullet-dev libode-dev
)
packages=("${demo_packages[@]}")
[[ $scope == all ]] && packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The web viewer is bundled with npm at build time (both scopes) and tested in headless
# Chromium (all). A node/npm already on PATH is used as it is; otherwise Debian's.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[[ $scope == all && ! -x /usr/bin/chromium ]] && missing+=(chromium)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  # No recommended packages: the demo's closure stays what it needs (the list above is complete
  # for the build; the test `setup.demo_packages` checks it against what the demo build finds).
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
