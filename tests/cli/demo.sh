#!/usr/bin/env bash
# `quasidyn demo` as a new user meets it: run from an empty temporary folder (so no scene file
# can be found on disk), it prints the summary, writes the trajectory, the viewer page and the
# plots, places the red cube on the stack, and honours --out, --quiet and --formulation.
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || fail "cannot enter $tmp"

"$qd" --help | grep -q "demo" || fail "--help does not list the demo subcommand"

# Default output folder; no progress bar on a stderr that is not a terminal (log.h).
"$qd" demo > out.txt 2> err.txt || fail "demo exited non-zero: $(cat err.txt)"
for key in "steps" "simulated time" "wall time" "contacts" "solver status" "target" \
           "final error" "final status" "viewer"; do
  grep -q "^$key " out.txt || fail "summary lacks '$key': $(cat out.txt)"
done
grep -q "^final status     solved" out.txt || fail "the demo did not finish: $(cat out.txt)"
grep -q "quasidyn-demo/arm_cubes.html" out.txt || fail "summary does not say where the page is"
[ -s err.txt ] && fail "stderr is not a terminal but got: $(cat err.txt)"
for f in arm_cubes.json arm_cubes.html red_cube_position.svg contacts.svg normal_force.svg \
         solver_iterations.svg solve_time.svg; do
  [ -s "quasidyn-demo/$f" ] || fail "quasidyn-demo/$f missing or empty"
done
grep -q "<canvas\|three\|THREE" quasidyn-demo/arm_cubes.html || fail "arm_cubes.html is no viewer"

# The files are what they claim, and the summary matches the trajectory: the red cube ends
# on top of stack_top (initial pose + one cube edge, 0.08 m, from the scene file), within
# 1 cm, the same tolerance as tests/cli/simulate.sh.
python3 - out.txt quasidyn-demo <<'PY' || fail "demo output is inconsistent"
import json, re, sys
import xml.etree.ElementTree as ET
summary, folder = open(sys.argv[1]).read(), sys.argv[2]
d = json.load(open(folder + "/arm_cubes.json"))
assert d["format"] == "quasidyn-trajectory", d.get("format")
assert d["status"] in ("solved", "solved_inaccurate"), d["status"]
n = len(d["steps"])
assert n == d["steps_requested"] and n > 0
m = re.search(r"^steps +(\d+) of (\d+)$", summary, re.M)
assert m and int(m.group(1)) == n, (m and m.group(0), n)
counts = re.search(r"^solver status +(.*)$", summary, re.M).group(1).split()
assert sum(int(c) for c in counts[1::2]) == n, counts
contacts = [len(s["contacts"]) for s in d["steps"]]
m = re.search(r"^contacts +max (\d+), mean ([\d.]+)", summary, re.M)
assert int(m.group(1)) == max(contacts), (m.group(0), max(contacts))
assert abs(float(m.group(2)) - sum(contacts) / n) <= 0.05 + 1e-9, m.group(0)
names = d["coordinate_names"]
top = [d["q0"][names.index("stack_top/root_joint/" + a)] for a in "xyz"]
final = [d["steps"][-1]["q"][names.index("red_cube/root_joint/" + a)] for a in "xyz"]
target = [top[0], top[1], top[2] + 0.08]
err = sum((f - t) ** 2 for f, t in zip(final, target)) ** 0.5
assert err < 0.01, (final, target)
m = re.search(r"^target .* at \(([-\d.]+), ([-\d.]+), ([-\d.]+)\) m$", summary, re.M)
assert all(abs(float(m.group(i + 1)) - target[i]) < 1e-4 for i in range(3)), m.group(0)
m = re.search(r"^final error +position ([\d.]+) mm", summary, re.M)
assert abs(float(m.group(1)) - 1e3 * err) <= 0.05 + 1e-6, (m.group(0), 1e3 * err)
for f in ("red_cube_position", "contacts", "normal_force", "solver_iterations", "solve_time"):
    root = ET.parse(f"{folder}/{f}.svg").getroot()   # well-formed XML
    assert root.tag.endswith("svg"), f
    assert root.findall(".//{http://www.w3.org/2000/svg}polyline"), f
PY

# --out, --quiet, --formulation.
"$qd" demo --quiet --formulation socp --out other/dir > out2.txt 2> err2.txt \
  || fail "demo --quiet --formulation socp --out other/dir: $(cat err2.txt)"
[ -s err2.txt ] && fail "--quiet still wrote to stderr: $(cat err2.txt)"
grep -q "formulation socp" out2.txt || fail "--formulation socp not used: $(cat out2.txt)"
[ -s other/dir/arm_cubes.html ] || fail "--out other/dir: no page written there"
if "$qd" demo --formulation magic --out bad > /dev/null 2> err3.txt; then
  fail "accepted --formulation magic"
fi
grep -qi "formulation" err3.txt || fail "bad formulation error does not say so: $(cat err3.txt)"
echo "cli demo: all checks passed"
