#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job on a shipped scene:
# the arm picks a cube and places it on a stack (Pang & Tedrake 2021, Fig. 1), writing the
# trajectory and a self-contained HTML viewer into quasidyn-demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
# The Python module into the system python3's site folder (docs/python.md).
sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
"${sudo_cmd[@]}" cmake --install build/release --component python >/dev/null
/usr/bin/python3 -c "import quasidyn; print('python: import quasidyn works, version', quasidyn.__version__ if hasattr(quasidyn, '__version__') else '')"
mkdir -p quasidyn-demo
build/release/quasidyn info examples/arm_cubes/scene.yaml
build/release/quasidyn simulate examples/arm_cubes/scene.yaml \
  --out quasidyn-demo/arm_cubes.json --html quasidyn-demo/arm_cubes.html
echo "Open quasidyn-demo/arm_cubes.html in a browser to watch the run."
