#!/bin/bash
# The talk's tasks on the reference simulator's robots, 20 seeds each (issue 69): RRT through
# contact on the side files of examples/qsim_planning/side_files (the simulator's system files
# read unchanged) and on examples/hand_ball_3d, with plan_3d_bench: per seed found, wall and CPU
# time, nodes, where the time goes, the goal distance and the deepest overlap along the returned
# path after its start; then the summary row (docs/qsim-files.md, "The talk's tasks").
# Usage: scripts/qsim_task_benchmarks.sh QSIM_MODELS [BUILD (build/release)] [OUT (build/qsim_bench)]
#   QSIM_MODELS: the simulator's models/ folder (the package quasistatic_simulator).
# Run from the repository's root. Each task: --seeds 20 --time-limit 30 (CPU time is the process's).
set -euo pipefail
models=${1:?usage: scripts/qsim_task_benchmarks.sh QSIM_MODELS [BUILD] [OUT]}
build=${2:-build/release}
out=${3:-build/qsim_bench}
mkdir -p "$out"
tasks="allegro_hand_and_sphere_90z allegro_hand_and_sphere_180z allegro_hand_and_sphere_90x
       iiwa_bimanual_box_90z iiwa_planar_bimanual_cylinder_90z"
for task in $tasks; do
  "$build/plan_3d_bench" "examples/qsim_planning/side_files/$task.yaml" \
      --package "quasistatic_simulator=$models" --seeds 20 --time-limit 30 \
      --json "$out/$task.json" 2>/dev/null | tee "$out/$task.txt"
done
"$build/plan_3d_bench" examples/hand_ball_3d/scene.yaml --seeds 20 --time-limit 60 \
    --json "$out/hand_ball_3d.json" 2>/dev/null | tee "$out/hand_ball_3d.txt"
