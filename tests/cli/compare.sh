#!/usr/bin/env bash
# `quasidyn compare` on every example scene (10 steps, the reference at h/2 to keep the test
# short): it exits 0, its CSV has one row per registered formulation (`quasidyn formulations
# --json`), each either run (steps done, a median step time > 0, finite figures) or skipped with
# a reason; the scene's own formulation always runs. The reference compared with itself at the
# same step (R = 1) differs by exactly 0; --html writes one page with an overlay per other run;
# bad options exit with 2 and a message naming the option.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$qd" formulations --json > "$tmp/formulations.json" || fail "quasidyn formulations --json"

for scene in examples/*/*.yaml; do
  name=$(basename "$(dirname "$scene")")_$(basename "$scene" .yaml)
  "$qd" compare "$scene" --steps 10 --reference-refinement 2 --csv "$tmp/$name.csv" \
    > "$tmp/$name.txt" 2> "$tmp/$name.err" || fail "compare $scene: $(cat "$tmp/$name.err")"
  python3 - "$tmp/formulations.json" "$tmp/$name.csv" "$scene" <<'PY' || fail "compare $scene: bad table"
import csv, json, math, sys
names = [f["name"] for f in json.load(open(sys.argv[1]))]
rows = list(csv.DictReader(open(sys.argv[2])))
scene = sys.argv[3]
assert [r["formulation"] for r in rows] == names, ([r["formulation"] for r in rows], names)
ran = 0
for r in rows:
    if r["ran"] == "1":
        ran += 1
        assert int(r["steps"]) == 10, r
        assert float(r["median_step_seconds"]) > 0, r
        for key in ("deepest_penetration_m", "object_displacement_m",
                    "final_position_difference_m", "final_rotation_difference_rad"):
            assert math.isfinite(float(r[key])) and float(r[key]) >= 0, (key, r)
        if r["status"] != "completed":
            assert r["reason"], ("a run that stopped must say why", r)
    else:
        assert r["ran"] == "0" and r["status"] == "skipped" and r["reason"].strip(), r
import re
text = open(scene).read()
match = re.search(r"^formulation:\s*\{?\s*(?:\n\s+)?type:\s*([\w-]+)", text, re.M)
own = match.group(1) if match else "qp"  # the scene format's default
mine = [r for r in rows if r["formulation"] == own]
assert mine and mine[0]["ran"] == "1", ("the scene's own formulation must run", own)
assert ran >= 2, ("fewer than two formulations ran", ran)
PY
done

# The reference against itself at the same step: exactly 0.
g=examples/planar_hand/scene.yaml
"$qd" compare $g --steps 10 --reference-refinement 1 --formulations stewart-trinkle,qp \
  --csv "$tmp/self.csv" --html "$tmp/self.html" > /dev/null 2> "$tmp/err.txt" \
  || fail "compare --html: $(cat "$tmp/err.txt")"
python3 - "$tmp/self.csv" <<'PY' || fail "the reference does not equal itself"
import csv, sys
rows = {r["formulation"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert list(rows) == ["stewart-trinkle", "qp"], list(rows)
st = rows["stewart-trinkle"]
assert float(st["final_position_difference_m"]) == 0.0, st
assert float(st["final_rotation_difference_rad"]) == 0.0, st
PY
[[ -s "$tmp/self.html" ]] || fail "--html wrote no page"
grep -q '"overlays"' "$tmp/self.html" || fail "the page has no overlaid trajectories"

# Bad options: exit 2 naming the problem.
expect_error() {  # $1 = text the message must contain; the rest: the command
  local want=$1; shift
  "$@" > /dev/null 2> "$tmp/err.txt"; local rc=$?
  [[ $rc -eq 2 ]] || fail "$* exited $rc, expected 2"
  grep -qF -- "$want" "$tmp/err.txt" || fail "$*: message lacks '$want': $(cat "$tmp/err.txt")"
}
expect_error "unknown formulation 'nosuch'" "$qd" compare $g --steps 3 --formulations nosuch
expect_error "--steps must be >= 1" "$qd" compare $g --steps -1
expect_error "reference" "$qd" compare $g --steps 3 --reference-refinement 0
echo "compare: every example, the self-reference, the page and bad options checked"
