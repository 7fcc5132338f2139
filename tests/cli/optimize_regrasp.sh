#!/usr/bin/env bash
# `quasidyn optimize --initial PLAN.json` on a planner's plan with regrasps writes a plan file
# again (docs/plan-format.md, "Refined plans"): the plan's step kinds, its regrasps' commands
# and its planning settings are kept, the cost does not rise, and `quasidyn track` executes the
# refined plan's regrasps as motions on a plant of half the time step (run from the source
# folder).
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_hand/scene.yaml

"$qd" plan "$scene" --seed 0 --out "$tmp/plan.json" --quiet > "$tmp/plan.txt" 2>&1 ||
  fail "plan exited non-zero: $(cat "$tmp/plan.txt")"
regrasps=$(/usr/bin/python3 -c "import json, sys
print(json.load(open(sys.argv[1]))['plan']['path']['step_edges'].count('regrasp'))" "$tmp/plan.json")
[ "$regrasps" -gt 0 ] || fail "the plan has no regrasp: the test would not test them"

"$qd" optimize "$scene" --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 \
  --terminal-weight 100 100 10 --rate-weight 0.01 --initial "$tmp/plan.json" --iterations 5 \
  --per-segment --segment-steps 4 --out "$tmp/refined.json" --quiet > "$tmp/refine.txt" 2>&1 ||
  fail "optimize --initial plan exited non-zero: $(cat "$tmp/refine.txt")"
grep -q "one QP per segment" "$tmp/refine.txt" || fail "not per segment: $(cat "$tmp/refine.txt")"
awk '/^cost/ { exit !($4 <= $2) }' "$tmp/refine.txt" ||
  fail "the refinement raised the cost: $(grep '^cost' "$tmp/refine.txt")"

# The refined file is a plan file with the plan's kinds, regrasp commands and settings.
/usr/bin/python3 - "$tmp/plan.json" "$tmp/refined.json" > "$tmp/check.txt" 2>&1 <<'PY' ||
import json, sys
plan, refined = (json.load(open(f)) for f in sys.argv[1:3])
edges = plan["plan"]["path"]["step_edges"]
assert refined["plan"]["path"]["step_edges"] == edges, "step kinds changed"
assert refined["plan"]["settings"] == plan["plan"]["settings"], "settings changed"
assert refined["plan"]["goal"] == plan["plan"]["goal"], "goal changed"
for k, kind in enumerate(edges):
    if kind == "regrasp":
        assert refined["steps"][k]["u"] == plan["steps"][k]["u"], f"regrasp {k + 1} moved"
r = refined["plan"]["refinement"]
assert r["iterations"] == 5 and r["cost"] <= r["initial_cost"], r
PY
  fail "the refined plan file: $(cat "$tmp/check.txt")"

# track executes the refined plan's regrasps as motions, open loop and with the stabiliser.
for loop in --open-loop ""; do
  "$qd" track "$tmp/refined.json" --plant-scene "$scene" --substeps 2 $loop \
    > "$tmp/track.txt" 2>&1 || fail "track refined $loop exited non-zero: $(cat "$tmp/track.txt")"
  grep -q "^regrasps  *$regrasps of $regrasps executed" "$tmp/track.txt" ||
    fail "track $loop did not execute the $regrasps regrasps: $(cat "$tmp/track.txt")"
done

# Refined again from the refined plan file: its regrasps are read back as regrasps.
"$qd" optimize "$scene" --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 \
  --terminal-weight 100 100 10 --rate-weight 0.01 --initial "$tmp/refined.json" --iterations 1 \
  --per-segment --out "$tmp/again.json" --quiet > "$tmp/again.txt" 2>&1 ||
  fail "optimize --initial refined.json exited non-zero: $(cat "$tmp/again.txt")"
grep -q "($regrasps regrasp steps kept)" "$tmp/again.txt" ||
  fail "the refined file's regrasps were not read back: $(cat "$tmp/again.txt")"

# A file format that cannot hold the kinds is written with a warning naming it.
"$qd" optimize "$scene" --goal 0 0.05 3.141592653589793 --initial "$tmp/plan.json" \
  --iterations 0 --out "$tmp/refined.npz" > "$tmp/npz.txt" 2>&1 ||
  fail "optimize --out .npz exited non-zero: $(cat "$tmp/npz.txt")"
grep -q "not a .json plan file" "$tmp/npz.txt" || fail "no warning: $(cat "$tmp/npz.txt")"

expect_error() {  # expected message, then the command's arguments
  local message=$1; shift
  "$qd" "$@" > "$tmp/err.txt" 2>&1; local code=$?
  [ "$code" -eq 2 ] || fail "exit $code (expected 2) for: $*"
  grep -q -- "$message" "$tmp/err.txt" || fail "no '$message' in: $(cat "$tmp/err.txt")"
}
expect_error "optimizer.smoothing.method: unknown smoothing 'pieces' (log-barrier, randomized)" \
  optimize "$scene" --goal 0 0.05 3.14 --initial "$tmp/plan.json" --smoothing pieces \
  --out "$tmp/x.json"
expect_error "optimizer.segment_steps: must be >= 0 (got -1)" optimize "$scene" --goal 0 0.05 3.14 \
  --initial "$tmp/plan.json" --per-segment --segment-steps -1 --out "$tmp/x.json"
expect_error "optimizer.per_segment: per_segment and shrinking_horizon exclude each other" \
  optimize "$scene" --goal 0 0.05 3.14 --initial "$tmp/plan.json" --per-segment \
  --shrinking-horizon --out "$tmp/x.json"
echo "ok"
