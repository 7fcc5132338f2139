#!/usr/bin/env bash
# `quasidyn view` as a user meets it: a page from a simulated trajectory, --scene, and clear
# errors for a missing or malformed trajectory and a scene of another size.
# Usage: tests/cli/view.sh QUASIDYN_BINARY   (run from the repository root)
set -uo pipefail
quasidyn=${1:?usage: view.sh QUASIDYN_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
pass() { echo "ok   $1"; passes=$((passes + 1)); }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# Expects exit code $1 and stderr containing $2 from the rest of the command line.
expect_error() {
  local code=$1 text=$2
  shift 2
  "$quasidyn" "$@" > "$work/out" 2> "$work/err"
  local got=$?
  if [[ $got -eq $code ]] && grep -qF -- "$text" "$work/err"; then
    pass "$* → exit $code, '$text'"
  else
    fail "$* → exit $got (want $code), stderr: $(cat "$work/err")"
  fi
}

"$quasidyn" simulate examples/planar_pushing/scene.yaml --steps 20 --quiet \
  --out "$work/pushing.json" > /dev/null || fail "simulate planar_pushing"

# A page from the recorded scene file.
if "$quasidyn" view "$work/pushing.json" -o "$work/page.html" > "$work/out"; then
  pass "view writes a page"
else
  fail "view exited non-zero"
fi
[[ -s "$work/page.html" ]] && pass "page not empty" || fail "page missing"
grep -q '<script id="quasidyn-data" type="application/json">' "$work/page.html" &&
  pass "page holds the data" || fail "page has no data element"
[[ $(grep -o '</script>' "$work/page.html" | wc -l) -eq 2 ]] &&
  pass "page has exactly two inline scripts" || fail "page script count"
grep -qE '(src|href)="(https?:)?//' "$work/page.html" &&
  fail "page loads something from the network" || pass "page loads nothing from the network"
grep -q '"name":"planar_pushing"' "$work/page.html" && pass "page names the scene" ||
  fail "scene name missing"
grep -q 'planar_pushing' "$work/out" && pass "view reports what it wrote" || fail "no report"

# --scene overrides the recorded file.
"$quasidyn" view "$work/pushing.json" -o "$work/page2.html" \
  --scene examples/planar_pushing/scene.yaml > /dev/null && cmp -s "$work/page.html" "$work/page2.html" &&
  pass "--scene with the same scene gives the same page" || fail "--scene page differs"

# simulate --html writes the same page as simulate --out followed by view.
"$quasidyn" simulate examples/planar_pushing/scene.yaml --steps 20 --quiet \
  --html "$work/direct.html" > /dev/null || fail "simulate --html"
"$quasidyn" view "$work/pushing.json" -o "$work/via_view.html" > /dev/null || fail "view"
cmp -s "$work/direct.html" "$work/via_view.html" && pass "simulate --html equals view" ||
  fail "simulate --html differs from view of the same run"

# A second-order run (its steps carry v) shows like any other, from JSON and from .npz.
"$quasidyn" simulate examples/dynamic_push/scene.yaml --steps 30 --quiet \
  --out "$work/dynamic.json" > /dev/null || fail "simulate dynamic_push"
"$quasidyn" simulate examples/dynamic_push/scene.yaml --steps 30 --quiet \
  --out "$work/dynamic.npz" > /dev/null || fail "simulate dynamic_push --out .npz"
"$quasidyn" view "$work/dynamic.json" -o "$work/dynamic.html" > /dev/null &&
  grep -q '"name":"dynamic_push"' "$work/dynamic.html" && pass "view of a second-order run" ||
  fail "view of a second-order run"
"$quasidyn" view "$work/dynamic.npz" -o "$work/dynamic_npz.html" > /dev/null &&
  cmp -s "$work/dynamic.html" "$work/dynamic_npz.html" &&
  pass "view of a second-order .npz equals its JSON's" || fail "second-order .npz page differs"

# Errors.
expect_error 2 "$work/missing.json" view "$work/missing.json" -o "$work/x.html"
echo '{"format": "quasidyn-trajectory", "format_version": 1' > "$work/broken.json"
expect_error 2 "$work/broken.json" view "$work/broken.json" -o "$work/x.html"
echo '{"format": "something-else"}' > "$work/other.json"
expect_error 2 "$work/other.json" view "$work/other.json" -o "$work/x.html"
expect_error 2 "n_q" view "$work/pushing.json" -o "$work/x.html" --scene examples/arm_cubes/scene.yaml
expect_error 2 "no-such-scene.yaml" view "$work/pushing.json" -o "$work/x.html" --scene no-such-scene.yaml
echo "not a folder" > "$work/file"
expect_error 2 "is a file, not a folder" view "$work/pushing.json" -o "$work/file/x.html"
# The page's folder is created.
"$quasidyn" view "$work/pushing.json" -o "$work/new/dir/x.html" > /dev/null &&
  [[ -s "$work/new/dir/x.html" ]] && pass "view -o creates the page's folder" ||
  fail "view -o into a new folder"
rm -rf "$work/new"
# The compact format: simulate --out x.npz, view x.npz gives the page of the JSON run.
"$quasidyn" simulate examples/planar_pushing/scene.yaml --steps 20 --quiet \
  --out "$work/pushing.npz" > /dev/null || fail "simulate --out .npz"
"$quasidyn" view "$work/pushing.npz" -o "$work/from_npz.html" > /dev/null &&
  cmp -s "$work/from_npz.html" "$work/via_view.html" && pass "view of the .npz equals the JSON's" ||
  fail "view of the .npz differs"
# The trajectory finds its scene from another working folder: the scene path is stored
# relative to the trajectory file (a regression: it was stored as typed).
mkdir -p "$work/elsewhere"
qd_absolute=$(realpath "$quasidyn")
(cd "$work/elsewhere" && "$qd_absolute" view ../pushing.json -o page.html > /dev/null) &&
  pass "view from another folder finds the scene" || fail "view from another folder"
python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['scene']['file']; assert not f.startswith('/') and f.endswith('planar_pushing/scene.yaml'), f" \
  "$work/pushing.json" && pass "the scene path is stored relative to the trajectory" ||
  fail "scene path not relative: $(grep -o '"file":"[^"]*"' "$work/pushing.json")"
"$quasidyn" view "$work/pushing.json" > /dev/null 2>&1 && fail "view without -o succeeded" ||
  pass "view without -o is refused"
[[ -e "$work/x.html" ]] && fail "a failed view left a page" || pass "failed views write no page"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
