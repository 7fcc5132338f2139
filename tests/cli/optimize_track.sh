#!/usr/bin/env bash
# `quasidyn optimize` and `quasidyn track` on the planar hand (run from the source folder): the
# 30° turn is optimised, written with its cost plot, tracked open and closed loop on a plant
# with the talk's 3 mm offset (and our friction and time-step changes), and bad input gets exit code 2 and a message naming it.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_hand/scene.yaml

"$qd" optimize "$scene" --goal 0 0.05 0.5236 --object-weight 10 10 1 --h 0.1 \
  --out "$tmp/plan.json" --plot "$tmp/cost.svg" --html "$tmp/plan.html" > "$tmp/out.txt" 2>&1 ||
  fail "optimize exited non-zero: $(cat "$tmp/out.txt")"
for key in "iterations" "cost" "final object err" "wall time" "trajectory"; do
  grep -q "^$key " "$tmp/out.txt" || fail "summary lacks '$key'"
done
grep -q "<svg" "$tmp/cost.svg" || fail "no SVG cost plot"
# The page counts the plan's contacts (it said "contacts 0" on every frame): the fingers hold the
# ball, so frames have contacts, the same per step as the trajectory file records; it draws the
# goal.
/usr/bin/python3 - "$tmp/plan.html" "$tmp/plan.json" > "$tmp/page.txt" 2>&1 <<'PY' ||
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script id="quasidyn-data" type="application/json">(.*?)</script>',
                            page, re.S).group(1))
counts = [len(c) for c in data["frames"]["contacts"]]
steps = json.load(open(sys.argv[2]))["steps"]
assert max(counts) > 0, counts
# The page also draws the goal (the ball at (0, 0.05) turned by 30°).
target = data["target"]
assert target["label"] == "goal" and len(target["bodies"]) == 1, target
b = target["bodies"][0]
assert abs(target["poses"][7 * b] - 0) < 1e-6 and abs(target["poses"][7 * b + 1] - 0.05) < 1e-6
assert counts[1:] == [len(s.get("contacts", [])) for s in steps], (counts, len(steps))
PY
  fail "the optimize page: no contact or no goal: $(cat "$tmp/page.txt")"
# The final angle is within 3° (0.05 rad) of the goal.
awk '/^final object err/ { e = $6; if (e < 0) e = -e; exit !(e < 0.05) }' "$tmp/out.txt" ||
  fail "the ball does not reach 30°: $(grep 'final object' "$tmp/out.txt")"

for loop in --open-loop ""; do
  "$qd" track "$tmp/plan.json" --plant-scene "$scene" --offset 0.003 0 --friction-scale 1.2 \
    --substeps 2 $loop --out "$tmp/exec.json" > "$tmp/track.txt" 2>&1 ||
    fail "track $loop exited non-zero: $(cat "$tmp/track.txt")"
  grep -q "^position error" "$tmp/track.txt" || fail "track reports no final error"
  test -s "$tmp/exec.json" || fail "track wrote no trajectory"
done

# A planner's path with its regrasps as the initial guess (docs/control.md, "Refining a
# planner's path"): the 180° turn; the optimiser keeps the regrasps.
"$qd" plan "$scene" --out "$tmp/rrt.json" --quiet > "$tmp/plan.txt" 2>&1 ||
  fail "plan exited non-zero: $(cat "$tmp/plan.txt")"
"$qd" optimize "$scene" --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 \
  --terminal-weight 100 100 10 --rate-weight 0.01 --initial "$tmp/rrt.json" --quiet \
  --out "$tmp/refined.json" > "$tmp/refine.txt" 2>&1 ||
  fail "optimize --initial plan exited non-zero: $(cat "$tmp/refine.txt")"
grep -Eq "^initial guess .*\(([1-9][0-9]*) regrasp steps kept\)" "$tmp/refine.txt" ||
  fail "no regrasp kept: $(cat "$tmp/refine.txt")"
grep -q "h = 0.1 s, T = " "$tmp/refine.txt" || fail "not the plan's h: $(cat "$tmp/refine.txt")"
# The refinement keeps to what is physical (docs/control.md, "Refining a planner's path"): its
# cost falls at least 5-fold and it overlaps shapes no deeper than the guess's own rollout did.
awk '/^cost/ { exit !($4 < $2 / 5) }' "$tmp/refine.txt" ||
  fail "the refinement does not lower the cost 5-fold: $(grep '^cost' "$tmp/refine.txt")"
awk '/^penetration/ { exit !($3 <= $7) }' "$tmp/refine.txt" ||
  fail "the refined plan passes deeper than its guess: $(grep '^penetration' "$tmp/refine.txt")"

# Another formulation as the plant (the plan is qp's).
"$qd" track "$tmp/plan.json" --plant-scene "$scene" --plant-formulation socp --offset 0.003 0 \
  > "$tmp/track.txt" 2>&1 || fail "track --plant-formulation socp: $(cat "$tmp/track.txt")"
grep -q "socp" "$tmp/track.txt" || fail "the plant line does not name socp: $(cat "$tmp/track.txt")"

expect_error() {  # expected message, then the command's arguments
  local message=$1; shift
  "$qd" "$@" > "$tmp/err.txt" 2>&1; local code=$?
  [ "$code" -eq 2 ] || fail "exit $code (expected 2) for: $*"
  grep -q -- "$message" "$tmp/err.txt" || fail "no '$message' in: $(cat "$tmp/err.txt")"
}
expect_error "optimizer.object_goal: expected n_q,u = 3 numbers" optimize "$scene" --goal 0 0.05 \
  --out "$tmp/x.json"
expect_error "optimizer.horizon: must be >= 1 (got 0)" optimize "$scene" --goal 0 0.05 0.5 --horizon 0 --out "$tmp/x.json"
expect_error "does not match the model" track "$tmp/plan.json" \
  --plant-scene examples/planar_pushing/scene.yaml
expect_error "commanded by velocities" track "$tmp/plan.json" --plant-scene "$scene" \
  --plant-formulation halm-posa
expect_error "unknown formulation 'euler'" track "$tmp/plan.json" --plant-scene "$scene" \
  --plant-formulation euler
echo "ok"
