"""Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR): the rows of docs/reproductions.md (issue 67)."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

SOURCES = []

ROWS = [
    Row(
        id='HP1',
        claim='Fig. 1: an object pushed by a manipulator on a frictional support (a diagram of the notation)',
        ours='not reproduced: a diagram; its quantities (A, B, c, J, μ) are the `halm-posa` scene keys',
        commands=['build/release/quasidyn info examples/disk_pushing/scene.yaml'],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        legacy=True),
    Row(
        id='HP2',
        claim='Fig. 2 left: under perfect velocity control a squeezing command "does not yield any feasible solutions"',
        ours='the squeeze of the disk against the wall at c = 0: Lemke reports the LCP infeasible (no solution); at c = 0.01 it is solved, the fingers stop; the wall push stops at step 94 (t = 2.35 s) at c = 0',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaLcp.SqueezeHasNoSolutionUnderPerfectVelocityControlOnly'],
        legacy=True),
    Row(
        id='HP3',
        claim='Fig. 2 right: a grazing command "yields ambiguous behavior"; Theorem 1: with c > 0, B ≻ 0 a solution exists',
        ours='not reproduced: no grazing scene; with c > 0 every step is solved: the four disk pushes at c = 2^(4−n), n = 2 … 14, 400 of 400 steps each (20800 LCPs), and random commands and scales in the test',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        legacy=True),
    Row(
        id='HP4',
        claim='§6.1: "a flat disk of radius 1 m", friction "1", H(F) = FᵀF (A = I3), B = I4 m s⁻¹ N⁻¹, "t ∈ (0, 10) s at 40 Hz"',
        ours="r = 1 m, μ = 1, A = I3, B = I4, h = 0.025 s, 400 of 400 steps (symmetric, asymmetric, semicircular); the initial poses and commands not stated; ours (the authors' MATLAB library's)",
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        legacy=True),
    Row(
        id='HP5',
        claim='Fig. 3 top: "a symmetric push"',
        ours='at c = 0 the disk goes straight down from y = 3 m to −5.87 m (x = 0, θ = 0.004 rad)',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        legacy=True),
    Row(
        id='HP6',
        claim='Fig. 3 top: "an asymmetric push"',
        ours='it turns clockwise: θ = −0.82 rad at t = 10 s, c = 0',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.AsymmetricPushTurnsTheDisk'],
        legacy=True),
    Row(
        id='HP7',
        claim='Fig. 3 top: "a semicircular push"',
        ours='at c = 0 it ends at (5.00, 1.73) m turned by 3.142 rad; at c = 2⁻¹⁴ at (5.00, 1.73) m, 3.131 rad',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        legacy=True),
    Row(
        id='HP8',
        claim='§6.1: at low gain on the semicircular command "the fingers tend to slide off of the sides of the object, leaving the object behind its intended goal"',
        ours='c = 4: ends at (−4.32, −1.33) m, c = 0.25: (−1.89, −4.54) m, against (5.00, 1.73) m at c = 0',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        legacy=True),
    Row(
        id='HP9',
        claim='Fig. 3 bottom: "For sufficiently high gains, we see a linear relationship between the log of the feedback scaling term and that of e_i"',
        ours='least-squares slopes of log₂ e on log₂ c over c = 2⁻⁶ … 2⁻¹⁴: 0.999 (symmetric), 0.998 (asymmetric), 1.097 (semicircular); the c_i not stated; ours: 2^(4−n), n = 2 … 22',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.FinalPoseConvergesLinearlyInTheFeedbackScale'],
        legacy=True),
    Row(
        id='HP10',
        claim='Fig. 4 top: with "a wall located at y_W = 0", "the perfect velocity tracking program (black) terminates at the first time-step at which the squeezing occurs"',
        ours='c = 0: 93 of 400 steps, step 94 (t = 2.35 s) infeasible; finger–wall friction not stated; ours: 1',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        legacy=True),
    Row(
        id='HP11',
        claim='§6.1: "the finite gain formulation not only captures the collision, but also still exhibits convergent behavior thereafter"',
        ours='400 of 400 steps at every c = 2^(4−n) > 0 (n = 2 … 14); the disk rolls along the wall to (0.977, 1, −1.99 rad) at c = 2⁻¹⁰ and (1.014, 1, −2.02 rad) at c = 2⁻¹⁴',
        commands=['build/release/disk_pushing_figures out'],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        legacy=True),
    Row(
        id='HP12',
        claim='§6.2: "The slot has a 1% tolerance on the width of the peg", B = I6, "c = 0.01", "time step to 50 ms"',
        ours='slot 2.02 m for the 2 m peg, B = I6, c = 0.01, h = 0.05 s, 240 steps; the peg (2 × 6 m), k_p = 5 s⁻¹ and the trajectory not stated; ours',
        commands=['build/release/peg_in_hole_figure out'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted'],
        legacy=True),
    Row(
        id='HP13',
        claim='Fig. 4 bottom: "grasping", "jamming against the right side of the slot", "twisting into the slot", "final insertion"',
        ours='240 of 240 steps solved; the peg jams on the corner, is reoriented and inserted: final pose (−0.01 m, −2.914 m, 0 rad)',
        commands=['build/release/peg_in_hole_figure out'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted', 'figures.halm_posa'],
        legacy=True),
    Row(
        id='HP14',
        claim='§6.2, speed: "PATH is able to compute solutions in 1.51 ms on average"',
        ours="our Lemke on the run's 240 LCPs from scratch: median 10.9 µs CPU (19.1 µs wall), 14.9 pivots; as the rollout solves them (warm start): 5.3 µs CPU; Siconos lexicolemke side by side: 91.1 µs CPU (ours 8.4× faster, a ratio); 2026-11-27, with Lemke's pivot by columns: ours 9.78 µs, Siconos 35.8 µs in the same run (3.66×; 2.98× before the change, same host); PATH: other machine, not a ratio",
        commands=['build/release/halm_posa_bench --benchmark_filter=Peg --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        legacy=True),
    Row(
        id='HP15',
        claim='§4: "our formulation introduces no additional computational complexity, as our LCP is of equal dimension"; §7: "as computationally efficient as previous methods"',
        ours="M(cB) adds J_m cB J_mᵀ to the perfect-velocity M and keeps its size; one step of the disk pushes (the scenes' c), median CPU time 1.89, 1.37, 2.47, 2.33 µs (symmetric, asymmetric, semicircular, wall), 0.06 to 2.1 pivots per solve, the warm start solving 66 to 90 % of the steps; previous methods' times not stated; not timed side by side",
        commands=['build/release/halm_posa_bench --benchmark_filter=DiskPush --benchmark_repetitions=3 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        legacy=True),
    Row(
        id='HP16',
        claim='§6.3: "a square object of mass .01 kg and side length 0.4 m in contact with four manipulators, each consisting of two 1 m long links with a circular contact at the end"',
        ours='the same square and links; the tip radius (0.05 m), gains and commands not stated; ours',
        commands=['build/release/quasidyn info examples/pinch/scene.yaml'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes'],
        legacy=True),
    Row(
        id='HP17',
        claim='Fig. 5: "The dynamic and quasi-static simulations exhibit qualitatively similar behavior": the object moves "in the +y_W direction and spin[s]"',
        ours="against MuJoCo 2.2's compliant contact (velocity actuators kv = 1/(cB), h = 1e-4 s): final (x, y, θ) at 2 s (0.036 m, 0.058 m, 1.16 rad) against halm-posa's (0.033 m, 0.048 m, 1.18 rad): +y and counter-clockwise in both, θ within 2 %; stewart-trinkle (0.008, 0.049, 1.30), the QP (−0.008, 0.064, 1.38)",
        commands=['build/release/pinch_peer_comparison out', 'build/release/pinch_figure out'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes', 'figures.halm_posa'],
        legacy=True),
    Row(
        id='HP18',
        claim='Fig. 5 right: "The object moves slightly more in the y_w direction in the dynamic trajectory than it does under quasi-statics"',
        ours="holds: MuJoCo's y 0.058 m against halm-posa's 0.048 m (+0.010 m, 21 %); with MuJoCo's default, softer contact (time constant 0.02 s, 2.4 mm deep) +0.035 m",
        commands=['build/release/pinch_peer_comparison out'],
        tests=['figures.halm_posa'],
        legacy=True),
]

PAPER = Paper(key='Halm & Posa 2018', title='Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR)', intro='Scenes: `examples/disk_pushing`, `examples/peg_in_hole`, `examples/pinch`; docs/formulations.md,\n"halm-posa", "Reproducing the paper\'s §6".', rows=ROWS)
