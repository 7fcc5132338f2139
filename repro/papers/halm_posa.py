"""Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR): the rows of docs/reproductions.md (issue 67)."""

import math

from repro.framework import Fitted, NotReproduced, Paper, Row, Substitute
from repro.papers.halm_posa_sources import PUSHES
from repro.papers.halm_posa_sources import SOURCES  # noqa: F401 (read here by repro/registry.py)

DISK = 'build/release/disk_pushing_figures out'
DISK_SCENE = 'build/release/quasidyn info --json examples/disk_pushing/scene.yaml'


def _near(a, b, tolerance):
    return abs(a - b) <= tolerance


ROWS = [
    Row(
        id='HP1',
        claim='Fig. 1: an object pushed by a manipulator on a frictional support (a diagram of the notation)',
        ours='a diagram; its quantities are the `halm-posa` scene keys (A: `limit_surface`, B, c, '
             'μ: `friction`) of the {disk_scene.formulation} formulation',
        commands=[DISK_SCENE],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        kind=NotReproduced("a diagram of the notation, no result")),
    Row(
        id='HP2',
        claim='Fig. 2 left: under perfect velocity control a squeezing command "does not yield any feasible solutions"',
        ours="the disk squeezed against the wall at c = 0: step {disk_pushing.wall_c0_stop_step} "
             "(t = {disk_pushing.wall_c0_stop_t:.3f} s) has no solution (Lemke: "
             "{disk_pushing.wall_c0_stop_status}), the run stops after "
             "{disk_pushing.wall_c0_steps} of {disk_pushing.steps_requested} steps; every "
             "finite-c run (c = 2^(4 − n), n = 2 … {disk_pushing.wall_plotted_n_max} plotted) "
             "solves all {disk_pushing.wall_plotted_steps_min} steps; the test's squeeze at "
             "c = 0 is infeasible, at c = 0.01 solved with the fingers stopped",
        commands=[DISK],
        tests=['HalmPosaLcp.SqueezeHasNoSolutionUnderPerfectVelocityControlOnly'],
        kind=Substitute("the paper's configuration is a square held by four fingers; ours is "
                        "the disk pushed by two fingers into the wall (Fig. 4's jam) and the "
                        "test's two-finger squeeze"),
        holds=lambda v: v["disk_pushing.wall_c0_stop_status"] == "infeasible"
        and v["disk_pushing.wall_plotted_steps_min"] == v["disk_pushing.steps_requested"]),
    Row(
        id='HP3',
        claim='Fig. 2 right: a grazing command "yields ambiguous behavior"; Theorem 1: "For all (c, B, u), if c > 0 and B ≻ 0, SOL(M(cB), w(u)) ≠ ∅"',
        ours="grazing (the test): the disk between two fingers on its sides, both commanded "
             "up along it: at c = 0 the LCP is solved by the stationary disk (Lemke's answer) "
             "and by every squeeze that carries it up with the fingers; at c = 0.01 the squeezes "
             "are not solutions and the disk stays. Theorem 1: every step of the "
             "{disk_pushing.theorem_runs} runs of the four pushes at c = 2^(4 − n), n = 2 … 20 "
             "(c = 4 … 2⁻¹⁶) is solved ({disk_pushing.steps_requested} steps each), and 200 "
             "random configurations, commands and c ∈ [10⁻³, 1] in the test; below c = "
             "2^{disk_pushing.wall_linear_down_to_log2c} Lemke fails on the wall push (HP22: "
             "precision, not existence)",
        commands=[DISK],
        tests=['HalmPosaLcp.GrazingIsAmbiguousUnderPerfectVelocityControlOnly',
               'HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        kind=Substitute("the grazing case is a disk between two fingers (a test), not the "
                        "square of Fig. 2; Theorem 1's existence is checked on the disk pushes' "
                        "and random LCPs, not proved"),
        holds=lambda v: v["disk_pushing.theorem_runs"] == 4 * 19),
    Row(
        id='HP4',
        claim='§6.1: "a flat disk of radius 1 m", friction "1", H(F) = FᵀF (A = I3), B = I4 m s⁻¹ N⁻¹, "t ∈ (0, 10) s at 40 Hz"',
        ours="r = {disk_scene.radius_m:g} m, μ = {disk_scene.mu:g}, A = "
             "{disk_scene.limit_surface}, B = {disk_scene.B:g}·I{disk_scene.nq_a}, h = "
             "{disk_scene.h_s:g} s ({disk_scene.rate_hz:g} Hz), "
             "{disk_pushing.symmetric_c0_steps} steps to t = "
             "{disk_pushing.symmetric_c0_t_end:g} s; the initial poses and commands not stated; "
             "ours: the authors' MATLAB library's (slidingCircle.m)",
        commands=[DISK_SCENE, DISK],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        holds=lambda v: v["disk_scene.radius_m"] == 1 and v["disk_scene.mu"] == 1
        and v["disk_scene.mu_max"] == 1 and v["disk_scene.A_is_I3"] and v["disk_scene.B"] == 1
        and v["disk_scene.nq_a"] == 4 and _near(v["disk_scene.rate_hz"], 40, 1e-9)
        and _near(v["disk_pushing.symmetric_c0_t_end"], 10, 1e-9)),
    Row(
        id='HP5',
        claim='Fig. 3 top: "a symmetric push"',
        ours="at c = 0 the disk goes straight down from y = "
             "{disk_pushing.symmetric_c0_y_first:.3f} m (after the first step) to "
             "{disk_pushing.symmetric_c0_y:.3f} m, x = {disk_pushing.symmetric_c0_x:.1e} m, "
             "θ = {disk_pushing.symmetric_c0_theta:.3f} rad; at c = "
             "2^{disk_pushing.symmetric_n14_log2c} it ends at y = "
             "{disk_pushing.symmetric_n14_y:.3f} m",
        commands=[DISK],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        # Straight: x stays within 1 mm of 0 while y falls by metres.
        holds=lambda v: abs(v["disk_pushing.symmetric_c0_x"]) < 1e-3
        and v["disk_pushing.symmetric_c0_y"] < v["disk_pushing.symmetric_c0_y_first"] - 1),
    Row(
        id='HP6',
        claim='Fig. 3 top: "an asymmetric push"',
        ours="it turns the disk clockwise: θ = {disk_pushing.asymmetric_c0_theta:.3f} rad at "
             "t = {disk_pushing.asymmetric_c0_t_end:g} s, c = 0 "
             "({disk_pushing.asymmetric_n14_theta:.3f} rad at c = "
             "2^{disk_pushing.asymmetric_n14_log2c})",
        commands=[DISK],
        tests=['HalmPosaExamples.AsymmetricPushTurnsTheDisk'],
        holds=lambda v: v["disk_pushing.asymmetric_c0_theta"] < -0.1),
    Row(
        id='HP7',
        claim='Fig. 3 top: "a semicircular push"',
        ours="at c = 0 it ends at ({disk_pushing.semicircular_c0_x:.2f}, "
             "{disk_pushing.semicircular_c0_y:.2f}) m turned by "
             "{disk_pushing.semicircular_c0_theta:.3f} rad (half a turn about the half "
             "circle's centre); at c = 2^{disk_pushing.semicircular_n14_log2c} (the highest gain "
             "plotted) at "
             "({disk_pushing.semicircular_n14_x:.2f}, {disk_pushing.semicircular_n14_y:.2f}) m, "
             "{disk_pushing.semicircular_n14_theta:.3f} rad",
        commands=[DISK],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        holds=lambda v: _near(v["disk_pushing.semicircular_c0_theta"], math.pi, 0.01)
        and math.hypot(v["disk_pushing.semicircular_n14_x"] - v["disk_pushing.semicircular_c0_x"],
                       v["disk_pushing.semicircular_n14_y"] - v["disk_pushing.semicircular_c0_y"])
        < 0.05),
    Row(
        id='HP8',
        claim='§6.1: at low gain on the semicircular command "the fingers tend to slide off of the sides of the object, leaving the object behind its intended goal"',
        ours="c = {disk_pushing.semicircular_n2_c:g}: ends at "
             "({disk_pushing.semicircular_n2_x:.2f}, {disk_pushing.semicircular_n2_y:.2f}) m, "
             "c = {disk_pushing.semicircular_n6_c:g}: ({disk_pushing.semicircular_n6_x:.2f}, "
             "{disk_pushing.semicircular_n6_y:.2f}) m, against "
             "({disk_pushing.semicircular_c0_x:.2f}, {disk_pushing.semicircular_c0_y:.2f}) m at "
             "c = 0",
        commands=[DISK],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        # Behind: metres short of the c = 0 goal (the half circle's radius is 5 m).
        holds=lambda v: all(math.hypot(v[f"disk_pushing.semicircular_{n}_x"]
                                       - v["disk_pushing.semicircular_c0_x"],
                                       v[f"disk_pushing.semicircular_{n}_y"]
                                       - v["disk_pushing.semicircular_c0_y"]) > 1
                            for n in ("n2", "n6"))),
    Row(
        id='HP9',
        claim='Fig. 3 bottom: "For sufficiently high gains, we see a linear relationship between the log of the feedback scaling term and that of e_i"',
        ours="least-squares slopes of log₂ e on log₂ c over c = 2^{disk_pushing.fit_from_log2c} "
             "… 2^{disk_pushing.fit_to_log2c} "
             "({disk_pushing.symmetric_fit_points} points): {disk_pushing.symmetric_slope:.3f} "
             "(symmetric), {disk_pushing.asymmetric_slope:.3f} (asymmetric), "
             "{disk_pushing.semicircular_slope:.3f} (semicircular), the points within "
             "{disk_pushing.symmetric_fit_max_residual_log2:.3f}, "
             "{disk_pushing.asymmetric_fit_max_residual_log2:.3f}, "
             "{disk_pushing.semicircular_fit_max_residual_log2:.3f} of the line (log₂ units); "
             "e at c = 2⁻¹⁶: {disk_pushing.symmetric_e_n20:.1e}, "
             "{disk_pushing.asymmetric_e_n20:.1e}, {disk_pushing.semicircular_e_n20:.1e}; the "
             "c_i not stated; ours: 2^(4−n), n = 2 … 20 (the authors' library's)",
        commands=[DISK],
        tests=['HalmPosaExamples.FinalPoseConvergesLinearlyInTheFeedbackScale'],
        # Linear with slope 1 (e ∝ c, Theorem 4's first order) to within 0.15.
        holds=lambda v: all(abs(v[f"disk_pushing.{p}_slope"] - 1) <= 0.15
                            for p in ("symmetric", "asymmetric", "semicircular"))),
    Row(
        id='HP10',
        claim='Fig. 4 top: with "a wall located at y_W = 0", "the perfect velocity tracking program (black) terminates at the first time-step at which the squeezing occurs"',
        ours="c = 0: {disk_pushing.wall_c0_steps} of {disk_pushing.steps_requested} steps, step "
             "{disk_pushing.wall_c0_stop_step} (t = {disk_pushing.wall_c0_stop_t:.3f} s) "
             "{disk_pushing.wall_c0_stop_status}, the disk at ({disk_pushing.wall_c0_x:.3f}, "
             "{disk_pushing.wall_c0_y:.3f}) m on the wall; finger–wall friction not stated; "
             "ours: μ = {wall_scene.mu_max:g}",
        commands=[DISK, 'build/release/quasidyn info --json examples/disk_pushing/wall_push.yaml'],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        holds=lambda v: v["disk_pushing.wall_c0_stop_status"] == "infeasible"
        and v["disk_pushing.wall_c0_steps"] < v["disk_pushing.steps_requested"]),
    Row(
        id='HP11',
        claim='§6.1: "the finite gain formulation not only captures the collision, but also still exhibits convergent behavior thereafter"',
        ours="every run at c = 2^(4 − n), n = 2 … 20, solves all "
             "{disk_pushing.wall_plotted_steps_min} steps; the disk rolls along the wall to "
             "({disk_pushing.wall_n10_x:.3f}, {disk_pushing.wall_n10_y:.3f}) m, "
             "{disk_pushing.wall_n10_theta:.2f} rad at c = 2^{disk_pushing.wall_n10_log2c} and "
             "({disk_pushing.wall_n14_x:.3f}, {disk_pushing.wall_n14_y:.3f}) m, "
             "{disk_pushing.wall_n14_theta:.2f} rad at c = 2^{disk_pushing.wall_n14_log2c}. "
             "Convergence (no c = 0 run "
             "reaches 10 s, so e_n = ‖q_o(10 s; c_n) − q_o(10 s; c_(n−1))‖): slope of log₂ e on "
             "log₂ c over c = 2^{disk_pushing.fit_from_log2c} … 2^{disk_pushing.fit_to_log2c} "
             "{disk_pushing.wall_slope:.3f} (points within "
             "{disk_pushing.wall_fit_max_residual_log2:.2f} of the line, the farthest at c = "
             "2^{disk_pushing.wall_fit_worst_log2c}), "
             "e from {disk_pushing.wall_e_n10:.1e} to {disk_pushing.wall_e_n18:.1e} m and "
             "{disk_pushing.wall_e_n20:.1e} m at c = 2⁻¹⁶",
        commands=[DISK],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        kind=Substitute("convergence measured between successive c (a Cauchy sequence), as the "
                        "perfect-velocity run, the paper's reference, stops at the squeeze"),
        # Slope 1 within 0.15, as HP9's pushes; every run complete.
        holds=lambda v: abs(v["disk_pushing.wall_slope"] - 1) <= 0.15
        and v["disk_pushing.wall_plotted_steps_min"] == v["disk_pushing.steps_requested"]
        and v["disk_pushing.wall_convergence_points"] == 18),
    Row(
        id='HP12',
        claim='§6.2: "The slot has a 1% tolerance on the width of the peg", B = I6, "c = 0.01", "time step to 50 ms"',
        ours="slot {peg_scene.slot_m:.2f} m for the {peg_scene.peg_width_m:g} m peg "
             "({peg_scene.tolerance_percent:.2f} %), B = {peg_scene.B:g}·I{peg_scene.nq_a}, "
             "c = {peg_scene.c:g}, h = {peg_scene.h_s:g} s; the peg's length "
             "({peg_scene.peg_length_m:g} m), k_p = {peg_scene.tracking_gain:g} s⁻¹ and the "
             "trajectory not stated; ours",
        commands=['build/release/quasidyn info --json examples/peg_in_hole/scene.yaml'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted'],
        holds=lambda v: _near(v["peg_scene.tolerance_percent"], 1, 1e-9)
        and v["peg_scene.B"] == 1 and v["peg_scene.nq_a"] == 6 and v["peg_scene.c"] == 0.01
        and v["peg_scene.h_s"] == 0.05),
    Row(
        id='HP13',
        claim='Fig. 4 bottom: "grasping", "jamming against the right side of the slot", "twisting into the slot", "final insertion"',
        ours="{peg_in_hole.steps} of {peg_in_hole.steps_requested} steps solved; the peg jams "
             "on the corner, is turned (by up to {peg_in_hole.theta_max:.3f} rad) and inserted "
             "(the phases: the test): final pose ({peg_in_hole.final_x:.3f} m, "
             "{peg_in_hole.final_y:.3f} m, {peg_in_hole.final_theta:.1e} rad)",
        commands=['build/release/peg_in_hole_figure out'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted', 'figures.halm_posa'],
        kind=Fitted("the plan's final x and θ (examples/peg_in_hole/make_schedule.py) were "
                    "chosen on a 3 × 3 grid among values that insert (docs/formulations.md): "
                    "the insertion is by design, as the paper's hand-designed trajectory's"),
        verdict="holds"),
    Row(
        id='HP14',
        claim='§6.2, speed: "PATH is able to compute solutions in 1.51 ms on average"',
        ours="our Lemke on the run's {halm_posa_bench.PegInHoleLcp_lemke_cold_lcps:.0f} LCPs "
             "from scratch: median {halm_posa_bench.PegInHoleLcp_lemke_cold_cpu_us:.1f} µs CPU "
             "per LCP ({halm_posa_bench.PegInHoleLcp_lemke_cold_wall_us:.1f} µs wall), "
             "{halm_posa_bench.PegInHoleLcp_lemke_cold_pivots_per_solve:.1f} pivots; as the "
             "rollout solves them (warm start): "
             "{halm_posa_bench.PegInHoleLcp_lemke_warm_cpu_us:.1f} µs CPU; Siconos' "
             "lexicographic Lemke on the same LCPs in the same run: "
             "{halm_posa_bench.PegInHoleLcp_siconos_cpu_us:.1f} µs CPU "
             "({halm_posa_bench.siconos_over_lemke_cold:.1f}× ours); PATH: another solver "
             "and machine, not a ratio",
        commands=['build/release/halm_posa_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        kind=Substitute("PATH is not available: our Lemke is timed beside Siconos' Lemke"),
        verdict="holds"),
    Row(
        id='HP15',
        claim='§4: "our formulation introduces no additional computational complexity, as our LCP is of equal dimension"; §7: "as computationally efficient as previous methods"',
        ours="M(cB) adds J_m cB J_mᵀ to the perfect-velocity M and keeps its size (the test). "
             "One step of the disk pushes, median CPU time, the scenes' c against c = 0 (B = 0, "
             "the program of Zhou et al. as a time step, §5; same solver, same run): "
             "{halm_posa_bench.DiskPushStep_symmetric_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_symmetric_c0_cpu_us:.2f} µs (symmetric, "
             "{halm_posa_bench.DiskPushStep_symmetric_over_c0:.2f}×), "
             "{halm_posa_bench.DiskPushStep_asymmetric_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_asymmetric_c0_cpu_us:.2f} µs (asymmetric, "
             "{halm_posa_bench.DiskPushStep_asymmetric_over_c0:.2f}×), "
             "{halm_posa_bench.DiskPushStep_semicircular_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_semicircular_c0_cpu_us:.2f} µs (semicircular, "
             "{halm_posa_bench.DiskPushStep_semicircular_over_c0:.2f}×; pivots per solve "
             "{halm_posa_bench.DiskPushStep_semicircular_pivots_per_solve:.2f} against "
             "{halm_posa_bench.DiskPushStep_semicircular_c0_pivots_per_solve:.2f}); the wall "
             "push {halm_posa_bench.DiskPushStep_wall_cpu_us:.2f} µs (no c = 0 run: it stops at "
             "the squeeze); the warm start solves "
             "{halm_posa_bench.DiskPushStep_warm_share_min:.0%} to "
             "{halm_posa_bench.DiskPushStep_warm_share_max:.0%} of the steps",
        commands=['build/release/halm_posa_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        # As efficient: each push's step within 1.5× of the c = 0 program's.
        holds=lambda v: all(v[f"halm_posa_bench.DiskPushStep_{p}_over_c0"] <= 1.5
                            for p in ("symmetric", "asymmetric", "semicircular"))),
    Row(
        id='HP16',
        claim='§6.3: "a square object of mass .01 kg and side length 0.4 m in contact with four manipulators, each consisting of two 1 m long links with a circular contact at the end"',
        ours="square {pinch_scene.side_m:g} m, {pinch_scene.mass_kg:g} kg; "
             "{pinch_scene.arms} arms of {pinch_scene.links_per_arm} links "
             "({pinch_scene.upper_link_m:g} m, {pinch_scene.fore_link_m:g} m to the tip's "
             "centre); the tip radius ({pinch_scene.tip_radius_m:g} m), gains (B = "
             "diag({pinch_scene.B}), c = {pinch_scene.c:g}) and commands not stated; ours",
        commands=['build/release/quasidyn info --json examples/pinch/scene.yaml'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes'],
        holds=lambda v: v["pinch_scene.mass_kg"] == 0.01 and v["pinch_scene.side_m"] == 0.4
        and v["pinch_scene.arms"] == 4 and v["pinch_scene.links_per_arm"] == 2
        and v["pinch_scene.upper_link_m"] == 1 and v["pinch_scene.fore_link_m"] == 1),
    Row(
        id='HP17',
        claim='Fig. 5: "The dynamic and quasi-static simulations exhibit qualitatively similar behavior": the object moves "in the +y_W direction and spin[s]"',
        ours="against MuJoCo's compliant contact (velocity actuators kv = 1/(cB), h = "
             "{pinch_peers.mujoco_h_s:g} s, contact time constant "
             "{pinch_peers.mujoco_time_constant_s:g} s): final (x, y, θ) at "
             "{pinch_peers.MuJoCo_t:g} s ({pinch_peers.MuJoCo_x:.3f} m, "
             "{pinch_peers.MuJoCo_y:.3f} m, {pinch_peers.MuJoCo_theta:.2f} rad) against "
             "halm-posa's ({pinch_peers.halm_posa_x:.3f} m, {pinch_peers.halm_posa_y:.3f} m, "
             "{pinch_peers.halm_posa_theta:.2f} rad): +y and counter-clockwise in both, θ "
             "within {pinch_peers.dtheta_mujoco_abs_percent:.1f} %; stewart-trinkle "
             "({pinch_peers.stewart_trinkle_x:.3f}, {pinch_peers.stewart_trinkle_y:.3f}, "
             "{pinch_peers.stewart_trinkle_theta:.2f}), the QP ({pinch_peers.qp_x:.3f}, "
             "{pinch_peers.qp_y:.3f}, {pinch_peers.qp_theta:.2f})",
        commands=['build/release/pinch_peer_comparison out', 'build/release/pinch_figure out'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes', 'figures.halm_posa'],
        kind=Substitute("MuJoCo's compliant contact stands in for the paper's Drake simulation"),
        # Similar: both move in +y and turn the same way, θ within 10 % (figures.halm_posa).
        holds=lambda v: v["pinch_peers.MuJoCo_y"] > 0 and v["pinch_peers.halm_posa_y"] > 0
        and v["pinch_peers.MuJoCo_theta"] * v["pinch_peers.halm_posa_theta"] > 0
        and abs(v["pinch_peers.dtheta_mujoco_percent"]) < 10),
    Row(
        id='HP18',
        claim='Fig. 5 right: "The object moves slightly more in the y_w direction in the dynamic trajectory than it does under quasi-statics"',
        ours="MuJoCo's y {pinch_peers.MuJoCo_y:.4f} m against halm-posa's "
             "{pinch_peers.halm_posa_y:.4f} m (+{pinch_peers.dy_mujoco_m:.4f} m, "
             "{pinch_peers.dy_mujoco_percent:.0f} %)",
        commands=['build/release/pinch_peer_comparison out'],
        tests=['figures.halm_posa'],
        kind=Substitute("MuJoCo's compliant contact stands in for the paper's Drake simulation"),
        # "Slightly more": more, by less than half of halm-posa's y (figures.halm_posa).
        holds=lambda v: 0 < v["pinch_peers.dy_mujoco_m"] < 0.5 * v["pinch_peers.halm_posa_y"]),
    Row(
        id='HP19',
        claim='§4, Theorem 2: "Let B ≻ 0. There exists r(B) ∈ R such that for all c > 0, for all z ∈ SOL(M(cB), w(u)), c‖F_m‖₂ ≤ r(B)‖u‖₂" (the proof: r(B) = 1/λ_min(B))',
        ours="c‖F_m‖ λ_min(B)/‖u‖, with c F_m = B⁻¹(Δq_m − h u)/h from each step's "
             "displacements, at most {disk_pushing.theorem2_ratio_max!r} over every step of "
             "the {disk_pushing.theorem_runs} runs of the four disk pushes at c = 2^(4 − n), "
             "n = 2 … 20 (bound 1); the bound is attained where the squeeze stops the fingers "
             "(Δq_m = 0); the test checks it on 200 random LCPs by the wall",
        commands=[DISK],
        tests=['figures.halm_posa', 'HalmPosaLcp.Theorem2BoundsTheFingersForceByTheCommandOnRandomLcps'],
        kind=Substitute("the paper proves the bound; ours checks it on every solved step of the "
                        "disk pushes and on random LCPs"),
        # ≤ 1 up to the rounding of positions of ~10 m.
        holds=lambda v: v["disk_pushing.theorem2_ratio_max"] <= 1 + 1e-9),
    Row(
        id='HP20',
        claim='§4, Theorem 3: "For all sequences (z_i) and (c_i) such that c_i → 0 and z_i ∈ SOL(M(c_i B), w(u)), c_i λ_i → F_0" (the admissible internal forces)',
        ours="the wall push (a squeeze): the largest c‖F_o‖ = c‖A⁻¹Δq_o‖/h over its steps "
             "falls from {disk_pushing.wall_c_Fo_n10:.2e} (c = 2^{disk_pushing.fit_from_log2c}) to "
             "{disk_pushing.wall_c_Fo_n18:.2e} (c = 2^{disk_pushing.fit_to_log2c}), slope "
             "{disk_pushing.wall_c_Fo_slope:.3f} on log c, while the largest c‖F_m‖ stays "
             "{disk_pushing.wall_c_Fm_n10:.3f} and {disk_pushing.wall_c_Fm_n18:.3f} N (the same c): "
             "the part "
             "of cλ that does not vanish exerts no net force on the disk, an internal force "
             "(the symmetric push, no squeeze: c‖F_m‖ {disk_pushing.symmetric_c_Fm_n10:.1e} to "
             "{disk_pushing.symmetric_c_Fm_n18:.1e} N); the test: the same along c = 10⁻¹ … 10⁻⁷ "
             "for 20 random squeezing commands",
        commands=[DISK],
        tests=['figures.halm_posa', 'HalmPosaLcp.Theorem3ScaledForcesTendToAnInternalForceInASqueeze'],
        kind=Substitute("the paper proves the limit; ours measures c‖J_oᵀλ‖ → 0 (the proof's "
                        "step to F_0) along the wall push's sequence of c"),
        # c‖F_o‖ vanishes like c (slope within 0.15 of 1) while c‖F_m‖ does not.
        holds=lambda v: abs(v["disk_pushing.wall_c_Fo_slope"] - 1) <= 0.15
        and v["disk_pushing.wall_c_Fm_n18"] >= 0.5 * v["disk_pushing.wall_c_Fm_n10"]),
    Row(
        id='HP21',
        claim='§5: "We additionally note that setting B = 0 gives a time-stepping reformulation of the program in [31]" (Zhou et al., perfect velocity control)',
        ours="c B = 0 (our c = 0 runs): the fingers follow the command exactly, ‖Δq_m − h u‖ at "
             "most {disk_pushing.c0_tracking_error_m:.1e} m over every step of the four pushes, "
             "while the disk is carried (symmetric: y from "
             "{disk_pushing.symmetric_c0_y_first:.3f} m after the first step to "
             "{disk_pushing.symmetric_c0_y:.3f} m); "
             "the LCP's M at c B = 0 is eq. (13)'s (the test builds M from J W Jᵀ, W = "
             "blockdiag(A, cB))",
        commands=[DISK],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        kind=Substitute("Zhou et al.'s program itself is not run; ours checks the perfect "
                        "velocity control it assumes"),
        # Exact up to the rounding of positions of ~10 m (1e-15 relative).
        holds=lambda v: v["disk_pushing.c0_tracking_error_m"] <= 1e-12),
    Row(
        id='HP22',
        claim='§7: "Some numerical precision may however be lost for small c due to round-off error or poor conditioning of the associated LCPs. In future work, we will conduct a quantitative analysis of this behavior."',
        ours="e_n continued to c = 2^{disk_pushing.symmetric_precision_last_log2c} "
             "(HP9's and HP11's measures): the local slope log₂(e_(n−1)/e_n) stays within 0.1 "
             "of 1 down to c = 2^{disk_pushing.symmetric_linear_down_to_log2c} (symmetric; at "
             "2^{disk_pushing.symmetric_departure_log2c} {disk_pushing.symmetric_departure}: "
             "{disk_pushing.symmetric_departure_slope:.2f}, e = "
             "{disk_pushing.symmetric_departure_e:.1e} m, "
             "the run {disk_pushing.symmetric_departure_status}), "
             "2^{disk_pushing.asymmetric_linear_down_to_log2c} (asymmetric), "
             "2^{disk_pushing.semicircular_linear_down_to_log2c} (semicircular), e then "
             "reaching its floor of {disk_pushing.symmetric_least_e:.0e}, "
             "{disk_pushing.asymmetric_least_e:.0e}, {disk_pushing.semicircular_least_e:.0e} m "
             "(the rounding of positions of metres) at c = "
             "2^{disk_pushing.symmetric_least_e_log2c}, "
             "2^{disk_pushing.asymmetric_least_e_log2c}, "
             "2^{disk_pushing.semicircular_least_e_log2c}; the wall push (a jam, M(cB) → the "
             "unsolvable M(0)) only down to 2^{disk_pushing.wall_linear_down_to_log2c}: at "
             "2^{disk_pushing.wall_departure_log2c} {disk_pushing.wall_departure}, and "
             "{disk_pushing.wall_precision_failures} of {disk_pushing.wall_precision_runs} runs "
             "from 2⁻¹⁷ to 2^{disk_pushing.wall_precision_last_log2c} fail",
        commands=[DISK],
        tests=['figures.halm_posa'],
        holds=lambda v: all(v[f"disk_pushing.{p}_departure_log2c"] != 0 for p in PUSHES)),
]

PAPER = Paper(key='Halm & Posa 2018', title='Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR)', intro='Scenes: `examples/disk_pushing`, `examples/peg_in_hole`, `examples/pinch`; docs/formulations.md,\n"halm-posa", "Reproducing the paper\'s §6".', rows=ROWS)
