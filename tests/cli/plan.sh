#!/usr/bin/env bash
# `quasidyn plan` as a user meets it (docs/planning.md): a found plan writes plan.json (a
# trajectory file of the path plus the tree, docs/plan-format.md) and an HTML page, and exits 0;
# `quasidyn view` plays plan.json; the same seed gives the same file; an unreachable goal stops
# at the node limit with exit code 4, "not found", the best distance and the tree still
# written; bad input exits 2 naming the field or option, before any search.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_pushing_top_down/scene.yaml

"$qd" --help | grep -q "plan" || fail "--help does not list the plan subcommand"

# Validates a plan file: $2 = expected status.
check_plan() {
  python3 - "$@" <<'PY'
import json, sys
path, status = sys.argv[1], sys.argv[2]
d = json.load(open(path))
assert d["format"] == "quasidyn-trajectory", d["format"]
p = d["plan"]
assert p["format"] == "quasidyn-plan" and p["format_version"] == 1
assert p["status"] == status, (p["status"], status)
tree = p["tree"]
n = len(tree["q"])
assert n >= 1 and all(len(x) == n for x in (tree["parent"], tree["edge"], tree["u"], tree["goal_distance"]))
assert tree["parent"][0] == -1 and tree["edge"][0] == "root"
assert all(0 <= tree["parent"][i] < i for i in range(1, n))
assert set(tree["edge"][1:]) <= {"extend", "regrasp"}
path_nodes = p["path"]["nodes"]
assert path_nodes[0] == 0 and path_nodes[-1] == p["best_node"]
assert len(p["path"]["step_edges"]) == len(d["steps"]) == d["steps_requested"]
assert p["path"]["max_node_deviation"] <= 1e-9, p["path"]["max_node_deviation"]
# Plans that stay physical (docs/planning.md): no deeper overlap than the tolerance.
assert p["path"]["max_penetration"] <= p["settings"]["penetration_tolerance"], p["path"]
assert len(tree["substeps"]) == len(tree["q"]) and min(tree["substeps"]) >= 1
assert abs(min(tree["goal_distance"]) - p["best_distance"]) == 0
tolerance = p["settings"]["goal_tolerance"]
assert p["settings"]["grasp_anchors"] in ("fingers", "all_links") or p["settings"]["grasp_anchors"]
assert (p["best_distance"] <= tolerance) == (status == "found"), (p["best_distance"], tolerance)
PY
}

# Found: exit 0, summary, both files; stderr is a file, so no progress line (tests/cli/manners.sh
# sees it on a terminal).
"$qd" plan "$scene" --seed 9 --out "$tmp/plan.json" --html "$tmp/plan.html" \
  > "$tmp/out.txt" 2> "$tmp/err.txt" || fail "plan exited non-zero: $(cat "$tmp/err.txt")"
grep -q "^result  *found" "$tmp/out.txt" || fail "no 'found' in the summary: $(cat "$tmp/out.txt")"
grep -q "^penetration  *deepest .* mm along the path (tolerance 1 mm)" "$tmp/out.txt" ||
  fail "no penetration line in the summary: $(cat "$tmp/out.txt")"
[ -s "$tmp/err.txt" ] && fail "progress written into a redirected stderr: $(cat -A "$tmp/err.txt")"
check_plan "$tmp/plan.json" found || fail "bad plan file"
grep -q '"markers"' "$tmp/plan.html" || fail "the page has no tree markers"
grep -q '"label":"goal"' "$tmp/plan.html" || fail "the page does not draw the goal"
"$qd" view "$tmp/plan.json" -o "$tmp/view.html" > /dev/null || fail "view cannot play plan.json"
# Same seed, same plan (threads only evaluate batches); --quiet writes nothing to stderr.
"$qd" plan "$scene" --seed 9 --threads 2 --quiet --out "$tmp/again.json" > /dev/null \
  2> "$tmp/err.txt" || fail "second plan exited non-zero"
[ -s "$tmp/err.txt" ] && fail "--quiet wrote to stderr: $(cat "$tmp/err.txt")"
python3 - "$tmp/plan.json" "$tmp/again.json" <<'PY' || fail "same seed, different tree"
import json, sys
a, b = (json.load(open(f))["plan"]["tree"] for f in sys.argv[1:])
assert a == b
PY

# Unreachable (the vertical pushing box tipped by π/2 at its resting height: half inside the
# table): exit 4 at the node limit, the file written with status not_found.
"$qd" plan examples/planar_pushing/scene.yaml --goal 0 0.05 1.5708 --max-nodes 150 --quiet \
  --out "$tmp/none.json" > "$tmp/out.txt" 2> "$tmp/err.txt"
code=$?
[ $code -eq 4 ] || fail "unreachable goal: exit $code, expected 4"
grep -q "not found" "$tmp/out.txt" || fail "no 'not found' in the summary"
grep -q "best goal distance" "$tmp/err.txt" || fail "no best distance on stderr: $(cat "$tmp/err.txt")"
check_plan "$tmp/none.json" not_found || fail "bad not-found plan file"

# Bad input: exit 2, the field named, nothing written.
expect_error() {  # $1 = text the message must contain, then the arguments
  local text=$1; shift
  "$qd" plan "$@" --quiet --out "$tmp/bad.json" > /dev/null 2> "$tmp/err.txt"
  local code=$?
  [ $code -eq 2 ] || fail "plan $*: exit $code, expected 2"
  grep -q -- "$text" "$tmp/err.txt" || fail "plan $*: message lacks '$text': $(cat "$tmp/err.txt")"
  [ -e "$tmp/bad.json" ] && fail "plan $*: wrote an output despite the error"
  return 0
}
expect_error "planning.goal: expected n_q,u = 3" "$scene" --goal 0 0
expect_error "planning.goal: entry 0" "$scene" --goal 5 0 0
expect_error "planning.limits.max_nodes: must be >= 1" "$scene" --max-nodes -1
expect_error "planning.limits.time_limit: must be in \[1e-06, 1e+07\] \[s\] (got -2)" "$scene" --time-limit -2
expect_error "planning.metric.type: unknown metric" "$scene" --metric magic
expect_error "planning.seed: must be >= 0" "$scene" --seed -4
expect_error "--threads must be >= 1" "$scene" --threads 0
expect_error "planning.grasp_anchors: 'nobody/link' is not a robot link" "$scene" \
  --grasp-anchors nobody/link
expect_error "planning.objects" tests/cli/fixtures/no_objects.yaml
# halm-posa (velocity-commanded) plans since the formulations became plug-ins; a second-order
# formulation's velocity state is what the planner still cannot take.
expect_error "formulation.type: planning's tree nodes are configurations" \
  examples/dynamic_push/scene.yaml --goal 0 0 0 0 0 0 0 0 0
expect_error "is the same file as SCENE" "$scene" --html "$scene"
echo "PASS"
