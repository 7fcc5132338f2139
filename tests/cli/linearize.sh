#!/usr/bin/env bash
# `quasidyn linearize` as a user meets it: the text output names the coordinates and the
# mode; the JSON object (docs/gradients.md, "Command line") has the documented fields and
# sizes; its q_next is the trajectory's q at the same step (the QP step of `simulate`) and
# its B has the closed-form robot block of a free robot; --method randomized with equal seeds
# prints identical results (also on 1 vs 2 threads) and different seeds different ones; bad
# input exits with 2 and a message naming the problem.
set -uo pipefail
qd=$1
overlap=tests/cli/fixtures/overlapping_blocks.yaml  # a ball wedged between two fixed blocks, overlapping both
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$qd" --help | grep -q "linearize" || fail "--help does not list the linearize subcommand"

g=examples/planar_gripper/scene.yaml
p=examples/planar_pushing/scene.yaml

# Text output: the header, the mode, named rows and the three blocks.
"$qd" linearize $g --step 7 > "$tmp/text.txt" 2> "$tmp/err.txt" \
  || fail "linearize $g --step 7: $(cat "$tmp/err.txt")"
for want in "scene        planar_gripper" "step         7" "mode         exact" \
            "q_next" "B = dq_next/du" "A = dq_next/dq"; do
  grep -qF -- "$want" "$tmp/text.txt" || fail "text output lacks '$want'"
done
python3 - "$tmp/text.txt" <<'PY' || fail "text output does not name the coordinates"
import sys
text = open(sys.argv[1]).read()
assert "sphere" in text or "/x" in text, text[:500]
PY

# JSON: fields, sizes, consistency with `simulate` at the same step.
check_json() {  # $1 = file; $2 = expected mode
  python3 - "$@" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
mode = sys.argv[2]
assert d["format"] == "quasidyn-linearization" and d["format_version"] == 1, d["format"]
assert d["mode"] == mode, (d["mode"], mode)
assert d["status"] == "solved"
nq, na = d["nq"], d["nq_a"]
names = d["coordinate_names"]
assert len(names) == nq and d["actuated_names"] == names[nq - na:]
assert len(d["q"]) == nq and len(d["u"]) == na and len(d["q_next"]) == nq
assert len(d["B"]) == nq and all(len(r) == na for r in d["B"])
assert len(d["A"]) == nq and all(len(r) == nq for r in d["A"])
for x in d["q_next"] + sum(d["A"], []) + sum(d["B"], []):
    assert math.isfinite(x)
h = d["time_step"]
assert abs(d["t_end"] - d["step"] * h) < 1e-12 and abs(d["t_start"] - (d["step"] - 1) * h) < 1e-12
PY
}
"$qd" linearize $g --step 7 --json > "$tmp/exact.json" || fail "--json"
check_json "$tmp/exact.json" exact || fail "bad JSON (exact)"
"$qd" simulate $g --quiet --steps 7 --out "$tmp/traj.json" > /dev/null || fail "simulate"
python3 - "$tmp/exact.json" "$tmp/traj.json" <<'PY' || fail "q_next is not the trajectory's q_7"
import json, sys
d, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
step = t["steps"][6]
assert d["u"] == step["u"], (d["u"], step["u"])
# Same QP and settings as the stepper: equal up to round-off (1e-12 m).
assert max(abs(a - b) for a, b in zip(d["q_next"], step["q"])) < 1e-12
assert d["q"] == t["steps"][5]["q"]
PY

# planar_pushing at step 1: the pusher is 0.08 m from the box, the box rests on the table.
# The robot is free: q_a⁺ = u, so B's robot block is the identity and its object rows are 0
# (linearize_test.cc derives the same closed form).
"$qd" linearize $p --step 1 --method log-barrier --json > "$tmp/barrier.json" \
  || fail "--method log-barrier"
check_json "$tmp/barrier.json" log-barrier || fail "bad JSON (log-barrier)"
"$qd" linearize $p --step 1 --json > "$tmp/push.json" || fail "planar_pushing"
python3 - "$tmp/push.json" <<'PY' || fail "free robot: B is not [0; I]"
import json, sys
d = json.load(open(sys.argv[1]))
nq, na = d["nq"], d["nq_a"]
for i in range(nq):
    for j in range(na):
        expected = 1.0 if i == nq - na + j else 0.0
        assert abs(d["B"][i][j] - expected) < 1e-9, (i, j, d["B"][i][j])
PY
grep -q "note" "$tmp/barrier.json" || fail "no note field"
python3 -c "import json,sys; d=json.load(open('$tmp/barrier.json')); assert 'qp' in d['note'], d['note']" \
  || fail "log-barrier gradients after a qp rollout carry no note"

# Randomized: equal seeds → identical output, on 1 and 2 threads; another seed → different.
r="--method randomized --samples 16 --std 0.003 --json"
"$qd" linearize $g --step 7 $r --seed 5 > "$tmp/r1.json" || fail "randomized"
check_json "$tmp/r1.json" randomized || fail "bad JSON (randomized)"
"$qd" linearize $g --step 7 $r --seed 5 --threads 2 > "$tmp/r2.json" || fail "randomized, 2 threads"
"$qd" linearize $g --step 7 $r --seed 6 > "$tmp/r3.json" || fail "randomized, seed 6"
# Everything but the "threads" field itself must be identical, numbers to the last digit.
python3 - "$tmp/r1.json" "$tmp/r2.json" <<'PY' || fail "equal seeds on 1 and 2 threads differ"
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "threads"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(path))) for path in sys.argv[1:3])
assert a == b, "results differ"
PY
python3 - "$tmp/r1.json" "$tmp/r3.json" <<'PY' || fail "different seeds give the same result"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["randomized"]["seed"] == 5 and b["randomized"]["seed"] == 6
assert a["randomized"]["samples_used"] + a["randomized"]["samples_failed"] == 16
assert a["B"] != b["B"] and a["q_next"] != b["q_next"]
PY
"$qd" linearize $g --step 7 $r --seed 5 --estimator zeroth-order --std-q 0.001 > "$tmp/z.json" \
  || fail "zeroth-order"
check_json "$tmp/z.json" randomized || fail "bad JSON (zeroth-order)"
"$qd" linearize $g --step 7 --method randomized --samples 8 > "$tmp/rt.txt" \
  || fail "randomized text"
grep -q "samples (8 used, 0 failed)" "$tmp/rt.txt" || fail "randomized text lacks the sample count"

# The second-order formulations: x = (q, v), A (n_q + n_v) square and B (n_q + n_v) x n_q,a;
# q_next and v_next are the trajectory's state after step K.
d=examples/dynamic_push/scene.yaml
"$qd" linearize $d --step 25 --json > "$tmp/so.json" || fail "linearize stewart-trinkle"
"$qd" simulate $d --quiet --steps 25 --out "$tmp/so_traj.json" > /dev/null || fail "simulate"
python3 - "$tmp/so.json" "$tmp/so_traj.json" <<'PY' || fail "second-order linearization"
import json, sys
d, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
n = d["nq"] + d["nv_state"]
assert d["formulation"] == "stewart-trinkle" and d["nv_state"] == t["nv"], d["nv_state"]
assert len(d["A"]) == n and all(len(r) == n for r in d["A"]), len(d["A"])
assert len(d["B"]) == n and all(len(r) == d["nq_a"] for r in d["B"])
assert len(d["velocity_names"]) == d["nv_state"] and d["velocity_names"][0] == "slider/root_joint/vx"
last = t["steps"][-1]
assert max(abs(a - b) for a, b in zip(d["q_next"], last["q"])) < 1e-12
assert max(abs(a - b) for a, b in zip(d["v_next"], last["v"])) < 1e-12
PY
"$qd" linearize $d --step 25 --formulation anitescu > "$tmp/so.txt" || fail "linearize anitescu"
grep -q "A = dx_next/dx" "$tmp/so.txt" || fail "text output of a second-order linearization"

# Bad input: exit 2 and a message naming the problem.
expect_error() {  # $1 = text the error must contain; the rest = arguments
  local want=$1; shift
  "$qd" linearize "$@" > /dev/null 2> "$tmp/err.txt"
  local code=$?
  [ "$code" -eq 2 ] || fail "'$*' exited with $code, not 2: $(cat "$tmp/err.txt")"
  grep -qi -- "$want" "$tmp/err.txt" || fail "error for '$*' does not mention '$want': $(cat "$tmp/err.txt")"
}
expect_error "--step" $g --step 0
expect_error "linearization.method: unknown method 'magic' (exact, log-barrier, randomized)" \
  $g --method magic
expect_error "velocity state" examples/dynamic_push/scene.yaml --method randomized
expect_error "no log-barrier smoothing" examples/dynamic_push/scene.yaml --method log-barrier
# The linearization block's messages (LinearizationSettingsSchema): the setting's key and range.
expect_error "linearization.samples: must be >= 1 (got 0)" $g --method randomized --samples 0
expect_error "linearization.std: must be >= 0 \[m or rad\] (got -1)" $g --method randomized --std -1
expect_error "linearization.std: must be finite" $g --method randomized --std nan
expect_error "linearization.std_q: must be >= 0" $g --method randomized --std-q -0.5
expect_error "linearization.threads: must be >= 1 (got 0)" $g --method randomized --threads 0
expect_error "linearization.estimator: unknown estimator 'third-order'" \
  $g --method randomized --estimator third-order
expect_error "linearization.std: must be > 0 for the zeroth-order estimator (got 0)" \
  $g --method randomized --estimator zeroth-order --std 0
expect_error "only to --method randomized" $g --samples 10
expect_error "only to --method randomized" $g --method exact --seed 3
# --mode, the former name of --method.
"$qd" linearize $g --step 7 --mode log-barrier --json > "$tmp/mode.json" || fail "--mode"
grep -q '"mode": "log-barrier"' "$tmp/mode.json" || fail "--mode is not --method"
expect_error "--kappa" $g --kappa 0
expect_error "formulation" $g --formulation magic
expect_error "does/not/exist.yaml" does/not/exist.yaml
expect_error "--bogus" $g --bogus
expect_error "SCENE" --json

# halm-posa (velocity-commanded robots): u is the commanded velocity of the schedule, q_next the
# trajectory's, B's robot block h·I for a finger that touches nothing (the symmetric disk push
# before contact) and A, B finite once the fingers push; log-barrier smoothing does not exist.
d=examples/disk_pushing/symmetric_push.yaml
"$qd" linearize $d --step 20 --json > "$tmp/hp.json" || fail "linearize halm-posa"
check_json "$tmp/hp.json" exact || fail "bad JSON (halm-posa)"
"$qd" simulate $d --quiet --steps 20 --out "$tmp/hp_traj.json" > /dev/null || fail "simulate halm-posa"
python3 - "$tmp/hp.json" "$tmp/hp_traj.json" <<'PY' || fail "halm-posa linearisation"
import json, sys
d, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["formulation"] == "halm-posa"
assert d["u"] == t["steps"][19]["u"], (d["u"], t["steps"][19]["u"])
assert max(abs(a - b) for a, b in zip(d["u"], [0, -1, 0, -1])) < 1e-12, d["u"]
assert max(abs(a - b) for a, b in zip(d["q_next"], t["steps"][19]["q"])) < 1e-12
h = d["time_step"]
for i in range(d["nq_a"]):
    for j in range(d["nq_a"]):
        assert abs(d["B"][d["nq"] - d["nq_a"] + i][j] - (h if i == j else 0)) < 1e-12
PY
"$qd" linearize $d --step 60 --json > "$tmp/hp60.json" || fail "linearize halm-posa in contact"
check_json "$tmp/hp60.json" exact || fail "bad JSON (halm-posa in contact)"
"$qd" linearize $d --step 60 > "$tmp/hp60.txt" || fail "linearize halm-posa (text)"
grep -q "u (commanded robot velocities)" "$tmp/hp60.txt" || fail "halm-posa text does not say u is a velocity"
expect_error "log-barrier smoothing" $d --method log-barrier

# --step beyond the schedule (a regression: --step 100000 on a 24-step schedule was accepted).
expect_error "beyond the schedule's 24 steps" $g --step 100000
expect_error "beyond the schedule's 24 steps" $g --step 25
"$qd" linearize $g --step 24 > /dev/null || fail "--step 24, the schedule's last step"

# --contact-tolerance: the linearised step keeps contacts further away. At step 1 the pusher
# is 8 cm from the box, beyond eps = 0.02 m: every box row of B is 0 with the scene's eps and
# not with 0.1 m (log-barrier method: the barrier acts at a distance).
p8=examples/planar_pushing/scene.yaml
for tol in "" "--contact-tolerance 0.1"; do
  "$qd" linearize $p8 --step 1 --method log-barrier $tol --json > "$tmp/far.json" \
    || fail "linearize $tol"
  python3 - "$tmp/far.json" "$tol" <<'PY' || fail "B of the box with '$tol'"
import json, sys
d = json.load(open(sys.argv[1]))
box = max(abs(x) for row in d["B"][:3] for x in row)
assert (box > 1e-6) == (sys.argv[2] != ""), (sys.argv[2], box)
PY
done
expect_error "linearization.contact_tolerance: must be >= 0 \[m\] (got -1)" $g --contact-tolerance -1

# A failed step of the rollout: exit 3 and the reason.
"$qd" linearize "$overlap" --step 3 > /dev/null 2> "$tmp/err.txt"
code=$?
[ "$code" -eq 3 ] || fail "a failed rollout exits with $code, not 3"
grep -q "left_block/box" "$tmp/err.txt" || fail "failed rollout error does not name the contact: $(cat "$tmp/err.txt")"
"$qd" linearize "$overlap" --step 1 > /dev/null 2> "$tmp/err.txt"
code=$?
[ "$code" -eq 3 ] || fail "a failed linearisation exits with $code, not 3"
grep -q "linearisation failed" "$tmp/err.txt" || fail "no reason for the failed linearisation"
echo "cli linearize: all checks passed"
