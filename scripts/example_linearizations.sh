#!/usr/bin/env bash
# Linearises every example scene (examples/*/*.yaml) under each of the given formulations at
# step K of its command schedule and writes the JSON answer, OUT_DIR/<example>_<scene>_<formulation>.json
# (q+, A and B; docs/gradients.md), with the given quasidyn binary: beside
# scripts/example_trajectories.sh, what shows that a change keeps the examples' derivatives
# (compare two such folders file by file with `cmp`). A pair the
# formulation cannot linearise (a planar-only formulation on a 3D scene, no gradient, ...) is
# skipped and named.
# Usage: scripts/example_linearizations.sh QUASIDYN EXAMPLES_DIR OUT_DIR [--step K] [FORMULATION ...]
#        (default step 3; default formulations: every registered one)
set -euo pipefail
if [[ $# -lt 3 ]]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
quasidyn=$1
examples=$2
out=$3
shift 3
step=3
if [[ ${1:-} == --step ]]; then
  step=$2
  shift 2
fi
formulations=("$@")
[[ -x "$quasidyn" ]] || { echo "example_linearizations.sh: $quasidyn is not an executable" >&2; exit 2; }
if [[ ${#formulations[@]} -eq 0 ]]; then
  mapfile -t formulations < <("$quasidyn" formulations --json |
    /usr/bin/python3 -c 'import json, sys; [print(f["name"]) for f in json.load(sys.stdin)]')
fi
mkdir -p "$out"
written=0
for scene in "$examples"/*/*.yaml; do
  example=$(basename "$(dirname "$scene")")
  name=$(basename "$scene" .yaml)
  for formulation in "${formulations[@]}"; do
    file="$out/${example}_${name}_${formulation}.json"
    if ! "$quasidyn" linearize "$scene" --formulation "$formulation" --step "$step" --json --quiet \
        >"$file" 2>"$out/.error"; then
      echo "skipped ${example}/${name}.yaml under $formulation: $(tail -1 "$out/.error" | cut -c1-200)"
      rm -f "$file"
    else
      written=$((written + 1))
    fi
  done
done
rm -f "$out/.error"
if [[ $written -eq 0 ]]; then
  echo "example_linearizations.sh: no linearisation written (every pair failed)" >&2
  exit 1
fi
echo "$written linearisations in $out"
