"""Pang 2022, "Planning and Control for Contact-rich Manipulation" (talk, Oct. 2022): the rows of docs/reproductions.md (issue 67)."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

from repro.papers import talk_half_turn as half_turn

SOURCES = [] + half_turn.SOURCES

ROWS = [
    Row(
        id='T1',
        claim='"Contact dynamics is non-smooth!": the 1D plot x_+ = u for u > 0, x_+ = 0 for u ≤ 0',
        ours="the toy's q_u⁺(u) has its kink at u = 0 with slopes 0 and α = h²K/(h²K + s m^u) = 0.5 (a robot pushing an object, not a wall); ours against the closed form: 5.6e-17 m, slope 1.7e-16",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py out/toy_1d.png'],
        tests=['python/tests/test_toy_1d.py::test_exact_step_equals_the_closed_form_on_both_sides_of_the_kink'],
        legacy=True),
    Row(
        id='T2',
        claim='"Smoothing": min ½(q − u)² − (1/κ) log q; "Smoothed Dynamics": φ_i λ_i = 1/κ',
        ours='log-barrier step and slope against the closed form at κ = 10, 100, 10³, 10⁴ 1/(N·m): at most 5.9e-15 m and 3.9e-13; κ not stated; ours: those four',
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py out/toy_1d.png'],
        tests=['python/tests/test_toy_1d.py::test_log_barrier_step_and_gradient_equal_the_closed_form', 'figures.toy_1d'],
        legacy=True),
    Row(
        id='T3',
        claim='"Second-order Dynamics" vs "Quasi-static Dynamics": m^a = 1.0, D = 20.0, K = 100.0',
        ours="K = 100 N/m; m^a = 1 kg and D = 20 N·s/m are in the scene for the second-order formulations; the slide's plot (no numbers) is not reproduced: no program of ours draws it",
        commands=['build/release/quasidyn info examples/toy_1d/scene.yaml'],
        tests=['python/tests/test_toy_1d.py::test_the_scene_is_the_closed_forms_system'],
        legacy=True),
    Row(
        id='T4',
        claim='"Picking ε = m^u / h gives Mason\'s definition of quasi-dynamic dynamics" (regularised quasi-static)',
        ours='the object block s·M_u/h with `object_mass_scale` s = 1 (ε = m^u/h); toy: h = 0.1 s, m^u = 1 kg not stated; ours',
        commands=['build/release/quasidyn info examples/toy_1d/scene.yaml'],
        tests=['python/tests/test_toy_1d.py::test_the_scenes_ramp_is_the_closed_form_step_after_step'],
        legacy=True),
    Row(
        id='T5',
        claim='"Anitescu … SOCP"; "hydroplaning disappears as h → 0"',
        ours='the `socp` formulation; the hydroplaning (boundary layer) is φ = h·μ·|v|: 1.0 mm at h = 0.01 s in the gripper (PT10), proportional to h',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.QpOpensBoundaryLayerWhileSlidingAndClosesItAfter'],
        legacy=True),
    Row(
        id='T6',
        claim='the same friction cone in a second-order time step (exact cone, second order)',
        ours="`anitescu-cone`: Anitescu's relaxation on the exact cone, an SOCP on our solver, with A and B (finite differences 1e-12 to 5e-6 relative). A 1 kg box sliding at 0.8 m/s, μ = 0.5, 30° and 67° off the axes: stops 6.9e-5 m from backward Euler's stopping point (4-ray pyramid 0.026 m, 16 rays 3.4e-3 m), velocity across its direction 1.5e-5 m/s (4 rays 0.16 m/s); per step it deviates up to 0.15 m/s from backward Euler, as the pyramids do, because the relaxation lifts a sliding contact by μ‖v_t‖ (the box hops 6.1 mm); time per step 1.9× the 4-ray pyramid",
        commands=['build/release/second_order_bench --benchmark_filter=BM_Slide'],
        tests=['AnitescuConeSliding.DeviationsFromBackwardEulerAgainstThePyramid', 'AnitescuConeSliding.CoulombFrictionWithTheStepsNormalImpulseInAnyDirection'],
        legacy=True),
    Row(
        id='T7',
        claim='"Differentiability": A, B from the KKT conditions by the implicit function theorem',
        ours='exact A and B by implicit differentiation of the QP and the SOCP, equal to central differences',
        commands=['build/release/quasidyn linearize examples/planar_hand/scene.yaml --step 25'],
        tests=['SocpGradients.PlanarHand', 'cli.linearize'],
        legacy=True),
    Row(
        id='T8',
        claim='"Smoothed gradients enable trajectory optimization for dexterous hands": "Turning the ball by 30 degrees"',
        ours='20 iterations (11 accepted), cost 5.21 → 0.0485, final object error (−1.7 mm, 2.3 mm, −0.0086 rad) (T = 10, h = 0.1 s, κ schedule: not stated; ours)',
        commands=['build/release/quasidyn optimize examples/planar_hand/scene.yaml --goal 0 0.05 0.5236 --object-weight 10 10 1 --h 0.1 --out out/plan.json'],
        tests=['TrajectoryOptimizer.PlanarHandReachesThirtyDegreesWithMonotoneBestCost'],
        legacy=True),
    half_turn.T9,
    Row(
        id='T10',
        claim='"RRT takes less than a minute." (speed)',
        ours='planar hand, π, 20 seeds: 20/20 found, median 0.68 s wall (0.165 s CPU), max 2.6 s wall, median 1101 nodes; other machine, not a ratio',
        commands=['build/release/rrt_study_bench --seeds 20 --out out/rrt_study'],
        tests=['PlansExamples.FindsAPathThatReplays'],
        legacy=True),
    Row(
        id='T11',
        claim='"The modified RRT works well for contact-rich tasks!": the plot "Planning wall-clock time (seconds)" (no values in the text)',
        ours='not stated; ours, 20 seeds, median wall (CPU) time and found: planar_hand 0.68 s (0.165 s) 20/20, planar_pushing_top_down 0.26 s (0.064 s) 20/20, planar_pushing 0.81 s (0.268 s) 16/20, box_turning 0.52 s (0.268 s) 20/20',
        commands=['build/release/rrt_study_bench --seeds 20 --out out/rrt_study'],
        tests=['PlansExamples.FindsAPathThatReplays'],
        legacy=True),
    Row(
        id='T12',
        claim='"Ablation study: what trees look like after growing a fixed number of nodes" (metric vs Euclidean, with and without contact sampling)',
        ours='found in 20 seeds within 3000 nodes, metric + contact sampling / Euclidean + sampling / metric alone / Euclidean alone: planar_hand 19/0/2/0, planar_pushing_top_down 16/0/2/0, planar_pushing 10/0/0/0, box_turning 19/0/11/0',
        commands=['build/release/rrt_study_bench --ablation --seeds 20 --out out/rrt_study', '/usr/bin/python3 scripts/plot_rrt_ablation.py out/rrt_study out/ablation.png'],
        tests=['figures.rrt_ablation', 'RrtThroughContact.WithoutContactSamplingTheOutOfContactPusherStays'],
        legacy=True),
    Row(
        id='T13',
        claim='"A distance metric that reflects contact dynamic reachability": d = ½(q^u − μ)ᵀ[B Bᵀ]⁻¹(q^u − μ)',
        ours='d = ½(q^u ⊖ μ)ᵀ(B Bᵀ + λI)⁻¹(q^u ⊖ μ); λ not stated; ours: 1e-3; the log-barrier B is non-zero before contact, the exact B is 0',
        commands=['build/release/nearest_node_bench'],
        tests=['ReachabilityMetric.MatchesItsDefinitionOnRandomPlanarCases', 'NodeLinearizer.TheLogBarrierSeesContactsTheExactGradientDoesNot'],
        legacy=True),
    Row(
        id='T14',
        claim='"Turning the ball by 30 degrees: open-loop with disturbance": "Initial position of the ball is off by 3mm"; closed loop with the "naive QP controller based on smoothed linearization"',
        ours="20 plants with a 3 mm offset (friction × U[0.8, 1.2] and the plant step h/2 not stated; ours): final error (position + 0.05 m × angle) mean (median) open loop 4.88 (4.89) mm, stabiliser 0.72 (0.59) mm, better on 20/20, shrinking-horizon MPC 1.43 (1.56) mm, 20/20; the controller's κ = 5000 not stated; ours",
        commands=['build/release/control_study_bench --tasks planar_hand --out out/control_study'],
        tests=['Stabilizer.ClosedLoopBeatsOpenLoopOnPerturbedPlants', 'figures.control'],
        legacy=True),
    Row(
        id='T15',
        claim='"Open-loop Drake": the plan "Simulated in Drake with the same SDF as the quasi-dynamic model used for planning"',
        ours='not reproduced in Drake; a second-order plant of ours (`anitescu`, the same scene, fingers critically damped, the 20 plants of T14): mean (median) open loop 9.12 (8.95) mm, stabiliser 2.33 (1.66) mm, 20/20, MPC 1.57 (1.07) mm, 20/20',
        commands=['build/release/control_study_bench --tasks planar_hand --plant-formulation anitescu --out out/control_study'],
        tests=['figures.control'],
        legacy=True),
    Row(
        id='T16',
        claim='"Our Method: Sim and Hardware Demos", "Open-loop hardware"',
        ours='not reproduced: no hardware; the simulated open and closed loops are T14',
        commands=['build/release/quasidyn track out/plan.json --plant-scene examples/planar_hand/scene.yaml --offset 0.003 0 --friction-scale 1.2 --substeps 2'],
        tests=['cli.optimize_track'],
        legacy=True),
]

PAPER = Paper(key='Pang 2022 (talk)', title='Pang 2022, "Planning and Control for Contact-rich Manipulation" (talk, Oct. 2022)', intro="The talk's slides carry few numbers; its toy and tasks are `examples/toy_1d` (docs/toy_1d.md)\nand `examples/planar_hand` (docs/planning.md, docs/control.md).", rows=ROWS)
