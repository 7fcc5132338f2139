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
if "$qd" frobnicate 2> /dev/null; then fail "unknown subcommand accepted"; fi
echo "cli info: all checks passed"
