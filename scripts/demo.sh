#!/usr/bin/env bash
# README command 1: install what is missing, build, and run `quasidyn demo`: the arm picks a
# cube and places it on a stack (Pang & Tedrake 2021, Fig. 1), from the scene built into the
# program, writing the trajectory, a self-contained HTML viewer and SVG plots into
# quasidyn-demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the demo needs: the library's packages, and the command line and the Python module
# built (the `demo` presets); README command 2 installs and builds the rest into the same tree.
scripts/setup.sh demo
scripts/build.sh demo
# The Python module into the system python3's site folder (docs/python.md).
sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
"${sudo_cmd[@]}" cmake --install build/release --component python >/dev/null
/usr/bin/python3 -c "import quasidyn; print('python: import quasidyn works, version', quasidyn.__version__ if hasattr(quasidyn, '__version__') else '')"
# The demo runs the scene built into the program (examples/arm_cubes): no files needed.
build/release/quasidyn demo --out quasidyn-demo
echo
echo "Open quasidyn-demo/arm_cubes.html in a browser to watch the run (no network needed);"
echo "the plots are quasidyn-demo/*.svg."
