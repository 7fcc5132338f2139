#!/usr/bin/env bash
# The 2D contact notes' MPC figures (docs/mpc.md, Figs. 2-4) end to end: runs mpc_figures for
# 60 control steps (6 s) into OUT_DIR and checks its outputs: one CSV row per horizon and step
# with every MIQP solved, both horizons pressing on the right wall with friction (Figs. 2 and 3
# not empty), the peaks and the notes' claims as the program prints them agreeing with the CSV,
# the three figures and the path (with the MPC's target) as SVGs. The files stay in OUT_DIR as
# the test's artifacts.
# Usage: mpc.sh MPC_FIGURES OUT_DIR   (run from the repository root)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: mpc.sh MPC_FIGURES OUT_DIR"
out=$2
mkdir -p "$out" || fail "cannot create $out"
rm -f "$out"/*.csv "$out"/*.svg
"$1" "$out" --steps 60 > "$out/mpc_figures.txt" 2>&1 \
  || fail "mpc_figures exited non-zero: $(tail -c 2000 "$out/mpc_figures.txt")"
grep -q "claim 0 (both horizons press on a wall with friction, Figs. 2, 3): holds" \
  "$out/mpc_figures.txt" || fail "claim 0: $(grep claim "$out/mpc_figures.txt")"
grep -q "claim 1 (longer horizon uses more friction): holds" "$out/mpc_figures.txt" \
  || fail "claim 1: $(grep claim "$out/mpc_figures.txt")"
grep -q "realised cost lower with N = 20" "$out/mpc_figures.txt" \
  || fail "claim 2: $(grep claim "$out/mpc_figures.txt")"
/usr/bin/python3 - "$out" <<'PY' || fail "bad outputs"
import csv, math, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "mpc_runs.csv")))
printed = (out / "mpc_figures.txt").read_text()
walls = ("right_wall", "left_wall", "floor")
runs = {n: [r for r in rows if int(r["horizon"]) == n] for n in (5, 20)}
for n, mine in runs.items():
    assert [int(r["step"]) for r in mine] == list(range(1, 61)), n
    for r in mine:
        assert r["status"] == "optimal", r
        assert all(math.isfinite(float(r[k])) for k in ("x", "y", "cost", "force_x", "force_y")), r
        # |τ| <= 5 N (the scene's force bounds), the robot inside the walls (radius 0.05 m):
        # x in [-5, -1.45], y >= -6.
        assert abs(float(r["force_x"])) <= 5 + 1e-6 and abs(float(r["force_y"])) <= 5 + 1e-6, r
        assert -5.0 - 1e-6 <= float(r["x"]) <= -1.45 + 1e-6 and float(r["y"]) >= -6.0 - 1e-6, r
    # Both horizons run into the right wall (x = -1.45) and stay on it; its normal force and
    # its friction act (Figs. 2 and 3 are not empty); the left wall and the floor stay untouched.
    assert abs(float(mine[-1]["x"]) + 1.45) < 1e-6, mine[-1]
    assert any(float(r["right_wall_normal"]) > 0 for r in mine), n
    assert any(float(r["right_wall_friction"]) > 0 for r in mine), n
    assert all(float(r[f"{w}_normal"]) == 0 for r in mine for w in ("left_wall", "floor")), n
    # The printed peaks are the CSV's (4 significant digits printed).
    line = re.search(rf"^N = {n}: .*peak normal force ([\d.e+-]+) N, peak friction force "
                     rf"([\d.e+-]+) N", printed, re.M)
    assert line, printed
    peak_normal = max(float(r[f"{w}_normal"]) for r in mine for w in walls)
    peak_friction = max(float(r[f"{w}_friction"]) for r in mine for w in walls)
    assert abs(float(line.group(1)) - peak_normal) <= 1e-3 * peak_normal, (line.group(0), peak_normal)
    assert abs(float(line.group(2)) - peak_friction) <= 1e-3 * peak_friction, line.group(0)

# Claim 2 as printed agrees with the CSV: the first step from which N = 20's realised stage
# cost, J*, J*/N and J*/(N + 1) stay below N = 5's, or "never below for good".
def first_below_for_good(short, long):
    first = None
    for k in range(len(short) - 1, -1, -1):
        if long[k] < short[k]:
            first = k + 1
        else:
            break
    return first
stage = {n: [float(r["stage_cost"]) for r in runs[n]] for n in (5, 20)}
j = {n: [float(r["cost"]) for r in runs[n]] for n in (5, 20)}
claim = re.search(r"^claim 2 .*; realised stage cost of N = 20 (.*?); J\* of N = 20 (.*?); "
                  r"J\*/N of N = 20 (.*?); J\*/\(N \+ 1\) of N = 20 (.*)$", printed, re.M)
assert claim, printed
for text, short, long in ((claim.group(1), stage[5], stage[20]), (claim.group(2), j[5], j[20]),
                          (claim.group(3), [c / 5 for c in j[5]], [c / 20 for c in j[20]]),
                          (claim.group(4), [c / 6 for c in j[5]], [c / 21 for c in j[20]])):
    first = first_below_for_good(short, long)
    expected = f"below from step {first} on" if first else "never below for good"
    assert text.startswith(expected), (text, expected)
for name in ("contact_forces_N5", "contact_forces_N20", "optimal_cost", "paths"):
    assert "<svg" in (out / f"{name}.svg").read_text()[:300], name
# The MPC's target (3, -5) is drawn in paths.svg: a dot, named in the legend.
paths = (out / "paths.svg").read_text()
assert '<circle' in paths and '>target</text>' in paths, "paths.svg has no target dot"
PY
echo "mpc figures: OK"
