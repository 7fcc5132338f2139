#!/usr/bin/env bash
# Simulates every example scene (examples/*/*.yaml) under each of the given formulations and
# writes one trajectory per pair, OUT_DIR/<example>_<scene>_<formulation>.json, with the
# given quasidyn binary: the input of scripts/compare_trajectories.py, which compares two such
# folders (e.g. two builds, before and after a change of the solvers; docs/architecture.md).
# A pair the formulation cannot run (a planar-only formulation on a 3D scene, ...) is skipped
# and named.
# Usage: scripts/example_trajectories.sh QUASIDYN EXAMPLES_DIR OUT_DIR [FORMULATION ...]
#        (default formulations: qp socp log-barrier log-barrier-cone)
set -euo pipefail
if [[ $# -lt 3 ]]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
quasidyn=$1
examples=$2
out=$3
shift 3
formulations=("$@")
[[ ${#formulations[@]} -gt 0 ]] || formulations=(qp socp log-barrier log-barrier-cone)
[[ -x "$quasidyn" ]] || { echo "example_trajectories.sh: $quasidyn is not an executable" >&2; exit 2; }
compgen -G "$examples/*/*.yaml" >/dev/null ||
  { echo "example_trajectories.sh: no scene files $examples/*/*.yaml" >&2; exit 2; }
mkdir -p "$out"
written=0
for scene in "$examples"/*/*.yaml; do
  example=$(basename "$(dirname "$scene")")
  name=$(basename "$scene" .yaml)
  for formulation in "${formulations[@]}"; do
    file="$out/${example}_${name}_${formulation}.json"
    if ! "$quasidyn" simulate "$scene" --formulation "$formulation" --quiet --out "$file" \
        >/dev/null 2>"$out/.error"; then
      echo "skipped ${example}/${name}.yaml under $formulation: $(tail -1 "$out/.error" | cut -c1-200)"
      rm -f "$file"
    else
      written=$((written + 1))
    fi
  done
done
rm -f "$out/.error"
if [[ $written -eq 0 ]]; then
  echo "example_trajectories.sh: no trajectory written (every pair failed)" >&2
  exit 1
fi
echo "$written trajectories in $out"
