#!/usr/bin/env bash
# The talk's 180° turn of the planar hand (row T9 of docs/reproductions.md; docs/control.md,
# "Refining a planner's path"): the RRT's path refined by the trajectory optimiser, twice.
#
#   scripts/planar_hand_half_turn.sh BUILD OUT [SEEDS]
#
# 1. The planner as configured (seed 0, its extensions repaired with up to 16 substeps):
#    OUT/plan.json, OUT/refined.json.
# 2. The planner without substeps (--max-substeps 1: each path step is one step of h, as the
#    optimiser's rollout steps) for each seed of SEEDS (default 0 1 2 3 4 5 6 7):
#    OUT/plan_whole_steps_seed<s>.json, OUT/refined_whole_steps_seed<s>.json.
#
# Every refinement: goal (0, 0.05, π), goal cost on the last step only (w = 0,
# w_T = (100, 100, 10)), ρ = 0.01, the optimiser's default 1 mm penetration tolerance; its
# per-iteration table and summary go to the refined file's name with .txt for .json. The
# planner's summaries go to stdout; repro/papers/talk_half_turn.py reads the files.
set -euo pipefail
build=$1
out=$2
seeds=${3:-0 1 2 3 4 5 6 7}
qd="$build/quasidyn"
scene=examples/planar_hand/scene.yaml
refine() {  # plan file, refined file
  "$qd" optimize "$scene" --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 \
    --terminal-weight 100 100 10 --rate-weight 0.01 --initial "$1" --out "$2" > "${2%.json}.txt"
}
echo "== planner as configured (substeps), seed 0"
"$qd" plan "$scene" --seed 0 --out "$out/plan.json" --quiet
refine "$out/plan.json" "$out/refined.json"
for seed in $seeds; do
  echo "== planner without substeps (--max-substeps 1), seed $seed"
  "$qd" plan "$scene" --seed "$seed" --max-substeps 1 --out "$out/plan_whole_steps_seed$seed.json" \
    --quiet
  refine "$out/plan_whole_steps_seed$seed.json" "$out/refined_whole_steps_seed$seed.json"
done
