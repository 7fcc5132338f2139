#!/usr/bin/env bash
# The web viewer in a real browser (tests/browser/viewer_test.cjs): simulates a short
# planar_pushing rollout, writes its page with `quasidyn view`, opens it in headless Chromium;
# then a plan's page, its execution's page (track --html), a notebook's frames (tests/browser/notebook_test.cjs), a mesh and an ecp page.
# Usage: tests/browser/run.sh QUASIDYN_BINARY   (run from the repository root)
# Environment: QUASIDYN_NODE_MODULES (playwright-core; default <build>/viewer/npm/node_modules),
# QUASIDYN_BROWSER_ARTIFACTS (screenshots; default <build>/browser-artifacts),
# QUASIDYN_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
quasidyn=${1:?usage: run.sh QUASIDYN_BINARY}
build_dir=$(cd "$(dirname "$quasidyn")" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
node_modules=${QUASIDYN_NODE_MODULES:-$build_dir/viewer/npm/node_modules}
artifacts=${QUASIDYN_BROWSER_ARTIFACTS:-$build_dir/browser-artifacts}
chromium=${QUASIDYN_CHROMIUM:-/usr/bin/chromium}

[[ -x "$chromium" ]] || { echo "browser test: no Chromium at $chromium (apt-get install chromium)" >&2; exit 1; }
[[ -d "$node_modules/playwright-core" ]] ||
  { echo "browser test: no playwright-core in $node_modules (build the viewer first)" >&2; exit 1; }

mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 0.6 s of pushing: the pusher (x = -0.2 → -0.02 m) reaches the box at t ≈ 0.27 s.
"$quasidyn" simulate "$repo/examples/planar_pushing/scene.yaml" --steps 60 --quiet \
  --out "$work/planar_pushing.json" > /dev/null
"$quasidyn" view "$work/planar_pushing.json" -o "$artifacts/planar_pushing.html"
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/viewer_test.cjs" "$artifacts/planar_pushing.html" "$artifacts"
# A plan's page (quasidyn plan --html): the path animates, the tree's markers render, the same
# checks (screenshots in <artifacts>/plan/).
"$quasidyn" plan "$repo/examples/planar_hand/scene.yaml" --seed 14 --quiet \
  --out "$work/planar_hand_plan.json" --html "$artifacts/planar_hand_plan.html" > /dev/null
grep -q '"markers"' "$artifacts/planar_hand_plan.html" ||
  { echo "browser test: the plan page has no markers" >&2; exit 1; }
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/viewer_test.cjs" "$artifacts/planar_hand_plan.html" "$artifacts/plan"
# The plan executed at h/2 with replanning (quasidyn track --html): the plant's run with every
# plan drawn over it and D over time (screenshots in <artifacts>/track/).
"$quasidyn" track "$work/planar_hand_plan.json" --plant-scene "$repo/examples/planar_hand/scene.yaml" \
  --substeps 2 --replan 2 --html "$artifacts/planar_hand_track.html" > /dev/null
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/viewer_test.cjs" "$artifacts/planar_hand_track.html" "$artifacts/track"
# A notebook's view: two Trajectory._repr_html_ frames (the page in an <iframe srcdoc>) in a
# notebook-like page written by the Python module just built (screenshot in <artifacts>/notebook/).
PYTHONPATH="$build_dir/python" /usr/bin/python3 "$here/notebook_page.py" "$repo" \
  "$artifacts/notebook.html"
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/notebook_test.cjs" "$artifacts/notebook.html" "$artifacts/notebook"
# A page with meshes (examples/mesh_objects: an OBJ and an STL drawn as themselves), 0.6 s
# long like the first page (the #t=0.45 check).
"$quasidyn" simulate "$repo/examples/mesh_objects/scene.yaml" --steps 60 --quiet \
  --out "$work/mesh_objects.json" > /dev/null
"$quasidyn" view "$work/mesh_objects.json" -o "$artifacts/mesh_objects.html"
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/viewer_test.cjs" "$artifacts/mesh_objects.html" "$artifacts/mesh"
# An ecp page (the rolling, spinning cylinder, 1 s): the equivalent contact point and its
# torsional moment (screenshots in <artifacts>/ecp/).
"$quasidyn" simulate "$repo/examples/ecp_cylinder_rolling/scene.yaml" --steps 100 --quiet \
  --out "$work/ecp_cylinder_rolling.json" > /dev/null
"$quasidyn" view "$work/ecp_cylinder_rolling.json" -o "$artifacts/ecp_cylinder_rolling.html"
QUASIDYN_CHROMIUM="$chromium" NODE_PATH="$node_modules" \
  node "$here/viewer_test.cjs" "$artifacts/ecp_cylinder_rolling.html" "$artifacts/ecp"
