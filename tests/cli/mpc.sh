#!/usr/bin/env bash
# `quasidyn mpc` on the notes' example (examples/point_robot_walls): a short closed loop writes
# the plant's trajectory (with v), the viewer page and the per-step CSV; the summary names the
# MIQP's solve time, nodes and gap and agrees with the CSV; bad input exits 2 naming the field.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
scene=$(realpath examples/point_robot_walls/scene.yaml)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || fail "cannot enter $tmp"

"$qd" mpc --help | grep -q -- "--horizon" || fail "mpc --help does not list --horizon"
"$qd" mpc "$scene" --horizon 5 --steps 20 --out run.json --html run.html --csv steps.csv \
  > out.txt 2> err.txt || fail "mpc exited non-zero: $(cat err.txt)"
for key in "horizon" "steps" "cost J\*" "MIQP solve" "MIQP nodes" "largest gap" "statuses" \
           "final q_a" "trajectory" "viewer" "per-step CSV"; do
  grep -q "^$key " out.txt || fail "summary lacks '$key': $(cat out.txt)"
done
grep -q "^steps            20 of 20" out.txt || fail "not all steps done: $(cat out.txt)"
grep -q "<canvas\|three\|THREE" run.html || fail "run.html is no viewer"
# The page carries the MPC's target: the robot drawn at x_d's configuration (3, -5).
python3 - run.html <<'PY' || fail "run.html has no target"
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script id="quasidyn-data" type="application/json">(.*?)</script>',
                            page, re.S).group(1))
target = data["target"]
assert target["label"] == "target" and len(target["bodies"]) == 1, target
b = target["bodies"][0]
assert data["bodies"][b]["kind"] == "robot", data["bodies"][b]
assert abs(target["poses"][7 * b] - 3) < 1e-6 and abs(target["poses"][7 * b + 1] + 5) < 1e-6, target
PY
python3 - out.txt run.json steps.csv <<'PY' || fail "mpc outputs are inconsistent"
import csv, json, re, sys
summary = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
assert d["format"] == "quasidyn-trajectory" and d["formulation"]["type"] == "stewart-trinkle", d["formulation"]
assert len(d["steps"]) == 20 and len(d["steps"][0]["v"]) == 2, d["steps"][0].keys()
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 20 and all(r["status"] == "optimal" for r in rows), [r["status"] for r in rows]
costs = [float(r["cost"]) for r in rows]
m = re.search(r"^cost J\* +first ([-\d.e+]+), last ([-\d.e+]+)$", summary, re.M)
assert abs(float(m.group(1)) - costs[0]) <= 1e-4 * abs(costs[0]), (m.group(0), costs[0])
assert costs[-1] < costs[0], costs
times = sorted(float(r["solve_seconds"]) for r in rows)
m = re.search(r"^MIQP solve +median ([\d.e+-]+) ms, max ([\d.e+-]+) ms$", summary, re.M)
assert abs(float(m.group(2)) - 1e3 * times[-1]) <= 0.01 * 1e3 * times[-1] + 1e-3, m.group(0)
# The robot moved toward the target (3, −5) from (−2, −4).
assert d["steps"][-1]["q"][0] > -1.9, d["steps"][-1]["q"]
PY

# Bad input: exit code 2 and a message naming what is wrong.
"$qd" mpc "$scene" --horizon 0 > /dev/null 2> err.txt; [ $? -eq 2 ] || fail "--horizon 0 did not exit 2"
grep -q -- "mpc.horizon: must be >= 1 (got 0)" err.txt || fail "--horizon 0: $(cat err.txt)"
"$qd" mpc "$scene" --formulation qp --steps 1 > /dev/null 2> err.txt; [ $? -eq 2 ] ||
  fail "--formulation qp did not exit 2"
grep -q "stewart-trinkle or anitescu" err.txt || fail "--formulation qp: $(cat err.txt)"
sed 's/target: \[3, -5, 0, 0\]/target: [3, -5, 0]/' "$scene" > short_target.yaml
"$qd" mpc short_target.yaml --steps 1 > /dev/null 2> err.txt; [ $? -eq 2 ] ||
  fail "a 3-number target did not exit 2"
grep -q "short_target.yaml:[0-9]*: mpc.target" err.txt || fail "target: $(cat err.txt)"
grep -v "^mpc:" "$scene" | sed '/^  horizon:/,$d' > no_block.yaml
"$qd" mpc no_block.yaml --steps 1 > /dev/null 2> err.txt; [ $? -eq 2 ] || fail "no mpc: block did not exit 2"
grep -q "no mpc: block" err.txt || fail "no block: $(cat err.txt)"
echo "mpc: ok"
