#!/usr/bin/env bash
# `quasidyn simulate` as a user meets it: every example runs to the end of its schedule and
# writes a valid trajectory file (docs/trajectory-format.md); --steps/--duration/--h change the
# step count as documented; bad flags give a non-zero exit and an error on stderr; the progress
# bar stays within its redraw budget.
set -uo pipefail
qd=$1
overlap=tests/cli/fixtures/overlapping_blocks.yaml  # a ball wedged between two fixed blocks, overlapping both
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$qd" --help | grep -q "simulate" || fail "--help does not list the simulate subcommand"

# Validates a trajectory file; $2 = the expected number of steps, $3 = the expected h.
check_trajectory() {
  python3 - "$@" <<'PY'
import json, math, sys
path, steps, h = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
d = json.load(open(path))
assert d["format"] == "quasidyn-trajectory" and d["format_version"] == 1, d["format"]
f = d["formulation"]
assert f["time_step"] == h, (f["time_step"], h)
assert d["nq_a"] == d["nq"] - d["nq_u"]
assert len(d["coordinate_names"]) == d["nq"] and len(d["q0"]) == d["nq"]
assert d["steps_requested"] == steps, (d["steps_requested"], steps)
assert len(d["steps"]) == steps, (len(d["steps"]), steps)
assert d["status"] in ("solved", "solved_inaccurate"), d["status"]
for k, s in enumerate(d["steps"], start=1):
    # t_k = k·h up to the rounding of the product
    assert abs(s["t"] - k * h) <= 4 * k * h * 2.0**-52, (k, s["t"])
    assert len(s["q"]) == d["nq"] and len(s["u"]) == d.get("nu", d["nq_a"]), k
    assert all(math.isfinite(x) for x in s["q"]), k
    assert s["status"] in ("solved", "solved_inaccurate"), (k, s["status"])
    assert s["solver"]["iterations"] >= 0 and s["solver"]["solve_time"] >= 0, k
    assert s["step_time"] >= s["solver"]["solve_time"], k
    for c in s["contacts"]:
        assert abs(sum(x * x for x in c["normal"]) - 1) < 1e-9, (k, c)
        assert c["normal_force"] >= 0, (k, c)
        assert len(c["point"]) == 3 and len(c["friction_force"]) == 3
        for key in ("shape_a", "shape_b", "body_a", "body_b"):
            assert isinstance(c[key], str) and c[key], (k, key)
PY
}

# Every example to the end of its schedule, at the scene's time step h.
for scene in examples/*/scene.yaml; do
  name=$(basename "$(dirname "$scene")")
  # The run's end: the last command knot or timed impulse ({t: ...}), or the scene's `duration`
  # when later (Scene::ScheduleEnd).
  end=$( (grep -Eo '\{t: *[0-9.]+' "$scene" | grep -Eo '[0-9.]+$'; \
          grep -Eo '^duration: *[0-9.]+' "$scene" | grep -Eo '[0-9.]+$') | sort -g | tail -1)
  h=$(grep -Eo '^time_step: *[0-9.e-]+' "$scene" | grep -Eo '[0-9.e-]+$')
  steps=$(python3 -c "import math; r = $end / $h; print(round(r) if abs(r - round(r)) < 1e-9 * max(1, r) else math.ceil(r))")
  "$qd" simulate "$scene" --quiet --out "$tmp/$name.json" > "$tmp/out.txt" 2> "$tmp/err.txt" \
    || fail "simulate $scene exited non-zero: $(cat "$tmp/err.txt")"
  # --quiet is the warning level: only the loader's warnings (mjcf_arm's ignored actuators,
  # docs/scene-format.md) may reach stderr, nothing else.
  grep -v "^quasidyn: simulate: warning: " "$tmp/err.txt" > "$tmp/other.txt"
  [ -s "$tmp/other.txt" ] && fail "simulate $scene --quiet wrote to stderr: $(cat "$tmp/err.txt")"
  grep -q "final status" "$tmp/out.txt" || fail "simulate $scene prints no summary"
  check_trajectory "$tmp/$name.json" "$steps" "$h" || fail "simulate $scene: bad trajectory"
done

# The arm places the red cube on the stack (z = 0.28 m) by t = 7 s and lets it go.
python3 - "$tmp/arm_cubes.json" <<'PY' || fail "arm_cubes: the red cube is not on the stack"
import json, sys
d = json.load(open(sys.argv[1]))
i = d["coordinate_names"].index("red_cube/root_joint/z")
last = d["steps"][-1]
assert last["t"] >= 7.0 - 1e-9, last["t"]
assert abs(last["q"][i] - 0.28) < 0.01, last["q"][i]
PY

# The second-order formulations: v per step in both file formats, the scene's v0 first; the
# dropped ball of dynamic_push lands on the ground (y = r) without going through it; the
# quasi-dynamic formulations on the same scene write no v.
for f in stewart-trinkle anitescu anitescu-cone; do
  "$qd" simulate examples/dynamic_push/scene.yaml --formulation $f --quiet \
    --out "$tmp/dyn_$f.json" > /dev/null || fail "simulate dynamic_push --formulation $f"
  "$qd" simulate examples/dynamic_push/scene.yaml --formulation $f --quiet --steps 10 \
    --out "$tmp/dyn_$f.npz" > /dev/null || fail "simulate dynamic_push --formulation $f (.npz)"
  python3 - "$tmp/dyn_$f.json" "$tmp/dyn_$f.npz" "$f" <<'PY' || fail "$f: no velocities in the files"
import json, sys, zipfile
d, npz, f = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
assert d["formulation"]["type"] == f
assert len(d["v0"]) == d["nv"] and d["v0"][0] == 1.2, d["v0"]
assert all(len(s["v"]) == d["nv"] for s in d["steps"])
y = d["coordinate_names"].index("ball/root_joint/y")
assert min(s["q"][y] for s in d["steps"]) >= 0.05 - 1e-6  # radius 0.05: no penetration
assert abs(d["steps"][-1]["q"][y] - 0.05) < 1e-6 and abs(d["steps"][-1]["v"][y]) < 1e-6
names = zipfile.ZipFile(npz).namelist()
assert "v.npy" in names and "v0.npy" in names, names
PY
done
"$qd" simulate examples/dynamic_push/scene.yaml --formulation qp --quiet --steps 3 \
  --out "$tmp/dyn_qp.json" > /dev/null || fail "simulate dynamic_push --formulation qp"
python3 -c "import json,sys; d=json.load(open('$tmp/dyn_qp.json')); assert 'v0' not in d and 'v' not in d['steps'][0]" \
  || fail "a quasi-dynamic trajectory records v"

g=examples/planar_gripper/scene.yaml
# --steps, --duration and --h set the step count.
"$qd" simulate $g --quiet --steps 5 --out "$tmp/a.json" > /dev/null || fail "--steps 5"
check_trajectory "$tmp/a.json" 5 0.01 || fail "--steps 5 does not give 5 steps"
"$qd" simulate $g --quiet --duration 0.1 --h 0.005 --out "$tmp/b.json" > /dev/null \
  || fail "--duration 0.1 --h 0.005"
check_trajectory "$tmp/b.json" 20 0.005 || fail "--duration 0.1 --h 0.005 is not 20 steps"

# The progress bar, on a terminal only (script(1) gives the run one): one line ending with a
# newline, at most 20 redraws. Into a file: nothing (a regression: 1.5 kB of frames in a log).
"$qd" simulate $g --steps 50 > /dev/null 2> "$tmp/log.txt" || fail "simulate into a log file"
[ -s "$tmp/log.txt" ] && fail "a log file got the progress bar: $(od -c "$tmp/log.txt" | head -3)"
script -qefc "'$qd' simulate $g --steps 50 > /dev/null" /dev/null > "$tmp/bar.txt" \
  || fail "simulate with progress bar on a terminal"
tr -d '\n' < "$tmp/bar.txt" | sed 's/\r$//' > "$tmp/bar1.txt" && printf '\n' >> "$tmp/bar1.txt"
mv "$tmp/bar1.txt" "$tmp/bar.txt"
redraws=$(tr -cd '\r' < "$tmp/bar.txt" | wc -c)
[ "$redraws" -ge 1 ] && [ "$redraws" -le 20 ] || fail "progress bar redrew $redraws times"
[ "$(wc -l < "$tmp/bar.txt")" -eq 1 ] || fail "progress bar is not one line ending in a newline"
grep -q "50/50 steps" "$tmp/bar.txt" || fail "progress bar does not reach 50/50"

# --log-level debug: one line per step on any stderr; warning: nothing even on a terminal.
"$qd" simulate $g --steps 5 --log-level debug > /dev/null 2> "$tmp/debug.txt" || fail "--log-level debug"
[ "$(grep -c "step [0-9]* t = .* solved" "$tmp/debug.txt")" -eq 5 ] || fail "debug lines: $(cat "$tmp/debug.txt")"
script -qefc "'$qd' simulate $g --steps 50 --log-level warning > /dev/null" /dev/null > "$tmp/quiet.txt"
[ -s "$tmp/quiet.txt" ] && fail "--log-level warning drew a bar: $(od -c "$tmp/quiet.txt" | head -2)"

# --every K keeps every K-th step and the last; the file says how many steps were simulated.
"$qd" simulate $g --steps 10 --every 3 --quiet --out "$tmp/every.json" > /dev/null || fail "--every 3"
python3 - "$tmp/every.json" <<'PY' || fail "--every 3 file"
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["k"] for s in d["steps"]] == [3, 6, 9, 10], [s["k"] for s in d["steps"]]
assert d["steps_done"] == d["steps_requested"] == 10
PY
expect_every_error() { "$qd" simulate $g --steps 2 --every 0 --quiet > /dev/null 2> "$tmp/err.txt" &&
  fail "--every 0 accepted"; grep -q -- "rollout.every: must be >= 1 (got 0)" "$tmp/err.txt" || fail "--every 0: $(cat "$tmp/err.txt")"; }
expect_every_error

# Bad flags: non-zero exit and an error on stderr that names the problem.
expect_error() {  # $1 = text the error must contain; the rest = arguments
  local want=$1; shift
  if "$qd" simulate "$@" > /dev/null 2> "$tmp/err.txt"; then fail "accepted: $*"; fi
  grep -qi -- "$want" "$tmp/err.txt" || fail "error for '$*' does not mention '$want': $(cat "$tmp/err.txt")"
}
expect_error "--h" $g --h 0
expect_error "--h" $g --h -0.01
expect_error "--h" $g --h nan
expect_error "--h" $g --h abc
expect_error "--kappa" $g --kappa 0
# Positive but unusable values (issue 71): the scene file's ranges (docs/scene-format.md).
expect_error "--h: must lie within \[1e-06, 10\] s, got 1e-320" $g --h 1e-320
expect_error "--kappa: kappa must lie within \[1e-06, 1e+12\] 1/(N·m), got 5e-324" $g --kappa 5e-324
expect_error "--param object_mass_scale: object_mass_scale must be 0 or lie within" $g --param object_mass_scale=1e-310
expect_error "formulation" $g --formulation magic
# --steps, --duration, --every: the rollout block's settings, checked by its schema.
expect_error "rollout.steps: must be >= 0 (got -1)" $g --steps -1
expect_error "rollout.duration: give steps or duration, not both" $g --steps 5 --duration 1
expect_error "rollout.duration: must be >= 0 \[s\] (got -1)" $g --duration -1
expect_error "rollout.duration: must be finite" $g --duration nan
expect_error "--gradients" $g --steps 1 --gradients b_only
expect_error "does/not/exist.yaml" does/not/exist.yaml
expect_error "--bogus" $g --bogus
expect_error "SCENE" --quiet
# An output whose folder cannot be made, even by root: its "folder" is a regular file.
echo "a regular file" > "$tmp/a_file"
expect_error "$tmp/a_file/t.json" $g --steps 1 --quiet --out "$tmp/a_file/t.json"

# A failed step: exit code 3, the reason on stderr, the steps done still written.
"$qd" simulate "$overlap" --steps 3 --quiet --out "$tmp/fail.json" > "$tmp/out.txt" \
  2> "$tmp/err.txt"
code=$?
[ "$code" -eq 3 ] || fail "a failed step exits with $code, not 3"
grep -q "left_block/box" "$tmp/err.txt" || fail "failed-step error does not name the contact: $(cat "$tmp/err.txt")"
grep -q "final status" "$tmp/out.txt" || fail "no summary after a failed step"
python3 - "$tmp/fail.json" <<'PY' || fail "failed rollout: bad trajectory file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["steps"] == [] and d["steps_requested"] == 3, d
assert d["status"] not in ("solved", "solved_inaccurate") and "left_block/box" in d["message"], d
PY
# A step that moves a body further than the contact tolerance is a warning, not a failure
# (docs/planning.md, "Plans that stay physical"): planar_pushing at h = 0.2 s pushes the box
# further than its contact tolerance (0.02 m) in some steps; the run completes, says how many,
# and the file counts them; at its own h nothing warns.
"$qd" simulate examples/planar_pushing/scene.yaml --h 0.2 --quiet --out "$tmp/coarse.json" \
  > "$tmp/out.txt" || fail "a coarse run with large motions exited non-zero"
grep -q "^warning  *[0-9]* steps moved a body further than the contact tolerance" "$tmp/out.txt" ||
  fail "no large-motion warning: $(cat "$tmp/out.txt")"
python3 - "$tmp/coarse.json" <<'PY' || fail "large_motion_steps not in the file"
import json, sys
d = json.load(open(sys.argv[1]))
warned = [s for s in d["steps"] if s.get("large_motion")]
assert d["large_motion_steps"] == len(warned) > 0, (d.get("large_motion_steps"), len(warned))
assert all(s["max_body_motion"] > 0.02 for s in warned)
PY
"$qd" simulate examples/planar_pushing/scene.yaml --quiet > "$tmp/out.txt" || fail "planar_pushing"
grep -q "^warning" "$tmp/out.txt" && fail "a warning at the scene's own h: $(cat "$tmp/out.txt")"
echo "cli simulate: all checks passed"
