#!/usr/bin/env bash
# `quasidyn track` on a planner's path with regrasps (docs/control.md, "Tracking through
# regrasps"): the planar hand's 180° plan, run open and closed loop on a plant of half the time
# step; every regrasp is executed as a motion of the plant, no shape passes deeper than the
# plan's tolerance during them, and the plan's page (--html) shows the tree's statistics.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_hand/scene.yaml

"$qd" plan "$scene" --seed 0 --out "$tmp/plan.json" --html "$tmp/plan.html" --quiet \
  > "$tmp/plan.txt" 2>&1 || fail "plan exited non-zero: $(cat "$tmp/plan.txt")"
regrasps=$(/usr/bin/python3 -c "import json, sys
print(json.load(open(sys.argv[1]))['plan']['path']['step_edges'].count('regrasp'))" "$tmp/plan.json")
[ "$regrasps" -gt 0 ] || fail "the plan has no regrasp: the test would not test them"

for loop in --open-loop ""; do
  "$qd" track "$tmp/plan.json" --plant-scene "$scene" --substeps 2 $loop --out "$tmp/exec.json" \
    > "$tmp/track.txt" 2>&1 || fail "track $loop exited non-zero: $(cat "$tmp/track.txt")"
  grep -q "^regrasps  *$regrasps of $regrasps executed" "$tmp/track.txt" ||
    fail "track $loop did not execute the $regrasps regrasps: $(cat "$tmp/track.txt")"
  # One line per regrasp: what the plant's objects did during its motion.
  lines=$(grep -c "^regrasp at step  [0-9]*: [0-9]* finger(s), [0-9]* plant steps; the objects moved" \
    "$tmp/track.txt")
  [ "$lines" -eq "$regrasps" ] ||
    fail "track $loop reports $lines regrasps one by one, not $regrasps: $(cat "$tmp/track.txt")"
  # The regrasp motions stay out of the shapes to the plan's tolerance (1 mm).
  awk '/^regrasp motion/ { for (i = 1; i <= NF; ++i) if ($i == "overlap") d = $(i + 1)
       exit !(d <= 1e-3) }' "$tmp/track.txt" ||
    fail "a regrasp passes deeper than 1 mm: $(grep '^regrasp motion' "$tmp/track.txt")"
  grep -q "^angle error" "$tmp/track.txt" || fail "track reports no final error"
  /usr/bin/python3 -c "import json, sys
d = json.load(open(sys.argv[1])); assert len(d['steps']) == int(sys.argv[2]), len(d['steps'])" \
    "$tmp/exec.json" "$(grep -c . <(/usr/bin/python3 -c "import json, sys
[print(1) for _ in json.load(open(sys.argv[1]))['steps']]" "$tmp/plan.json"))" ||
    fail "the executed trajectory does not have the plan's steps"
done

# The plan's page carries the tree's statistics and the time shares in its notes.
/usr/bin/python3 - "$tmp/plan.html" > "$tmp/page.txt" 2>&1 <<'PY' ||
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script id="quasidyn-data" type="application/json">(.*?)</script>',
                            page, re.S).group(1))
notes = data["notes"]
for key in ("nodes ", "regrasps", "wall time", "goal distance", "time shares"):
    assert key in notes, (key, notes)
assert len(data["frames"]["contacts"]) > 1 and data["markers"], "no path or no tree"
PY
  fail "the plan page lacks the tree's statistics: $(cat "$tmp/page.txt")"

expect_error() {  # expected message, then the command's arguments
  local message=$1; shift
  "$qd" "$@" > "$tmp/err.txt" 2>&1; local code=$?
  [ "$code" -eq 2 ] || fail "exit $code (expected 2) for: $*"
  grep -q -- "$message" "$tmp/err.txt" || fail "no '$message' in: $(cat "$tmp/err.txt")"
}
expect_error "tracking.regrasp.clearance: must be in \[1e-12, 1000\] \[m\] (got 0)" track "$tmp/plan.json" \
  --plant-scene "$scene" --regrasp-clearance 0
echo "ok"
