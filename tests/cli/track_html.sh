#!/usr/bin/env bash
# `quasidyn track --html` (docs/viewer.md, "A plan executed on a plant"): the planar hand's plan
# executed at h/2 with replanning writes one page holding the plant's run (its frames at the plan's
# control steps), every plan it ran (each from the time the plant had reached when it was made,
# with the step counts the command printed), D of both over time and the plans as one overlay;
# the page's data is valid JSON. A plan of another scene, and an --html path that is not a page,
# are refused with exit 2 and a message naming the mismatch, and no page is written.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_hand/scene.yaml

"$qd" plan "$scene" --seed 0 --out "$tmp/plan.json" --quiet > "$tmp/plan.txt" 2>&1 ||
  fail "plan exited non-zero: $(cat "$tmp/plan.txt")"
"$qd" track "$tmp/plan.json" --plant-scene "$scene" --substeps 2 --replan 2 \
  --out "$tmp/exec.json" --html "$tmp/run.html" > "$tmp/track.txt" 2>&1 ||
  fail "track --html exited non-zero: $(cat "$tmp/track.txt")"
grep -q "^viewer  *$tmp/run.html" "$tmp/track.txt" || fail "no viewer line: $(cat "$tmp/track.txt")"
/usr/bin/python3 - "$tmp/run.html" "$tmp/track.txt" "$tmp/exec.json" <<'PY' || fail "the page's data: see above"
import json, math, re, sys
html, text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
match = re.search(r'<script id="quasidyn-data" type="application/json">(.*?)</script>', html, re.S)
data = json.loads(match.group(1))
execution, frames = data["execution"], data["frames"]
h = data["run"]["time_step"]
rows = [(int(m.group(1)), int(m.group(2))) for m in
        re.finditer(r"^\d+\s+(?:yes|no)\s+(\d+)\((\d+)\)", text, re.M)]
plans = execution["plans"]
assert len(plans) == len(rows) >= 2, (len(plans), rows)
steps_run = sum(run for _, run in rows)
executed = json.load(open(sys.argv[3]))
assert len(executed["steps"]) == steps_run, (len(executed["steps"]), steps_run)
# The plant's run: q_0 and one frame per control step, t_k = k h.
assert len(frames["t"]) == len(execution["plant"]["t"]) == steps_run + 1, len(frames["t"])
for k, t in enumerate(execution["plant"]["t"]):
    assert abs(t - k * h) <= 1e-5 * max(h, t), (k, t)  # 6 significant digits
# Each plan: its T + 1 configurations, from the time the plant reached when it was made.
start = 0
for r, (plan, (steps, run)) in enumerate(zip(plans, rows)):
    assert plan["steps"] == steps and plan["steps_run"] == run, (r, plan["steps"], steps)
    assert abs(plan["start_time"] - start * h) <= 1e-5 * max(h, start * h), (r, plan["start_time"])
    assert len(plan["t"]) == len(plan["distance"]) == steps + 1, r
    start += run
# D: the plant's at each frame, that of the first plan's start equal to the plant's q_0's, and
# the goal line printed.
distance = execution["plant"]["distance"]
assert len(distance) == steps_run + 1
assert abs(distance[0] - plans[0]["distance"][0]) <= 1e-5 * distance[0]
final = float(re.search(r"^goal\s+.*\(D (\S+), tolerance (\S+)\)", text, re.M).group(1))
assert abs(distance[-1] - final) <= 1e-5 * final, (distance[-1], final)
deepest = max(float(line.split()[-1]) for line in text.splitlines() if re.match(r"^\d+\s+(yes|no)\s", line))
assert abs(execution["plant"]["max_penetration"] - deepest) <= 1e-5 * deepest
# The plans drawn as one overlay: at each time the plan then running, to the run's end.
overlay = data["overlays"][0]
assert len(overlay["t"]) == len(overlay["poses"]) == steps_run + 1, len(overlay["t"])
assert all(a < b for a, b in zip(overlay["t"], overlay["t"][1:]))
print(f"page: {len(plans)} plans, {steps_run} plant steps, D {distance[0]} -> {distance[-1]}")
PY

# A plan of another scene: refused, the coordinates' mismatch named, no page written.
"$qd" plan examples/planar_pushing/scene.yaml --seed 0 --out "$tmp/pushing.json" --quiet > /dev/null 2>&1 ||
  fail "plan planar_pushing failed"
"$qd" track "$tmp/pushing.json" --plant-scene "$scene" --html "$tmp/bad.html" > "$tmp/bad.txt" 2>&1
[ $? -eq 2 ] && grep -q "plant scene: its n_q = 7 does not match the model's 5" "$tmp/bad.txt" ||
  fail "a plan of another scene: $(cat "$tmp/bad.txt")"
[ ! -e "$tmp/bad.html" ] || fail "a page was written for a plan of another scene"
"$qd" track "$tmp/plan.json" --plant-scene "$scene" --html "$tmp/run.txt" > "$tmp/bad.txt" 2>&1
[ $? -eq 2 ] && grep -q -- "--html" "$tmp/bad.txt" || fail "--html run.txt: $(cat "$tmp/bad.txt")"
echo "track --html: OK"
