#!/usr/bin/env bash
# The RRT study and ablation end to end, small: rrt_study_bench on one seed of two examples
# (study and ablation at a 200-node budget), then scripts/plot_rrt_ablation.py; checks the CSVs
# (every replay deviation 0, the header) and that the PNG exists and is not tiny. The 20-seed
# figures of docs/planning.md come from the same program with --seeds 20.
# Usage: rrt_ablation.sh RRT_STUDY_BENCH OUT_DIR   (run from the repository root)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: rrt_ablation.sh RRT_STUDY_BENCH OUT_DIR"
bench=$1
out=$2
mkdir -p "$out" || fail "cannot create $out"
rm -f "$out"/*.csv "$out"/*.png
"$bench" --seeds 1 --examples planar_pushing,planar_hand --out "$out" > "$out/study.txt" \
  || fail "study exited non-zero: $(cat "$out/study.txt")"
"$bench" --ablation --seeds 1 --budget 200 --examples planar_pushing,planar_hand --out "$out" \
  > "$out/ablation.txt" || fail "ablation exited non-zero: $(cat "$out/ablation.txt")"
/usr/bin/python3 - "$out" <<'PY' || fail "bad CSVs"
import csv, pathlib, sys
out = pathlib.Path(sys.argv[1])
study = list(csv.DictReader(open(out / "study.csv")))
assert len(study) == 2 and all(float(r["replay_deviation"]) <= 1e-9 for r in study), study
ablation = list(csv.DictReader(open(out / "ablation.csv")))
assert len(ablation) == 8, len(ablation)
assert {r["variant"] for r in ablation} == {"metric+grasp", "euclidean+grasp", "metric", "euclidean"}
assert len(list(out.glob("tree_*.csv"))) == 8
PY
/usr/bin/python3 scripts/plot_rrt_ablation.py "$out" "$out/rrt_ablation.png" --dpi 50 \
  || fail "plot_rrt_ablation.py"
[ "$(stat -c %s "$out/rrt_ablation.png")" -gt 20000 ] || fail "the PNG is too small to hold the plots"
/usr/bin/python3 scripts/plot_rrt_ablation.py "$out/none" "$out/none.png" 2> /dev/null \
  && fail "an empty folder did not fail"
echo PASS
