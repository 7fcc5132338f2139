#!/usr/bin/env bash
# The paper's figures end to end: runs gripper_figures (§V-A, Fig. 5/6 data) and
# timestep_study --quick (§V-B, Fig. 7/8 data: a second-order ground truth at h = 0.001 s
# written to OUT_DIR and read back by a second run), then both plot scripts with the system
# /usr/bin/python3 and matplotlib, and checks the CSVs and the PNGs: every run solved, the
# expected rows and columns, and PNGs of a figure's size that are not blank (a share of
# non-white pixels and enough distinct colours for several coloured curves).
# The PNGs stay in OUT_DIR as the test's artifacts.
#
# Usage: run.sh GRIPPER_FIGURES TIMESTEP_STUDY OUT_DIR   (run from the repository root)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 3 ] || fail "usage: run.sh GRIPPER_FIGURES TIMESTEP_STUDY OUT_DIR"
gripper_figures=$1
timestep_study=$2
out=$3
python=/usr/bin/python3
mkdir -p "$out" || fail "cannot create $out"
rm -f "$out"/*.csv "$out"/*.png

"$gripper_figures" "$out/gripper_figures.csv" || fail "gripper_figures exited non-zero"
# --help prints the usage and writes nothing (a regression: it wrote a CSV named --help); the
# programs create their output folders.
here=$(pwd)
(cd "$out" && "$gripper_figures" --help > help.txt) || fail "gripper_figures --help exited non-zero"
grep -q "Usage" "$out/help.txt" && [ ! -e "$out/--help" ] || fail "gripper_figures --help: $(cat "$out/help.txt")"
"$timestep_study" --help | grep -q -- "--reference-h" || fail "timestep_study --help"
"$gripper_figures" "$out/new/folder/g.csv" "$here/examples/planar_gripper/scene.yaml" 0.02 \
  && [ -s "$out/new/folder/g.csv" ] || fail "gripper_figures into a new folder"
rm -rf "$out/new" "$out/help.txt"
"$timestep_study" --quick --out "$out" > "$out/timestep_study.txt" \
  || fail "timestep_study --quick exited non-zero: $(cat "$out/timestep_study.txt")"
# The ground truth is computed once: a second run reads it back and gives the same table.
cp "$out/timestep_errors.csv" "$out/timestep_errors.first.csv"
"$timestep_study" --quick --out "$out" > "$out/timestep_study.again.txt" \
  || fail "timestep_study --quick (again) exited non-zero"
grep -q "ground truth read from" "$out/timestep_study.again.txt" \
  || fail "the second run did not reuse the ground truth: $(head -3 "$out/timestep_study.again.txt")"
# The file keeps 12 digits: the errors agree to far better than 1e-9 relative.
"$python" - "$out/timestep_errors.csv" "$out/timestep_errors.first.csv" <<'PY' \
  || fail "the reused ground truth gives other errors"
import csv, sys
again, first = (list(csv.DictReader(open(path))) for path in sys.argv[1:])
assert len(again) == len(first), (len(again), len(first))
for a, b in zip(again, first):
    for column in ("E_position", "E_angle"):
        x, y = float(a[column]), float(b[column])
        assert abs(x - y) <= 1e-9 * max(abs(x), abs(y)), (a["formulation"], a["h"], column, x, y)
PY
rm -f "$out/timestep_errors.first.csv" "$out/timestep_study.again.txt"
"$python" examples/planar_gripper/plot_gripper_figures.py \
  "$out/gripper_figures.csv" "$out/gripper_figures.png" || fail "plot_gripper_figures.py"
"$python" examples/arm_cubes/plot_timestep_study.py "$out/timestep_errors.csv" \
  "$out/timestep_trajectories.csv" "$out/timestep_study.png" || fail "plot_timestep_study.py"

# A bad input gives a non-zero exit and a message naming the problem.
echo "t,x" > "$out/bad.csv"
"$python" examples/planar_gripper/plot_gripper_figures.py "$out/bad.csv" "$out/bad.png" \
  2> "$out/bad.txt" && fail "plot_gripper_figures.py accepted a CSV without its columns"
grep -q "missing column" "$out/bad.txt" || fail "no 'missing column' message: $(cat "$out/bad.txt")"
"$timestep_study" --h 0.3 > /dev/null 2> "$out/bad.txt" && fail "timestep_study accepted h = 0.3"
grep -q "does not divide" "$out/bad.txt" || fail "no message for --h 0.3: $(cat "$out/bad.txt")"
"$timestep_study" --second-order qp > /dev/null 2> "$out/bad.txt" && fail "timestep_study accepted --second-order qp"
grep -q "is not anitescu or stewart-trinkle" "$out/bad.txt" || fail "no message for --second-order qp: $(cat "$out/bad.txt")"
# A damaged ground-truth file is an error naming it, not a silent recomputation or a crash.
truth_file="$out/ground_truth_anitescu_h0.001.csv"
[ -s "$truth_file" ] || fail "no ground-truth file $truth_file"
# The variants of the Fig. 7 investigation (examples/arm_cubes/timestep_variants.sh) change the
# QP's runs: another object_mass_scale, the command one step late; each is said in the table.
"$timestep_study" --quick --h 0.4 --out "$out/variant" --ground-truth "$truth_file" \
  --object-mass-coefficient 0 --command-at-step-start > "$out/variant.txt" \
  || fail "timestep_study with the variant flags exited non-zero"
grep -q "object_mass_scale s = 0 s⁻²·h²; step k takes the command at t_k (one step late)" \
  "$out/variant.txt" || fail "the variant's table does not say what changed: $(cat "$out/variant.txt")"
"$python" - "$out/variant/timestep_errors.csv" "$out/timestep_errors.csv" <<'PY' \
  || fail "the variant flags did not change the QP's run"
import csv, sys
variant, default = ({(r["formulation"], r["reference"], r["h"]): float(r["E_position"])
                     for r in csv.DictReader(open(path))} for path in sys.argv[1:])
key = ("qp", "ground_truth", "0.4")
assert abs(variant[key] - default[key]) > 1e-3 * default[key], (variant[key], default[key])
PY
rm -rf "$out/variant" "$out/variant.txt"
sed -i '10s/.*/0.01,not a number/' "$truth_file"
"$timestep_study" --quick --h 0.4 --out "$out/damaged" --ground-truth "$truth_file" > /dev/null \
  2> "$out/bad.txt" && fail "timestep_study accepted a damaged ground-truth file"
grep -q "damaged row" "$out/bad.txt" || fail "no message for a damaged ground truth: $(cat "$out/bad.txt")"
rm -rf "$out/bad.csv" "$out/bad.txt" "$out/damaged" "$truth_file"

"$python" - "$out" <<'PY' || fail "figure outputs"
import csv, sys
import numpy as np
import matplotlib.image as image

out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/gripper_figures.csv")))
steps = 35  # 0.35 s at h = 0.01 s
for name in ("lcp", "qp"):
    n = sum(r["formulation"] == name for r in rows)
    assert n == steps, f"gripper_figures.csv: {n} rows for {name}, expected {steps}"

errors = list(csv.DictReader(open(f"{out}/timestep_errors.csv")))
steps = [0.05, 0.1, 0.2, 0.4]
def rows(formulation, reference):
    return [r for r in errors if r["formulation"] == formulation and r["reference"] == reference]
# Against the second-order ground truth: the QP and anitescu at every h, the QP's floor (its own
# reference against the ground truth) once; the QP against its own reference at every h.
for formulation, reference in (("qp", "ground_truth"), ("anitescu", "ground_truth"),
                               ("qp", "qp_reference")):
    found = [float(r["h"]) for r in rows(formulation, reference)]
    assert found == steps, (formulation, reference, found)
assert len(rows("qp_reference", "ground_truth")) == 1, errors
assert len(errors) == 3 * len(steps) + 1, len(errors)
statuses = {"solved", "failed_steps", "cut_short"}
assert all(r["status"] in statuses and r["what_happened"] for r in errors), errors
assert all(r["status"] == "solved" for r in errors if r["formulation"] != "anitescu"), errors
assert all(float(r["E_position"]) > 0 for r in errors), errors
# E on the reference's grid with the run interpolated is E on the run's grid up to the two
# quadratures (within 5 %); held between its samples it is another integral (it differs where the
# cube moves within a step, at h = 0.4 s by more than 1 %).
for r in errors:
    own, interpolated, held = (float(r[c]) for c in ("E_position", "E_interpolated", "E_held"))
    assert abs(interpolated - own) <= 0.05 * own, (r["formulation"], r["h"], own, interpolated)
    if r["formulation"] == "qp" and r["h"] == "0.4":
        assert abs(held - interpolated) > 0.01 * interpolated, (r["reference"], held, interpolated)
runs = {(r["run"], r["h"]) for r in csv.DictReader(open(f"{out}/timestep_trajectories.csv"))}
assert len(runs) == 2 + 2 * len(steps), sorted(runs)
assert ("ground_truth", "0.001") in runs and ("qp_reference", "0.01") in runs, sorted(runs)

for png in ("gripper_figures.png", "timestep_study.png"):
    pixels = image.imread(f"{out}/{png}")[:, :, :3]  # floats in [0, 1]
    height, width = pixels.shape[:2]
    assert height >= 800 and width >= 800, f"{png}: only {width}x{height} pixels"
    ink = np.mean(np.any(pixels < 0.9, axis=2))
    assert ink > 0.03, f"{png}: {ink:.1%} non-white pixels, a blank figure?"
    colours = len(np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    assert colours > 50, f"{png}: only {colours} colours"
    print(f"{png}: {width}x{height}, {ink:.1%} ink, {colours} colours")
PY
echo "figures: OK ($out)"
