#!/bin/bash
# The 30° turn of the planar hand in Pang's 2022 talk ("Smoothed gradients enable trajectory
# optimization for dexterous hands", "Turning the ball by 30 degrees: open-loop"): the trajectory
# optimiser's plan, then that plan's commands sent unchanged (open loop, no disturbance) to two
# plants that differ from the planning model: our quasi-dynamic qp at h/2 and our second-order
# anitescu at h/2 (the talk's plant is Drake's; we have none), each command held over both
# substeps (`--no-ramp`: a zero-order hold, as a plant receives a position target per control
# step; `track` ramps by default). Writes into OUT:
#   optimize.txt, plan.json                     quasidyn optimize's summary and plan
#   open_qp_h2.txt/.json, open_anitescu_h2.txt/.json   quasidyn track's summaries and trajectories
#   offset_open.txt/.json, offset_closed.txt/.json     the same with the ball 3 mm off, open and
#                                                      closed loop, on the planning model
# The talk states no horizon, h, weights or κ schedule for the plan; ours (docs/control.md).
# Usage: scripts/talk_turn.sh [BUILD (build/release)] [OUT (out/talk_turn)]; run from the
# repository's root. Repro source talk_turn (repro/papers/talk.py, issue 67).
set -euo pipefail
build=${1:-build/release}
out=${2:-out/talk_turn}
scene=examples/planar_hand/scene.yaml
mkdir -p "$out"
"$build/quasidyn" optimize "$scene" --goal 0 0.05 0.5236 --object-weight 10 10 1 --h 0.1 \
    --out "$out/plan.json" --quiet > "$out/optimize.txt"
"$build/quasidyn" track "$out/plan.json" --plant-scene "$scene" --open-loop --substeps 2 --no-ramp \
    --out "$out/open_qp_h2.json" --quiet > "$out/open_qp_h2.txt"
"$build/quasidyn" track "$out/plan.json" --plant-scene "$scene" --open-loop --substeps 2 --no-ramp \
    --plant-formulation anitescu --out "$out/open_anitescu_h2.json" --quiet \
    > "$out/open_anitescu_h2.txt"
# "Turning the ball by 30 degrees: open-loop with disturbance" / "closed-loop with disturbance":
# "Initial position of the ball is off by 3mm" (the direction not stated; ours: +x), the plant
# otherwise the planning model; the stabiliser with its defaults (docs/control.md).
"$build/quasidyn" track "$out/plan.json" --plant-scene "$scene" --offset 0.003 0 --open-loop \
    --out "$out/offset_open.json" --quiet > "$out/offset_open.txt"
"$build/quasidyn" track "$out/plan.json" --plant-scene "$scene" --offset 0.003 0 \
    --out "$out/offset_closed.json" --quiet > "$out/offset_closed.txt"
cat "$out/optimize.txt" "$out/open_qp_h2.txt" "$out/open_anitescu_h2.txt" \
    "$out/offset_open.txt" "$out/offset_closed.txt"
