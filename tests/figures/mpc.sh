#!/usr/bin/env bash
# The 2D contact notes' MPC figures (docs/mpc.md, Figs. 2-4) end to end: runs mpc_figures for
# 60 control steps (6 s) into OUT_DIR and checks its outputs: one CSV row per horizon and step
# with every MIQP solved, the walls' forces zero until the robot reaches a wall, the three
# figures and the path (with the MPC's target) as SVGs, and the notes' two claims as the program
# prints them. The files stay in OUT_DIR as the test's artifacts.
# Usage: mpc.sh MPC_FIGURES OUT_DIR   (run from the repository root)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: mpc.sh MPC_FIGURES OUT_DIR"
out=$2
mkdir -p "$out" || fail "cannot create $out"
rm -f "$out"/*.csv "$out"/*.svg
"$1" "$out" --steps 60 > "$out/mpc_figures.txt" 2>&1 \
  || fail "mpc_figures exited non-zero: $(tail -c 2000 "$out/mpc_figures.txt")"
grep -q "claim 1 (longer horizon uses more friction): holds" "$out/mpc_figures.txt" \
  || fail "claim 1: $(grep claim "$out/mpc_figures.txt")"
grep -q "realised cost lower with N = 20" "$out/mpc_figures.txt" \
  || fail "claim 2: $(grep claim "$out/mpc_figures.txt")"
/usr/bin/python3 - "$out" <<'PY' || fail "bad outputs"
import csv, math, pathlib, sys
out = pathlib.Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "mpc_runs.csv")))
for n in (5, 20):
    mine = [r for r in rows if int(r["horizon"]) == n]
    assert [int(r["step"]) for r in mine] == list(range(1, 61)), n
    for r in mine:
        assert r["status"] == "optimal", r
        assert all(math.isfinite(float(r[k])) for k in ("x", "y", "cost", "force_x", "force_y")), r
        # |τ| <= 5 N (the scene's force bounds), the robot inside the walls (radius 0.05 m).
        assert abs(float(r["force_x"])) <= 5 + 1e-6 and abs(float(r["force_y"])) <= 5 + 1e-6, r
        assert -5.0 - 1e-6 <= float(r["x"]) <= 2.0 + 1e-6 and float(r["y"]) >= -6.0 - 1e-6, r
# N = 20 reaches the right wall (x = 2) and stops there, the wall pushing and its friction
# acting on the way; N = 5 touches no wall in 6 s.
run20 = [r for r in rows if int(r["horizon"]) == 20]
assert abs(float(run20[-1]["x"]) - 2.0) < 1e-6, run20[-1]
assert any(float(r["right_wall_normal"]) > 0 for r in run20)
assert any(abs(float(r["right_wall_friction"])) > 0 for r in run20)
assert all(float(r[k]) == 0 for r in rows if int(r["horizon"]) == 5
           for k in ("right_wall_normal", "left_wall_normal", "floor_normal"))
for name in ("contact_forces_N5", "contact_forces_N20", "optimal_cost", "paths"):
    assert "<svg" in (out / f"{name}.svg").read_text()[:300], name
# The MPC's target (3, -5) is drawn in paths.svg: a dot, named in the legend.
paths = (out / "paths.svg").read_text()
assert '<circle' in paths and '>target</text>' in paths, "paths.svg has no target dot"
PY
echo "mpc figures: OK"
