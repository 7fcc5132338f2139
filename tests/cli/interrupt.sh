#!/usr/bin/env bash
# Ctrl-C (SIGINT) or SIGTERM during a long command (docs/cli.md, "Interrupting a command"): the
# command stops at its next safe point, writes what it has, prints one line naming the file and
# what it holds, and exits 128 + the signal (130, 143). `plan` writes the plan file with status
# interrupted and the path to the node nearest the goal, which reads back; `optimize` the best
# iterate; `track` the trajectory so far; `compare` its finished rows. Each run would take far
# longer than the second it is given (a goal it does not reach in 30000 nodes, 100000
# iterations, 30000 plant steps per command, a comparison of arm_cubes that runs for many
# seconds).
set -uo pipefail
qd=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Job control: a background job of a shell without it starts with SIGINT ignored, and a program
# keeps a signal ignored that it was started with.
set -m

# Waits until process $1 catches signal $signal (its interrupt scope is in place: the signal's
# bit in SigCgt of /proc/PID/status), at most 120 s, or until it has ended: a slow start (a
# sanitizer build, a loaded machine: 1.4 s to load the scene under ASan) must not take the
# signal before the command can act on it, which ends it with no line.
wait_for_handler() {
  local pid=$1 number mask
  number=$(kill -l "$signal")
  for _ in $(seq 1200); do
    mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2> /dev/null) || return 0
    [ -n "$mask" ] || return 0
    (((16#$mask >> (number - 1)) & 1)) && return 0
    sleep 0.1
  done
}

# Runs "$@" in the background, sends signal $signal a second after its interrupt scope is in
# place, and sets $code.
interrupt_after_a_second() {
  "$@" > "$tmp/out.txt" 2> "$tmp/err.txt" &
  local pid=$!
  wait_for_handler "$pid"
  sleep 1
  kill -"$signal" "$pid"
  wait "$pid"
  code=$?
}

# plan: the vertical pushing box tipped by π/2 at its resting height (tests/cli/plan.sh: not
# reached in 150 nodes).
signal=INT
interrupt_after_a_second "$qd" plan examples/planar_pushing/scene.yaml --goal 0 0.05 1.5708 \
  --max-nodes 30000 --time-limit 120 --out "$tmp/plan.json"
[ $code -eq 130 ] || fail "plan: exit $code after SIGINT, expected 130: $(cat "$tmp/err.txt")"
grep -Eq "^quasidyn: plan: interrupted after [0-9]+ nodes \(.* s\): wrote .*plan.json \(status interrupted, best node .* from the goal" \
  "$tmp/err.txt" || fail "plan: no interrupted line: $(cat "$tmp/err.txt")"
grep -q "^result  *interrupted" "$tmp/out.txt" || fail "plan: summary: $(cat "$tmp/out.txt")"
/usr/bin/python3 - "$tmp/plan.json" examples/planar_pushing/scene.yaml <<'PY' ||
import json, sys
sys.path.insert(0, "")
d = json.load(open(sys.argv[1]))
p = d["plan"]
assert p["status"] == "interrupted", p["status"]
tree = p["tree"]
n = len(tree["q"])
assert 1 < n < 30000, n
assert p["statistics"]["iterations"] < 3 * 30000
# The path: from the root (the scene's q0, the trajectory's q0) to the node nearest the goal.
nodes = p["path"]["nodes"]
assert nodes[0] == 0 and nodes[-1] == p["best_node"], nodes
assert tree["q"][0] == d["q0"], (tree["q"][0], d["q0"])
assert p["best_distance"] == min(tree["goal_distance"]) > p["settings"]["goal_tolerance"]
assert all(0 <= tree["parent"][i] < i for i in range(1, n))
assert p["path"]["max_node_deviation"] <= 1e-9, p["path"]
assert len(d["steps"]) == len(p["path"]["step_edges"]) == d["steps_requested"]
PY
  fail "plan: bad interrupted plan file"
"$qd" view "$tmp/plan.json" -o "$tmp/view.html" > /dev/null 2>&1 ||
  fail "view cannot play the interrupted plan"
# The plan file reads back as a plan: optimize takes it as its initial guess.
"$qd" optimize examples/planar_pushing/scene.yaml --goal 0 0.05 1.5708 --iterations 1 \
  --initial "$tmp/plan.json" --quiet --out "$tmp/refined.json" > /dev/null 2> "$tmp/err2.txt" ||
  fail "optimize --initial cannot read the interrupted plan: $(cat "$tmp/err2.txt")"
grep -q '"status":"interrupted"' "$tmp/refined.json" ||
  fail "the refined plan lost the interrupted status"

# optimize, stopped by SIGTERM: the best iterate so far.
signal=TERM
interrupt_after_a_second "$qd" optimize examples/planar_hand/scene.yaml --goal 0 0.05 0.5236 \
  --h 0.1 --horizon 30 --smoothing randomized --samples 100 --iterations 100000 \
  --trust-region-min 1e-12 --shrink 0.99 --quiet --out "$tmp/best.json"
[ $code -eq 143 ] || fail "optimize: exit $code after SIGTERM, expected 143: $(cat "$tmp/err.txt")"
grep -Eq "^quasidyn: optimize: interrupted after [0-9]+ iterations \(.* s\): wrote .*best.json \(the best iterate: cost .* -> " \
  "$tmp/err.txt" || fail "optimize: no interrupted line: $(cat "$tmp/err.txt")"
grep -q "^stopped  *interrupted" "$tmp/out.txt" || fail "optimize: summary: $(cat "$tmp/out.txt")"
/usr/bin/python3 - "$tmp/best.json" <<'PY' || fail "optimize: bad trajectory file"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["steps"]) == d["steps_requested"] == 30, (len(d["steps"]), d["steps_requested"])
PY

# track, stopped by SIGINT: the control steps done.
signal=INT
interrupt_after_a_second "$qd" track "$tmp/best.json" --plant-scene examples/planar_hand/scene.yaml \
  --substeps 30000 --out "$tmp/run.json"
[ $code -eq 130 ] || fail "track: exit $code after SIGINT, expected 130: $(cat "$tmp/err.txt")"
grep -Eq "^quasidyn: track: interrupted after [0-9]+ of 30 control steps: wrote .*run.json \(the trajectory so far\)" \
  "$tmp/err.txt" || fail "track: no interrupted line: $(cat "$tmp/err.txt")"
/usr/bin/python3 - "$tmp/run.json" <<'PY' || fail "track: bad trajectory file"
import json, sys
d = json.load(open(sys.argv[1]))
assert 0 <= len(d["steps"]) == d["steps_requested"] < 30, (len(d["steps"]), d["steps_requested"])
PY
# compare, stopped by SIGINT: the formulations finished (none while the reference runs).
interrupt_after_a_second "$qd" compare examples/arm_cubes/scene.yaml --csv "$tmp/table.csv"
[ $code -eq 130 ] || fail "compare: exit $code after SIGINT, expected 130: $(cat "$tmp/err.txt")"
grep -Eq "^quasidyn: compare: interrupted (during the reference run: no row finished, nothing written|after [0-9]+ of [0-9]+ formulations: wrote .*table.csv \(the finished rows\))" \
  "$tmp/err.txt" || fail "compare: no interrupted line: $(cat "$tmp/err.txt")"
if [ -e "$tmp/table.csv" ]; then  # every row written ran to its end or was skipped
  awk -F, 'NR > 1 && $2 == 1 && $3 != $4 { exit 1 }' "$tmp/table.csv" ||
    fail "compare: a row cut short was written: $(cat "$tmp/table.csv")"
fi
echo "PASS"
