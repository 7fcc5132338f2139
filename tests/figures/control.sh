#!/usr/bin/env bash
# Open loop vs closed loop over 20 perturbed plants (docs/control.md, "Figures"), end to end:
# runs control_study_bench (the command that regenerates the table and the plots) into OUT_DIR and
# checks its outputs: one CSV row per plant and task with finite errors, the planar hand's closed
# loops (stabiliser and MPC) better than the open loop on average, and per task an SVG plot with
# the three runs and their means. Bad options exit 2 naming the option. The files stay in
# OUT_DIR as the test's artifacts.
# Usage: control.sh CONTROL_STUDY_BENCH OUT_DIR   (run from the repository root)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: control.sh CONTROL_STUDY_BENCH OUT_DIR"
bench=$1
out=$2
mkdir -p "$out" || fail "cannot create $out"
rm -f "$out"/*.csv "$out"/*.svg
"$bench" --out "$out" > "$out/table.md" || fail "control_study_bench exited non-zero: $(cat "$out/table.md")"
grep -q "| mean |" "$out/table.md" || fail "no table printed"
/usr/bin/python3 - "$out" <<'PY' || fail "bad outputs"
import csv, math, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
for task in ("planar_hand", "box_turning"):
    rows = list(csv.DictReader(open(out / f"plants_{task}.csv")))
    assert len(rows) == 20, (task, len(rows))
    assert [int(r["plant"]) for r in rows] == list(range(20)), task
    for r in rows:
        assert r["substeps"] == "2", r
        offset = math.hypot(math.hypot(float(r["offset_x"]), float(r["offset_y"])), float(r["offset_z"]))
        assert abs(offset - 0.003) < 1e-9, (task, offset)
        assert 0.8 <= float(r["friction_scale"]) <= 1.2, r
        for k in ("open", "stabilizer", "mpc"):
            assert math.isfinite(float(r[f"{k}_error_m"])), (task, r)
    if task == "box_turning":
        assert all(float(r["offset_z"]) == 0.0 for r in rows), "the box's offset must be horizontal"
    else:
        mean = {k: sum(float(r[f"{k}_error_m"]) for r in rows) / 20 for k in ("open", "stabilizer", "mpc")}
        assert mean["stabilizer"] < mean["open"] and mean["mpc"] < mean["open"], mean
    svg = (out / f"plants_{task}.svg").read_text()
    assert svg.startswith("<svg") or "<svg" in svg[:200], task
    assert len(re.findall(r"<polyline", svg)) >= 6, (task, "expected 3 runs and 3 means")
    for label in ("open loop", "stabiliser (one step)", "shrinking-horizon MPC"):
        assert label in svg, (task, label)
print("outputs OK")
PY
"$bench" --plants 0 --out "$out/bad" > /dev/null 2> "$out/bad.txt" && fail "--plants 0 accepted"
grep -q -- "--plants must be >= 1" "$out/bad.txt" || fail "no message for --plants 0: $(cat "$out/bad.txt")"
"$bench" --tasks juggling --out "$out/bad" > /dev/null 2> "$out/bad.txt" && fail "unknown task accepted"
grep -q "unknown task 'juggling'" "$out/bad.txt" || fail "no message for a bad task: $(cat "$out/bad.txt")"
[ ! -e "$out/bad" ] || fail "a failed run created its output folder"
rm -f "$out/bad.txt"
# Second-order plants (docs/control.md, "Open vs closed loop over perturbed plants"): the
# quasi-dynamic plan of the planar hand run on anitescu and stewart-trinkle plants (inertia,
# implicit damping), closed loop better than open loop on average.
for f in anitescu stewart-trinkle; do
  mkdir -p "$out/$f" || fail "cannot create $out/$f"
  "$bench" --tasks planar_hand --plant-formulation "$f" --out "$out/$f" > "$out/$f/table.md" 2>&1 \
    || fail "control_study_bench --plant-formulation $f: $(cat "$out/$f/table.md")"
  grep -q "plants stepped with $f" "$out/$f/table.md" || fail "$f: the plant's formulation not named"
  /usr/bin/python3 - "$out/$f" <<'PY' || fail "$f plants: closed loop not better than open loop"
import csv, sys
rows = list(csv.DictReader(open(f"{sys.argv[1]}/plants_planar_hand.csv")))
assert len(rows) == 20, len(rows)
mean = {k: sum(float(r[f"{k}_error_m"]) for r in rows) / 20 for k in ("open", "stabilizer", "mpc")}
assert mean["stabilizer"] < mean["open"] and mean["mpc"] < mean["open"], mean
PY
done
echo PASS
