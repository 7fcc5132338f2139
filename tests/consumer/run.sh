#!/usr/bin/env bash
# Installs a built tree to a scratch prefix, then builds and runs tests/consumer against the
# prefix alone (no package registry, no build tree): what `find_package(quasidyn)` gives a user.
# Usage: tests/consumer/run.sh <build dir> <scratch dir>; run from the source root.
set -euo pipefail
build=$1
scratch=$2
rm -rf "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

for f in bin/quasidyn include/quasidyn/stepping/step_model.h \
         lib/cmake/quasidyn/quasidynConfig.cmake lib/cmake/quasidyn/quasidynConfigVersion.cmake; do
  [[ -e $prefix/$f ]] || { echo "install: $f is missing from the prefix" >&2; exit 1; }
done
ls "$prefix"/lib/libquasidyn_*.a >/dev/null
# Nothing installed may point back into the source or build tree.
if grep -rlF -e "$PWD/src" -e "$build/layer_include" "$prefix/lib/cmake"; then
  echo "install: the CMake package above names the source or build tree" >&2
  exit 1
fi
"$prefix/bin/quasidyn" --version

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S tests/consumer -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "${launcher[@]}" >/dev/null
cmake --build "$scratch/build" -j2 >/dev/null
"$scratch/build/step_once" examples/planar_gripper/scene.yaml
