"""Pang 2022, "Planning and Control for Contact-rich Manipulation" (talk, Oct. 2022): the rows of docs/reproductions.md (issue 67).

The talk's slides carry few numbers: most rows quote a slide's statement and hold where ours
shows it; where a statement has no number, the threshold that decides it is ours and the row
says so."""

import math

from repro.framework import NotReproduced, Paper, Row, Substitute
from repro.papers import talk_half_turn as half_turn
from repro.papers.talk_sources import STUDY_EXAMPLES
from repro.papers.talk_sources import SOURCES  # noqa: F401 (read here by repro/registry.py)

def _toy_exact(v):
    return v["toy_1d.exact_q_difference_m"] <= 1e-9 and v["toy_1d.exact_slope_difference"] <= 1e-9


def _found_within_minute_majority(v):
    """More than half of each scene's seeds find a plan within 60 s of wall time."""
    return (2 * v["rrt_study.planar_hand_found_within_minute"] > v["rrt_study.planar_hand_seeds"]
            and all(2 * v[f"{s}.found_within_minute"] > v[f"{s}.seeds"]
                    for s in ("plan_hand_3d", "plan_bimanual")))


def _ablation_holds(v):
    """Metric + contact sampling finds more seeds than each other variant, in every example."""
    for example in STUDY_EXAMPLES:
        best = v[f"rrt_ablation.{example}_metric_grasp_found"]
        for variant in ("euclidean_grasp", "metric", "euclidean"):
            if not best > v[f"rrt_ablation.{example}_{variant}_found"]:
                return False
    return True


ROWS = [
    Row(
        id='T1',
        claim='"Contact dynamics is non-smooth!": the 1D plot x_+ = u for u > 0, x_+ = 0 for u ≤ 0',
        ours="the toy's robot against its object made immovable (s = 10⁶, α = "
             "{talk_slides.wall_alpha:.0e}; on the robot's right, so x₊ = min(u, 0): the slide's "
             "plot mirrored): slopes {talk_slides.wall_slope_free:g} before the contact and "
             "{talk_slides.wall_slope_contact:.0e} after, the step "
             "{talk_slides.wall_q_a_minus_closed_form_m:.0e} m from the closed form; with the "
             "object movable (s = {toy_1d.s:g}) the kink at u = {toy_1d.kink_u_m:g} m has the "
             "object's slopes 0 and α = {toy_1d.alpha:g}, {toy_1d.exact_q_difference_m:.1e} m and "
             "{toy_1d.exact_slope_difference:.1e} from the closed form over u ∈ [−0.3, 0.3] m",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json', 'PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py out/toy_1d.png --csv out/toy_1d.csv'],
        tests=['python/tests/test_talk_slides.py::test_against_an_immovable_object_the_step_is_the_slides_kink', 'python/tests/test_toy_1d.py::test_exact_step_equals_the_closed_form_on_both_sides_of_the_kink'],
        holds=lambda v: _toy_exact(v) and 0.0 < v["toy_1d.alpha"] < 1.0
        and v["talk_slides.wall_q_a_minus_closed_form_m"] <= 1e-12
        and abs(v["talk_slides.wall_slope_free"] - 1.0) <= 1e-12
        and abs(v["talk_slides.wall_slope_contact"]) <= 1e-5),
    Row(
        id='T2',
        claim='"Smoothing": min ½(q − u)² − (1/κ) log q; "Smoothed Dynamics": φ_i λ_i = 1/κ',
        ours="the log-barrier step and its slope against the closed form at {toy_1d.barrier_kappas} "
             "values of κ from {toy_1d.kappa_smallest:g} to {toy_1d.kappa_largest:g} 1/(N·m): at "
             "most {toy_1d.barrier_q_difference_m:.1e} m and {toy_1d.barrier_slope_difference:.1e}; "
             "the kink rounded over δ = {toy_1d.barrier_width_smallest_kappa_m:.3g} m to "
             "{toy_1d.barrier_width_largest_kappa_m:.3g} m; κ not stated; ours: those",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py out/toy_1d.png --csv out/toy_1d.csv'],
        tests=['python/tests/test_toy_1d.py::test_log_barrier_step_and_gradient_equal_the_closed_form', 'figures.toy_1d'],
        kind=Substitute("the toy of the \"Optimality Condition\" slide without its two walls "
                        "(φ_2, φ_3): one contact, one kink"),
        holds=lambda v: v["toy_1d.barrier_q_difference_m"] <= 1e-9
        and v["toy_1d.barrier_slope_difference"] <= 1e-9
        and v["toy_1d.barrier_width_smallest_kappa_m"] > v["toy_1d.barrier_width_largest_kappa_m"]),
    Row(
        id='T3',
        claim='"Second-order Dynamics" vs "Quasi-static Dynamics": m^a = 1.0, D = 20.0, K = 100.0 '
              '(and a plot of the robot following its command, no numbers)',
        ours="the toy's scene: K = {talk_slides.K_N_per_m:g} N/m, m^a = {talk_slides.m_a_kg:g} kg, "
             "D = {talk_slides.D_Ns_per_m:g} N·s/m (m^a and D enter the second-order formulations "
             "only); a step of the command by 0.05 m: the second-order robot (stewart-trinkle) "
             "within 1 % after {talk_slides.second_order_steps_to_1pct} steps of h = "
             "{talk_slides.h_s:g} s (overshoot {talk_slides.second_order_overshoot_m:g} m: D is "
             "critical), the quasi-static one after {talk_slides.quasi_static_steps_to_1pct} "
             "(error {talk_slides.quasi_static_first_step_error_m:.0e} m); h not stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json', 'build/release/quasidyn info examples/toy_1d/scene.yaml'],
        tests=['python/tests/test_toy_1d.py::test_the_scene_is_the_closed_forms_system', 'python/tests/test_talk_slides.py::test_the_second_order_robot_needs_steps_the_quasi_static_one_does_not'],
        holds=lambda v: (v["talk_slides.K_N_per_m"], v["talk_slides.m_a_kg"],
                         v["talk_slides.D_Ns_per_m"]) == (100.0, 1.0, 20.0)
        and v["talk_slides.quasi_static_steps_to_1pct"] == 1
        and v["talk_slides.second_order_steps_to_1pct"] > 1),
    Row(
        id='T4',
        claim='"Picking ε = m^u / h gives Mason\'s definition of quasi-dynamic dynamics" (regularised quasi-static)',
        ours="the object block s·M_u/h with `object_mass_scale` s = {toy_1d.s:g} (ε = m^u/h); the "
             "toy's step with it equals the closed form with α = h²K/(h²K + s m^u) = "
             "{toy_1d.alpha:g} to {toy_1d.exact_q_difference_m:.1e} m; h = {toy_1d.h_s:g} s, m^u = "
             "{toy_1d.m_u_kg:g} kg not stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py out/toy_1d.png --csv out/toy_1d.csv', 'build/release/quasidyn info examples/toy_1d/scene.yaml'],
        tests=['python/tests/test_toy_1d.py::test_the_scenes_ramp_is_the_closed_form_step_after_step'],
        holds=lambda v: v["toy_1d.s"] == 1.0 and _toy_exact(v)
        and abs(v["toy_1d.alpha"] - v["toy_1d.h_s"] ** 2 * v["toy_1d.K_N_per_m"]
                / (v["toy_1d.h_s"] ** 2 * v["toy_1d.K_N_per_m"] + v["toy_1d.m_u_kg"])) <= 1e-12),
    Row(
        id='T5',
        claim='"Anitescu … SOCP"; "Convexity is achieved at the expense of \'hydroplaning\' … But hydroplaning disappears as h → 0"',
        ours="the `socp` formulation on the gripper pulled down along the sphere (Pang & Tedrake "
             "2021, Fig. 2): the finger's gap while it slides φ = "
             "{talk_slides.hydroplaning_phi_h10ms_m:.3e} m at h = 0.01 s, "
             "{talk_slides.hydroplaning_phi_h5ms_m:.3e} m at 0.005 s, "
             "{talk_slides.hydroplaning_phi_h2_5ms_m:.3e} m at 0.0025 s: h·μ·|v| (μ = 0.5, "
             "|v| = 0.2 m/s), proportional to h",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json'],
        tests=['python/tests/test_talk_slides.py::test_hydroplaning_is_h_mu_v', 'PaperGripperTest.QpOpensBoundaryLayerWhileSlidingAndClosesItAfter'],
        holds=lambda v: all(abs(v[f"talk_slides.hydroplaning_phi_{k}_m"] / h - 0.5 * 0.2)
                            <= 0.01 * 0.5 * 0.2
                            for k, h in (("h10ms", 0.01), ("h5ms", 0.005), ("h2_5ms", 0.0025)))),
    Row(
        id='T6',
        claim='"Force-acceleration vs. Impulse-Momentum": "hΣF = mΔv", m^a δv + hDv^a + hK(q^a + δq^a − u) = 0; '
              'with m^a = D = 0 this "is the optimality condition of" min ½hK(q^a + δq^a − u)²',
        ours="one impulse–momentum step of the toy robot out of contact from rest (`stewart-trinkle`, "
             "spring and damper at the end of the step: which end the slide leaves open; ours), "
             "command 0.05 m away: v⁺ = {talk_slides.impulse_v_next_m_per_s:g} m/s against the "
             "closed form −hK(q^a − u)/(m^a + hD + h²K) = "
             "{talk_slides.impulse_v_closed_form_m_per_s:g} m/s, the impulse balance's residual "
             "{talk_slides.impulse_balance_residual_Ns:.0e} N·s; the quasi-static step (`qp`) "
             "ends at |q^a⁺ − u| = {talk_slides.quasi_static_q_a_minus_u_m:.0e} m, the minimiser",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json'],
        tests=['python/tests/test_talk_slides.py::test_the_impulse_momentum_step_is_the_closed_form', 'SecondOrderClosedForm.StewartTrinkleBlockSlidesAsBackwardEuler'],
        holds=lambda v: abs(v["talk_slides.impulse_v_next_m_per_s"]
                            - v["talk_slides.impulse_v_closed_form_m_per_s"])
        <= 1e-9 * abs(v["talk_slides.impulse_v_closed_form_m_per_s"])
        and v["talk_slides.impulse_balance_residual_Ns"] <= 1e-12
        and v["talk_slides.quasi_static_q_a_minus_u_m"] <= 1e-12),
    Row(
        id='T7',
        claim='"Differentiability": A, B from the KKT conditions by the implicit function theorem',
        ours="the planar hand squeezing the ball, one `socp` step: A and B by implicit "
             "differentiation against central differences (1e-6): largest difference "
             "{talk_slides.gradients_B_max_difference:.1e} in B (largest entry "
             "{talk_slides.gradients_B_max:.2f}), {talk_slides.gradients_A_max_difference:.1e} in A "
             "(largest {talk_slides.gradients_A_max:.2f})",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json', 'build/release/quasidyn linearize examples/planar_hand/scene.yaml --step 25'],
        tests=['python/tests/test_talk_slides.py::test_implicit_gradients_equal_central_differences', 'SocpGradients.PlanarHand', 'cli.linearize'],
        holds=lambda v: v["talk_slides.gradients_B_max_difference"]
        <= 1e-6 * v["talk_slides.gradients_B_max"]
        and v["talk_slides.gradients_A_max_difference"] <= 1e-6 * v["talk_slides.gradients_A_max"]),
    Row(
        id='T8',
        claim='"Smoothed gradients enable trajectory optimization for dexterous hands": "Turning the ball by 30 degrees"',
        ours="{talk_turn.iterations} iterations ({talk_turn.accepted} accepted), cost "
             "{talk_turn.initial_cost:.3g} → {talk_turn.best_cost:.3g}; the plan turns the ball "
             "by {talk_turn.plan_turn_rad:.4f} rad, final object error "
             "({talk_turn.goal_error_x_m:.4f} m, {talk_turn.goal_error_y_m:.4f} m, "
             "{talk_turn.goal_error_theta_rad:.4f} rad) (T = 10, h = 0.1 s, weights, κ schedule: "
             "not stated; ours); holds: the angle within 5 % of the turn (ours: the talk gives "
             "no error)",
        commands=['build/release/quasidyn optimize examples/planar_hand/scene.yaml --goal 0 0.05 0.5236 --object-weight 10 10 1 --h 0.1 --out out/plan.json', 'bash scripts/talk_turn.sh build/release out/talk_turn'],
        tests=['TrajectoryOptimizer.PlanarHandReachesThirtyDegreesWithMonotoneBestCost'],
        holds=lambda v: abs(v["talk_turn.goal_error_theta_rad"])
        <= 0.05 * abs(v["talk_turn.goal_turn_rad"])
        and v["talk_turn.best_cost"] < v["talk_turn.initial_cost"]),
    half_turn.T9,
    Row(
        id='T10',
        claim='"Our Method: Sim and Hardware Demos": "RRT takes less than a minute." (speed; the demos: the bimanual arms and the dexterous hand)',
        ours="seeds with a plan within 60 s of wall time: planar hand (turn by π) "
             "{rrt_study.planar_hand_found_within_minute}/{rrt_study.planar_hand_seeds} (median "
             "{rrt_study.planar_hand_median_wall_s:.2f} s wall, "
             "{rrt_study.planar_hand_median_cpu_s:.3f} s CPU, max "
             "{rrt_study.planar_hand_max_wall_s:.1f} s; median "
             "{rrt_study.planar_hand_median_nodes:.0f} nodes); 3D hand (16 joints, ball by π) "
             "{plan_hand_3d.found_within_minute}/{plan_hand_3d.seeds} ({plan_hand_3d.found} found "
             "within {plan_hand_3d.max_nodes_limit} nodes, median "
             "{plan_hand_3d.found_median_wall_s:.1f} s wall, {plan_hand_3d.found_median_cpu_s:.1f} "
             "s CPU, worst {plan_hand_3d.found_worst_wall_s:.1f} s); bimanual box (by π/2) "
             "{plan_bimanual.found_within_minute}/{plan_bimanual.seeds} ({plan_bimanual.found} "
             "found, median {plan_bimanual.found_median_wall_s:.1f} s wall, "
             "{plan_bimanual.found_median_cpu_s:.1f} s CPU); holds: more than half of each "
             "scene's seeds within a minute (ours: the talk gives no rate); other machine, not a "
             "ratio",
        commands=['build/release/rrt_study_bench --seeds 20 --out out/rrt_study',
                  'build/release/plan_3d_bench examples/hand_ball_3d/scene.yaml --seeds 10 --max-nodes 10000 --time-limit 1000 --json out/hand.json',
                  'build/release/plan_3d_bench examples/bimanual_box/scene.yaml --seeds 10 --max-nodes 10000 --time-limit 1000 --json out/bimanual.json'],
        tests=['PlansExamples.FindsAPathThatReplays'],
        kind=Substitute("our scenes (examples/planar_hand, hand_ball_3d, bimanual_box) on a "
                        "shared 2-core machine, not the talk's demos on its own"),
        holds=_found_within_minute_majority),
    Row(
        id='T11',
        claim='"The modified RRT works well for contact-rich tasks!": the plot "Planning wall-clock time (seconds)" (no values in the text)',
        ours="not stated; ours, 20 seeds, found, median wall (CPU) time, median nodes: planar_hand "
             "{rrt_study.planar_hand_found}/{rrt_study.planar_hand_seeds}, "
             "{rrt_study.planar_hand_median_wall_s:.2f} s ({rrt_study.planar_hand_median_cpu_s:.3f} "
             "s), {rrt_study.planar_hand_median_nodes:.0f}; planar_pushing_top_down "
             "{rrt_study.planar_pushing_top_down_found}/{rrt_study.planar_pushing_top_down_seeds}, "
             "{rrt_study.planar_pushing_top_down_median_wall_s:.2f} s "
             "({rrt_study.planar_pushing_top_down_median_cpu_s:.3f} s), "
             "{rrt_study.planar_pushing_top_down_median_nodes:.0f}; planar_pushing "
             "{rrt_study.planar_pushing_found}/{rrt_study.planar_pushing_seeds}, "
             "{rrt_study.planar_pushing_median_wall_s:.2f} s "
             "({rrt_study.planar_pushing_median_cpu_s:.3f} s), "
             "{rrt_study.planar_pushing_median_nodes:.0f}; box_turning "
             "{rrt_study.box_turning_found}/{rrt_study.box_turning_seeds}, "
             "{rrt_study.box_turning_median_wall_s:.2f} s ({rrt_study.box_turning_median_cpu_s:.3f} "
             "s), {rrt_study.box_turning_median_nodes:.0f}; every returned path overlaps by at most "
             "{rrt_study.planar_hand_max_penetration_mm:.2f} / "
             "{rrt_study.planar_pushing_top_down_max_penetration_mm:.2f} / "
             "{rrt_study.planar_pushing_max_penetration_mm:.2f} / "
             "{rrt_study.box_turning_max_penetration_mm:.2f} mm; holds: each example found on at "
             "least 90 % of the seeds (ours: the talk shows times only)",
        commands=['build/release/rrt_study_bench --seeds 20 --out out/rrt_study'],
        tests=['PlansExamples.FindsAPathThatReplays'],
        kind=Substitute("our four planning examples, not the talk's tasks (whose times the plot "
                        "shows without numbers)"),
        holds=lambda v: all(v[f"rrt_study.{e}_found"] >= 0.9 * v[f"rrt_study.{e}_seeds"]
                            for e in STUDY_EXAMPLES)),
    Row(
        id='T12',
        claim='"Ablation study: what trees look like after growing a fixed number of nodes" (metric vs Euclidean, with and without contact sampling)',
        ours="found in {rrt_ablation.planar_hand_metric_grasp_seeds} seeds within 3000 nodes, "
             "metric + contact sampling / Euclidean + sampling / metric alone / Euclidean alone: "
             "planar_hand {rrt_ablation.planar_hand_metric_grasp_found}/"
             "{rrt_ablation.planar_hand_euclidean_grasp_found}/"
             "{rrt_ablation.planar_hand_metric_found}/{rrt_ablation.planar_hand_euclidean_found}, "
             "planar_pushing_top_down {rrt_ablation.planar_pushing_top_down_metric_grasp_found}/"
             "{rrt_ablation.planar_pushing_top_down_euclidean_grasp_found}/"
             "{rrt_ablation.planar_pushing_top_down_metric_found}/"
             "{rrt_ablation.planar_pushing_top_down_euclidean_found}, planar_pushing "
             "{rrt_ablation.planar_pushing_metric_grasp_found}/"
             "{rrt_ablation.planar_pushing_euclidean_grasp_found}/"
             "{rrt_ablation.planar_pushing_metric_found}/"
             "{rrt_ablation.planar_pushing_euclidean_found}, box_turning "
             "{rrt_ablation.box_turning_metric_grasp_found}/"
             "{rrt_ablation.box_turning_euclidean_grasp_found}/"
             "{rrt_ablation.box_turning_metric_found}/{rrt_ablation.box_turning_euclidean_found}; "
             "holds: metric + contact sampling finds the most in every example (the slide's "
             "point; its trees have no numbers)",
        commands=['build/release/rrt_study_bench --ablation --seeds 20 --out out/rrt_study', '/usr/bin/python3 scripts/plot_rrt_ablation.py out/rrt_study out/ablation.png'],
        tests=['figures.rrt_ablation', 'RrtThroughContact.WithoutContactSamplingTheOutOfContactPusherStays'],
        kind=Substitute("our four planning examples, not the talk's system"),
        holds=_ablation_holds),
    Row(
        id='T13',
        claim='"A distance metric that reflects contact dynamic reachability": d = ½(q^u − μ)ᵀ[B Bᵀ]⁻¹(q^u − μ), B the smoothed B_ρ',
        ours="the planar hand with both fingers 0.02 rad off the ball (no contact): the exact "
             "B^u is {talk_slides.metric_exact_Bu_max:g} (B Bᵀ has no inverse), the log-barrier "
             "B^u's largest entry {talk_slides.metric_log_barrier_Bu_max:.1e}, the eigenvalues of "
             "its B Bᵀ {talk_slides.metric_log_barrier_BBt_eig_min:.1e} … "
             "{talk_slides.metric_log_barrier_BBt_eig_max:.1e}; so ours is d = ½(q^u ⊖ μ)ᵀ(B Bᵀ + "
             "λI)⁻¹(q^u ⊖ μ), λ the planning block's `metric.regularization` (`quasidyn settings "
             "planning` prints its default), not stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json', 'build/release/nearest_node_bench'],
        tests=['python/tests/test_talk_slides.py::test_the_smoothed_b_sees_a_contact_the_exact_one_does_not', 'ReachabilityMetric.MatchesItsDefinitionOnRandomPlanarCases', 'NodeLinearizer.TheLogBarrierSeesContactsTheExactGradientDoesNot'],
        kind=Substitute("ours regularises the inverse, (B Bᵀ + λI)⁻¹: the slide's [B Bᵀ]⁻¹ does "
                        "not exist where B^u has fewer independent directions than the object "
                        "coordinates"),
        holds=lambda v: v["talk_slides.metric_exact_Bu_max"] == 0.0
        and v["talk_slides.metric_log_barrier_Bu_max"] > 0.0),
    Row(
        id='T14',
        claim='"Turning the ball by 30 degrees: open-loop with disturbance": "Initial position of the ball is off by 3mm"; closed loop with the "naive QP controller based on smoothed linearization"',
        ours="the plan of T8 on the planning model with the ball 3 mm off in +x (the direction "
             "not stated; ours): final error (position + 0.05 m × angle) open loop "
             "{talk_turn.offset_open_error_mm:.2f} mm (angle {talk_turn.offset_open_angle_error_rad:.4f} "
             "rad), stabiliser {talk_turn.offset_closed_error_mm:.2f} mm (angle "
             "{talk_turn.offset_closed_angle_error_rad:.5f} rad). Harder, ours: "
             "{control_study.plants} plants, each with the ball {control_study.offset_max_mm:.1f} "
             "mm off (in a random direction), friction × "
             "{control_study.friction_scale_min:.2f}–{control_study.friction_scale_max:.2f} and "
             "the plant at h/{control_study.substeps} (the last two not stated; ours): final error "
             "(position + 0.05 m × angle) mean (median) open loop {control_study.open_mean_mm:.2f} "
             "({control_study.open_median_mm:.2f}) mm, stabiliser "
             "{control_study.stabilizer_mean_mm:.2f} ({control_study.stabilizer_median_mm:.2f}) "
             "mm, better on {control_study.stabilizer_better}/{control_study.plants}, "
             "shrinking-horizon MPC {control_study.mpc_mean_mm:.2f} "
             "({control_study.mpc_median_mm:.2f}) mm, {control_study.mpc_better}/"
             "{control_study.plants}; the controller's κ = 5000 not stated; ours; holds: the "
             "stabiliser's error below the open loop's, on the one plant and on the study's mean",
        commands=['bash scripts/talk_turn.sh build/release out/talk_turn', 'build/release/quasidyn track out/plan.json --plant-scene examples/planar_hand/scene.yaml --offset 0.003 0 --open-loop', 'build/release/control_study_bench --tasks planar_hand --out out/control_study'],
        tests=['Stabilizer.ClosedLoopBeatsOpenLoopOnPerturbedPlants', 'figures.control', 'cli.optimize_track'],
        holds=lambda v: v["talk_turn.offset_closed_error_mm"] < v["talk_turn.offset_open_error_mm"]
        and v["control_study.stabilizer_mean_mm"] < v["control_study.open_mean_mm"]
        and abs(v["control_study.offset_min_mm"] - 3.0) <= 1e-6
        and abs(v["control_study.offset_max_mm"] - 3.0) <= 1e-6),
    Row(
        id='T15',
        claim='"Open-loop Drake": the 30° plan "Simulated in Drake with the same SDF as the quasi-dynamic model used for planning" (a video, no numbers)',
        ours="the plan of T8 sent unchanged to our second-order plant (`anitescu`, the same "
             "scene, fingers critically damped, h/2), no disturbance: the ball turns by "
             "{talk_turn.open_anitescu_h2_turn_rad:.3f} rad against the plan's "
             "{talk_turn.plan_turn_rad:.3f} rad (angle error "
             "{talk_turn.open_anitescu_h2_angle_error_rad:.3f} rad, position "
             "{talk_turn.open_anitescu_h2_position_error_m:.4f} m); holds: the error below half "
             "the plan's turn (ours: the video has no number)",
        commands=['bash scripts/talk_turn.sh build/release out/talk_turn', 'build/release/quasidyn track out/plan.json --plant-scene examples/planar_hand/scene.yaml --open-loop --substeps 2 --plant-formulation anitescu'],
        tests=['cli.optimize_track'],
        kind=Substitute("our second-order anitescu plant, not Drake"),
        holds=lambda v: v["talk_turn.open_anitescu_h2_angle_error_rad"]
        < 0.5 * abs(v["talk_turn.plan_turn_rad"])),
    Row(
        id='T16',
        claim='"Our Method: Sim and Hardware Demos", "Open-loop hardware"',
        ours='no hardware; the simulated open and closed loops are T14, T15 and T22',
        commands=['build/release/quasidyn track out/plan.json --plant-scene examples/planar_hand/scene.yaml --offset 0.003 0 --friction-scale 1.2 --substeps 2'],
        tests=['cli.optimize_track'],
        kind=NotReproduced("no robot hardware")),
    Row(
        id='T17',
        claim='"Quasi-static Dynamics Needs Regularization": "The quadratic cost is positive semi-definite. The object can be anywhere between the robot and the wall, similar to having a null space"; regularised: "Among all possible object motions, give me the one that moves the least"',
        ours="the toy with a wall (the disk free in the plane, the wall 0.05 m beyond it), "
             "command 0.04 m: the disk's centre may lie anywhere in "
             "[{talk_slides.null_space_s0_robot_side_m:.4f}, "
             "{talk_slides.null_space_wall_side_m:.4f}] m; with s = 0 (the semi-definite cost) "
             "every point of it is a minimiser and the step returns "
             "{talk_slides.null_space_s0_x_m:.4f} m (the interior point's inner point, moved by "
             "the polish's primal regularisation to the least motion); with "
             "s = 1e-6 the step picks {talk_slides.null_space_s_small_x_m:.5f} m, against the "
             "robot (the least motion); with s = 1 the object's mass resists "
             "({talk_slides.null_space_s1_x_m:.4f} m); the wall's place, u and s not stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json'],
        tests=['python/tests/test_talk_slides.py::test_regularisation_picks_the_least_motion_from_the_null_space'],
        holds=lambda v: v["talk_slides.null_space_s0_robot_side_m"] - 1e-9
        <= v["talk_slides.null_space_s0_x_m"] <= v["talk_slides.null_space_wall_side_m"] + 1e-9
        and abs(v["talk_slides.null_space_s_small_x_m"]
                - v["talk_slides.null_space_s_small_robot_side_m"]) < 1e-3),
    Row(
        id='T18',
        claim='"But impacts can lead to infinite forces (e.g. Painleve\'s Paradox)" (force–acceleration); the time step is impulse–momentum',
        ours="Painlevé's rod (1 m, 1 kg, μ = 1.5 above a uniform rod's 4/3) at 30° sliding on its "
             "end at ±3 m/s, both impulse–momentum formulations (`stewart-trinkle`, `anitescu`): "
             "{talk_slides.painleve_steps_solved} of {talk_slides.painleve_steps} steps of h = "
             "0.01 s solved, the largest normal impulse "
             "{talk_slides.painleve_largest_normal_impulse_Ns:.2f} N·s (finite), the lowest gap of "
             "the end to the ground {talk_slides.painleve_lowest_phi_m:.0e} m; the rod not "
             "stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json'],
        tests=['python/tests/test_talk_slides.py::test_painleves_rod_solves_every_impulse_momentum_step', 'SecondOrderModel.APainleveRodReturnsAStatus'],
        holds=lambda v: v["talk_slides.painleve_steps_solved"] == v["talk_slides.painleve_steps"]
        and math.isfinite(v["talk_slides.painleve_largest_normal_impulse_Ns"])
        and v["talk_slides.painleve_lowest_phi_m"] >= -1e-9),
    Row(
        id='T19',
        claim='"Smoothing, the general case": the SOCP\'s cone constraints "in a generalized log" − (1/κ) Σ log[(φ_i + J_n δq)²/μ² − ‖J_t δq‖²]: "An unconstrained convex program. Can be solved with Newton\'s method. Also differentiable."',
        ours="`log-barrier-cone` on the 3D hand (16 joints, the ball on the palm, "
             "{talk_slides.cone_barrier_contacts} contact pairs), one step: Newton's method in "
             "{talk_slides.cone_barrier_k1e2_newton_iterations} / "
             "{talk_slides.cone_barrier_k1e4_newton_iterations} / "
             "{talk_slides.cone_barrier_k1e6_newton_iterations} iterations at κ = 10² / 10⁴ / "
             "10⁶, {talk_slides.cone_barrier_k1e2_distance_to_socp:.1e} / "
             "{talk_slides.cone_barrier_k1e4_distance_to_socp:.1e} / "
             "{talk_slides.cone_barrier_k1e6_distance_to_socp:.1e} from the SOCP's q⁺; its B by "
             "implicit differentiation against central differences: "
             "{talk_slides.cone_barrier_k1e2_B_max_difference:.0e} / "
             "{talk_slides.cone_barrier_k1e4_B_max_difference:.0e} / "
             "{talk_slides.cone_barrier_k1e6_B_max_difference:.0e}; κ and the command not "
             "stated; ours",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json'],
        tests=['python/tests/test_talk_slides.py::test_the_cone_barrier_approaches_the_socp_and_its_b_is_exact'],
        holds=lambda v: v["talk_slides.cone_barrier_k1e2_distance_to_socp"]
        > v["talk_slides.cone_barrier_k1e4_distance_to_socp"]
        > v["talk_slides.cone_barrier_k1e6_distance_to_socp"]
        and all(v[f"talk_slides.cone_barrier_{k}_B_max_difference"]
                <= 1e-6 * v[f"talk_slides.cone_barrier_{k}_B_max"]
                for k in ("k1e2", "k1e4", "k1e6"))),
    Row(
        id='T20',
        claim='"RRT tree for a simple system with contacts" (a figure)',
        ours="the top-down pusher and box, seed 0, 3000-node budget: with the metric and contact "
             "sampling the tree has {rrt_ablation.tree_metric_grasp_nodes} nodes "
             "({rrt_ablation.tree_metric_grasp_regrasps} regrasps), spans "
             "{rrt_ablation.tree_metric_grasp_x_span_m:.3f} m in x and "
             "{rrt_ablation.tree_metric_grasp_theta_span_rad:.2f} rad in θ and reaches goal "
             "distance {rrt_ablation.tree_metric_grasp_best_goal_distance:.3f}; the Euclidean "
             "tree without sampling: {rrt_ablation.tree_euclidean_nodes} nodes, "
             "{rrt_ablation.tree_euclidean_x_span_m:.3f} m, "
             "{rrt_ablation.tree_euclidean_theta_span_rad:.2f} rad, best "
             "{rrt_ablation.tree_euclidean_best_goal_distance:.3f}; drawn by plot_rrt_ablation.py; "
             "holds: the first tree reaches the goal, the second does not (the slide's tree has "
             "no numbers)",
        commands=['build/release/rrt_study_bench --ablation --seeds 20 --out out/rrt_study', '/usr/bin/python3 scripts/plot_rrt_ablation.py out/rrt_study out/ablation.png'],
        tests=['figures.rrt_ablation'],
        kind=Substitute("the slide's system is not named; ours is the top-down pusher and box"),
        holds=lambda v: v["rrt_ablation.tree_metric_grasp_found"] == 1
        and v["rrt_ablation.tree_euclidean_found"] == 0),
    Row(
        id='T21',
        claim='"Contact-rich planning and control can enable both bimanual whole-arm manipulation and dexterous manipulation"',
        ours="planning (no control here): the bimanual box (two arms turn a box by π/2) found on "
             "{plan_bimanual.found} of {plan_bimanual.seeds} seeds within "
             "{plan_bimanual.max_nodes_limit} nodes, the 3D hand (turn the ball by π) on "
             "{plan_hand_3d.found} of {plan_hand_3d.seeds}; deepest overlap of the found paths "
             "{plan_bimanual.max_penetration_found_mm:.2f} and "
             "{plan_hand_3d.max_penetration_found_mm:.2f} mm; holds: a plan found in each task "
             "(ours)",
        commands=['build/release/plan_3d_bench examples/bimanual_box/scene.yaml --seeds 10 --max-nodes 10000 --time-limit 1000 --json out/bimanual.json', 'build/release/plan_3d_bench examples/hand_ball_3d/scene.yaml --seeds 10 --max-nodes 10000 --time-limit 1000 --json out/hand.json'],
        tests=['PlansExamples.FindsAPathThatReplays'],
        kind=Substitute("our scenes examples/bimanual_box and examples/hand_ball_3d, planned "
                        "only; the talk's are its own arms and hand, planned and run"),
        holds=lambda v: v["plan_bimanual.found"] > 0 and v["plan_hand_3d.found"] > 0),
    Row(
        id='T22',
        claim='"Turning the ball by 30 degrees: open-loop" (no disturbance; a video, no numbers)',
        ours="the plan of T8 sent unchanged to our quasi-dynamic plant at h/2 (`qp`, the same "
             "scene), no disturbance: the ball turns by {talk_turn.open_qp_h2_turn_rad:.3f} rad "
             "against the plan's {talk_turn.plan_turn_rad:.3f} rad (angle error "
             "{talk_turn.open_qp_h2_angle_error_rad:.3f} rad, position "
             "{talk_turn.open_qp_h2_position_error_m:.4f} m); the plant's h not stated; ours; "
             "holds: the error below half the plan's turn (ours)",
        commands=['bash scripts/talk_turn.sh build/release out/talk_turn', 'build/release/quasidyn track out/plan.json --plant-scene examples/planar_hand/scene.yaml --open-loop --substeps 2'],
        tests=['cli.optimize_track'],
        kind=Substitute("our quasi-dynamic plant at h/2, not Drake's"),
        holds=lambda v: v["talk_turn.open_qp_h2_angle_error_rad"]
        < 0.5 * abs(v["talk_turn.plan_turn_rad"])),
]

ROWS.append(
    Row(
        id='T23',
        claim='"How does RL power through non-smooth contact dynamics? … Sampling has a smoothing effect … Taking a page from RL\'s book, we smooth contact dynamics, but without using samples (faster)" (speed)',
        ours="the planar hand in contact (bench_scenes.h), one thread, median CPU time: the "
             "log-barrier smoothed step and its B {smoothing_cost.barrier_step_us:.2f} + "
             "{smoothing_cost.barrier_B_us:.2f} µs; one sample of randomized smoothing (an exact "
             "step and its B) {smoothing_cost.exact_step_us:.2f} + "
             "{smoothing_cost.exact_B_us:.2f} µs, so the barrier costs "
             "{smoothing_cost.break_even_samples:.2f} samples' worth, and a randomized estimate "
             "of N samples N times the sample; holds: under 2 samples, the fewest an estimate "
             "with a spread takes (ours: the talk gives no time); κ not stated; ours",
        commands=["build/release/gradient_cost_bench --benchmark_filter='^BM_(Calc|CalcDiff)/planar_hand_(qp|log_barrier)(_B_only)?$' --benchmark_format=json --benchmark_repetitions=5 --benchmark_report_aggregates_only=true"],
        tests=['python/tests/test_toy_1d.py::test_log_barrier_step_and_gradient_equal_the_closed_form'],
        holds=lambda v: v["smoothing_cost.break_even_samples"] < 2.0))

ROWS.append(
    Row(
        id='T24',
        claim='"Quasi-static dynamical systems: how to fix it": with u the position command to impedance-controlled robots, "Contact force and q₊ can now be uniquely* determined from u, even for grasping" (with velocity commands they "cannot be uniquely determined")',
        ours="the gripper squeezing the sphere (Pang & Tedrake 2021, Fig. 2), commands to t = "
             "{talk_slides.grasp_qp_t_s:g} s: the left finger {talk_slides.grasp_qp_stretch_m:.4f} "
             "m from its command, its normal force {talk_slides.grasp_qp_normal_force_N:.3f} N "
             "(`qp`) and {talk_slides.grasp_socp_normal_force_N:.3f} N (`socp`), K·|x_l − x̄_l| "
             "with K = {talk_slides.grasp_K_N_per_m:g} N/m: the spring fixes the force; velocity "
             "commands (the slide's ill-posed case) are not a formulation of ours; unique: "
             "with s > 0 the program is strictly convex (T17)",
        commands=['PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py --json out/talk_slides.json', 'build/release/gripper_figures out/gripper.csv'],
        tests=['python/tests/test_talk_slides.py::test_the_grasps_force_is_the_springs', 'PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        holds=lambda v: all(
            v[f"talk_slides.grasp_{f}_normal_force_N"] > 0.0
            and abs(v[f"talk_slides.grasp_{f}_normal_force_N"] - v["talk_slides.grasp_K_N_per_m"]
                    * abs(v[f"talk_slides.grasp_{f}_stretch_m"]))
            <= 1e-9 * v[f"talk_slides.grasp_{f}_normal_force_N"] for f in ("qp", "socp"))))

PAPER = Paper(key='Pang 2022 (talk)', title='Pang 2022, "Planning and Control for Contact-rich Manipulation" (talk, Oct. 2022)', intro="The talk's slides carry few numbers; its toy and tasks are `examples/toy_1d` (docs/toy_1d.md)\nand `examples/planar_hand` (docs/planning.md, docs/control.md). Where a statement has no number,\nthe threshold that decides it is ours and the row says so.", rows=ROWS)
