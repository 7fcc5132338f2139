#!/usr/bin/env bash
# `quasidyn optimize` toward the goal of the scene's planning: block weighs the goal cost by the
# block's metric (control/planner_metric.h): a side file over the planar hand whose metric counts
# 1 cm as 0.1 rad (goal_weights position 10, rotation 1) optimises with w = (100, 100, 1) and the
# rate weight 0.1 · mean(w) = 6.7, and says so; --object-weight, or a --goal of the command line,
# keeps the weights given (1 by default) and prints no such line. Run from the source folder.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/side.yaml" <<YAML
base: $(realpath examples/planar_hand/scene.yaml)
planning:
  goal: [0.0, 0.05, 0.5236]
  goal_tolerance: 0.05
  goal_weights: {position: 10, rotation: 1}
  bounds: {lower: [-0.15, 0.05, -3.1416], upper: [0.15, 0.15, 3.1416]}
  time_step: 0.1
YAML
optimize() { "$qd" optimize "$tmp/side.yaml" --horizon 3 --iterations 2 --quiet \
  --out "$tmp/plan.json" "$@" > "$tmp/out.txt" 2>&1; }

optimize || fail "optimize exited non-zero: $(cat "$tmp/out.txt")"
grep -Eq "^goal weights +the planner's metric: w = +100 +100 +1, rate weight 6\.7$" \
  "$tmp/out.txt" || fail "not the block's metric: $(cat "$tmp/out.txt")"
optimize --object-weight 1 1 1 || fail "optimize --object-weight: $(cat "$tmp/out.txt")"
grep -q "^goal weights" "$tmp/out.txt" && fail "--object-weight given, yet: $(cat "$tmp/out.txt")"
optimize --goal 0 0.05 0.5236 || fail "optimize --goal: $(cat "$tmp/out.txt")"
grep -q "^goal weights" "$tmp/out.txt" && fail "--goal given, yet: $(cat "$tmp/out.txt")"
exit 0
