#!/usr/bin/env bash
# `pip install .` as a user runs it, into a fresh venv (--system-site-packages: numpy, and
# setuptools/wheel for --no-build-isolation, come from Debian), then imports quasidyn from a
# folder outside the checkout and steps a scene. The build directory given is reused
# (QUASIDYN_CMAKE_BUILD_DIR) so that the test does not compile the library a second time.
# Usage: tests/pip/run.sh <build dir> <scratch dir>; run from the source root.
set -euo pipefail
build=$1
scratch=$2
source_dir=$PWD
rm -rf "$scratch"
mkdir -p "$scratch/elsewhere"
/usr/bin/python3 -m venv --system-site-packages "$scratch/venv"
python=$scratch/venv/bin/python
QUASIDYN_CMAKE_BUILD_DIR=$build PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$python" -m pip install --quiet --no-build-isolation --no-deps --no-index "$source_dir"

cd "$scratch/elsewhere"
"$python" - "$scratch/venv" "$source_dir/examples/planar_gripper/scene.yaml" <<'PY'
import pathlib
import sys

import quasidyn

venv, scene_path = pathlib.Path(sys.argv[1]).resolve(), sys.argv[2]
package = pathlib.Path(quasidyn.__file__).resolve().parent
assert venv in package.parents, f"imported {package}, not the venv's copy"
for name in ("py.typed", "_quasidyn.pyi"):
    assert (package / name).is_file(), f"{name} is not installed"
scene = quasidyn.load_scene(scene_path)
result = quasidyn.Stepper(scene, formulation="qp").step(scene.q0, scene.command_at(scene.time_step))
assert result.ok, result.message
print(f"quasidyn {quasidyn.__version__} from {package.relative_to(venv)}: one step ok")
PY
"$scratch/venv/bin/pip" --disable-pip-version-check show quasidyn | grep -E '^(Name|Version|License):'
