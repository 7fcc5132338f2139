#!/usr/bin/env bash
# Why the QP's integral error against the second-order truth grows with h (Pang & Tedrake 2021,
# Fig. 7; docs/formulations.md, "Reproducing the paper's §V"): the time-step study once as it
# is and once per model difference with that difference changed, all against the same ground
# truth (computed once, in OUT/base):
#   OUT/base       as it is (the QP's object_mass_scale s = 100 s⁻²·h², command at t_{k+1})
#   OUT/s0         the paper's QP (10): no objects' term (s = 0)
#   OUT/lag        the QP takes the command at the step's start, t_k (one step late)
#   OUT/zeta0.25   the second-order truth and runs with the robots' damping ratio ζ = 0.25
#                  instead of critical damping (a second ground truth, computed in OUT/zeta0.25)
#   OUT/slow_swing the scene with its swing over the stack twice as slow (8 s instead of 4 s;
#                  the later knots 4 s later): the QP at h = 0.4 s against its own h = 0.002 s
#                  run (a cheap truth at 0.002 s; only the QP's own error is read from it)
# Each folder holds timestep_errors.csv (E on the run's grid, E_held and E_interpolated on the
# truth's grid) and timestep_trajectories.csv; each run's table goes to OUT/NAME/stdout.txt.
# Usage: examples/arm_cubes/timestep_variants.sh BUILD OUT   (BUILD: e.g. build/release)
set -euo pipefail
build=$1
out=$2
study=$build/timestep_study
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/base" "$out/s0" "$out/lag" "$out/zeta0.25" "$out/slow_swing"
"$study" --out "$out/base" >"$out/base/stdout.txt"
truth=$out/base/ground_truth_anitescu_h5e-05.csv
"$study" --out "$out/s0" --ground-truth "$truth" --object-mass-coefficient 0 >"$out/s0/stdout.txt"
"$study" --out "$out/lag" --ground-truth "$truth" --command-at-step-start >"$out/lag/stdout.txt"
"$study" --out "$out/zeta0.25" --damping-ratio 0.25 >"$out/zeta0.25/stdout.txt"
# The slow swing: the scene's knots at 8.0, 9.6 and 10.4 s move to 12.0, 13.6 and 14.4 s (its
# URDF is found beside the copy through a link to the models folder).
ln -sfn "$here/models" "$out/slow_swing/models"
sed -e 's/{t: 8.0,/{t: 12.0,/; s/{t: 9.6,/{t: 13.6,/; s/{t: 10.4,/{t: 14.4,/' \
  "$here/scene.yaml" >"$out/slow_swing/scene.yaml"
[ "$(grep -c '{t: 1[234]\.[046],' "$out/slow_swing/scene.yaml")" = 3 ] \
  || { echo "timestep_variants.sh: the scene's knots moved; update the slow swing" >&2; exit 1; }
"$study" "$out/slow_swing/scene.yaml" --out "$out/slow_swing" --ground-truth-h 0.002 \
  --reference-h 0.002 --h 0.002,0.4 >"$out/slow_swing/stdout.txt"
for variant in base s0 lag zeta0.25 slow_swing; do
  echo "== $variant"
  sed -n '/^ground truth/p;/^model difference/,/^$/p;/three ways/,/^$/p' "$out/$variant/stdout.txt"
done
