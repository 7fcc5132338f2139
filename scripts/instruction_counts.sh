#!/usr/bin/env bash
# Instructions per call of Calc, CalcDiff(B) and CalcDiff(A+B) at the benchmark states
# (bench/instruction_count_bench.cc), counted by valgrind's callgrind: repeatable whatever the
# load of the machine, unlike times. Prints one line per case:
#   scene formulation  Calc  B  A+B  B/Calc  A+B/Calc     (instructions per call)
# Usage: scripts/instruction_counts.sh [BUILD_DIR] [CASE ...]
#   BUILD_DIR defaults to build/release; a CASE is scene:formulation (default: arm_cubes:qp
#   arm_cubes:socp planar_hand:qp). Needs valgrind (Debian package valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(arm_cubes:qp arm_cubes:socp planar_hand:qp)
repeats=5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-12s %-16s %12s %12s %12s %8s %8s\n' scene formulation Calc B A+B B/Calc A+B/Calc
for c in "${cases[@]}"; do
  scene=${c%%:*}
  formulation=${c#*:}
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    "$build/instruction_count_bench" "$scene" "$formulation" "$repeats" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" | awk -v r=$repeats \
    -v scene="$scene" -v f="$formulation" '
    function count(s) { gsub(",", "", s); return s / r }
    /MeasuredCalc\(/ { calc = count($1) }
    /MeasuredCalcDiffB\(/ { b = count($1) }
    /MeasuredCalcDiffAB\(/ { ab = count($1) }
    END {
      if (b == "") printf "%-12s %-16s %12.0f %12s %12s %8s %8s\n", scene, f, calc, "-", "-", "-", "-";
      else printf "%-12s %-16s %12.0f %12.0f %12.0f %8.3f %8.3f\n", scene, f, calc, b, ab,
                  b / calc, ab / calc }'
done
