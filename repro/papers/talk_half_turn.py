"""The talk's 180° turn of the planar hand, "powering through local minima" (row T9; issue 67):
RRT through contact, then the trajectory optimiser refines the planner's path."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Row, Source, Substitute,
                             relative, timing)

SOURCES = []

T9 = Row(
        id='T9',
        claim='"What about 180 degrees? Finding this trajectory requires powering through local minima"',
        ours='RRT, seed 0: goal distance 0.046 ≤ 0.05 at node 969 (970 nodes, 0.84 s wall), a path of 34 steps with 6 regrasps; refined by the optimiser (20 iterations, 6 accepted, cost 7.35 → 0.0097) to an error of (−2.5 mm, 0, 0.0002 rad)',
        commands=['build/release/quasidyn plan examples/planar_hand/scene.yaml --out out/p.json', 'build/release/quasidyn optimize examples/planar_hand/scene.yaml --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 --terminal-weight 100 100 10 --rate-weight 0.01 --initial out/p.json --out out/refined.json'],
        tests=['PlanRefinement.PlanarHandHalfTurnFromThePlannersPathReachesTheGoal', 'cli.optimize_track'],
        legacy=True)
