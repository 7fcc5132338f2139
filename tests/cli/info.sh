#!/usr/bin/env bash
# The command line as a user meets it: help, version, info on every example (text and
# JSON), and clear non-zero failures on bad input.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$qd" --help | grep -q "info" || fail "--help does not list the info subcommand"
"$qd" --version | grep -Eq "^quasidyn [0-9]+\.[0-9]+\.[0-9]+" || fail "--version"

for scene in examples/*/scene.yaml; do
  "$qd" info "$scene" > "$tmp/info.txt" || fail "info $scene exited non-zero"
  grep -q "nq = " "$tmp/info.txt" || fail "info $scene prints no nq"
  "$qd" info "$scene" --json > "$tmp/info.json" || fail "info --json $scene"
  python3 - "$tmp/info.json" <<'PY' || fail "info --json $scene: bad JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["nv"] == d["nv_u"] + d["nv_a"], d
assert len(d["q0"]) == d["nq"]
for c in d["contacts"]:
    assert c["phi"] <= d["contact_tolerance"] + 1e-12
    assert abs(sum(x * x for x in c["normal"]) - 1) < 1e-9
PY
done

# The arm scene has the paper's 69 velocities (9 robot + 10 cubes x 6).
"$qd" info examples/arm_cubes/scene.yaml --json | python3 -c '
import json, sys; d = json.load(sys.stdin); assert d["nv"] == 69 and d["nv_a"] == 9, (d["nv"], d["nv_a"])' \
  || fail "arm_cubes is not 69 velocities with 9 actuated"

# Bad input: non-zero exit, the error on stderr naming the file.
if "$qd" info does/not/exist.yaml 2> "$tmp/err.txt"; then fail "missing file accepted"; fi
grep -q "does/not/exist.yaml" "$tmp/err.txt" || fail "missing-file error does not name the file"
printf 'name: broken\ndimension: 3\nbogus_key: 1\n' > "$tmp/bad.yaml"
if "$qd" info "$tmp/bad.yaml" 2> "$tmp/err.txt"; then fail "bad scene accepted"; fi
grep -q "bad.yaml" "$tmp/err.txt" || fail "bad-scene error does not name the file"
if "$qd" info 2> /dev/null; then fail "info without a scene accepted"; fi

# Tidy numbers (a regression: 'normal = (-1, 0 , 0 )'): no padding inside vectors, no -0.
"$qd" info examples/planar_gripper/scene.yaml > "$tmp/info.txt"
grep -q "normal = (-1, 0, 0)" "$tmp/info.txt" || fail "untidy normals: $(grep normal "$tmp/info.txt")"
grep -Eq "\( |[0-9] ,| \)|-0[,)]" "$tmp/info.txt" && fail "padded vectors: $(grep normal "$tmp/info.txt")"

# A misspelt formulation key is refused by info too, at its line (a regression: it passed info
# and failed only at simulate, without a line).
sed 's/formulation: {type: qp}/formulation: {type: qp, objet_mass_scale: 0.1}/' \
  examples/planar_pushing/scene.yaml > "$tmp/misspelt.yaml"
if "$qd" info "$tmp/misspelt.yaml" 2> "$tmp/err.txt"; then fail "objet_mass_scale accepted"; fi
grep -q "misspelt.yaml:8:.*objet_mass_scale" "$tmp/err.txt" || fail "no file:line: $(cat "$tmp/err.txt")"

# --log-level, before or after the subcommand; a bad level is refused.
"$qd" --log-level error info examples/planar_pushing/scene.yaml > /dev/null || fail "--log-level before"
"$qd" info examples/planar_pushing/scene.yaml --log-level debug > /dev/null || fail "--log-level after"
if "$qd" info examples/planar_pushing/scene.yaml --log-level loud 2> "$tmp/err.txt"; then
  fail "--log-level loud accepted"
fi
grep -q "log-level" "$tmp/err.txt" || fail "bad --log-level error: $(cat "$tmp/err.txt")"
for command in info simulate view linearize demo; do
  "$qd" $command --help | grep -q -- "--log-level\|Usage" || fail "$command --help"
done
if "$qd" frobnicate 2> /dev/null; then fail "unknown subcommand accepted"; fi

# What a model file holds that quasidyn ignores is a warning naming the element and the file
# (stderr, at the default warning level), listed by info; --quiet keeps it (warnings are not
# progress); --log-level error drops it.
"$qd" info examples/mjcf_arm/scene.yaml > "$tmp/info.txt" 2> "$tmp/err.txt" ||
  fail "info mjcf_arm exited non-zero"
grep -q "quasidyn: info: warning: .*arm.xml: <actuator> (line [0-9]*): 2 actuators are ignored" \
  "$tmp/err.txt" || fail "no actuator warning: $(cat "$tmp/err.txt")"
grep -q "ignored by the loader:" "$tmp/info.txt" || fail "info does not list the warnings"
"$qd" --log-level error info examples/mjcf_arm/scene.yaml > /dev/null 2> "$tmp/err.txt"
[ -s "$tmp/err.txt" ] && fail "--log-level error still warns: $(cat "$tmp/err.txt")"
# Joint limits are listed.
"$qd" info examples/sdf_pushing/scene.yaml | grep -q "pusher/x .*limits \[-0.3, 0.1\]" ||
  fail "info does not show the SDF pusher's limits"
echo "cli info: all checks passed"
