"""The 2D frictional contact model and MPC notes: the rows of docs/reproductions.md (issue 67)."""

from repro.framework import Paper, Row, Substitute
from repro.papers.notes_sources import BONMIN_LIMIT_S, MIQP_BENCH
from repro.papers.notes_sources import SOURCES  # noqa: F401 (read here by repro/registry.py)

ROWS = [
    Row(
        id='N1',
        claim='§1, eqs. (1)–(5): the Stewart–Trinkle / Anitescu–Potra time step with a polyhedral cone, "D(q) only has two columns" in 2D',
        ours="the `{point_robot_scene.formulation}` formulation with n_d = "
             "{point_robot_scene.friction_rays} friction rays in the plane; the MIQP's solutions "
             "satisfy the notes' (7) and complementarity (8) (the test)",
        commands=['build/release/quasidyn info --json examples/point_robot_walls/scene.yaml'],
        tests=['MpcMiqpTest.SolutionFollowsTheNotesDynamicsAndComplementarity'],
        holds=lambda v: v["point_robot_scene.friction_rays"] == 2
        and v["point_robot_scene.formulation"] == "stewart-trinkle"),
    Row(
        id='N2',
        claim='Fig. 1: "2D robot model with friction", two prismatic joints and three contact surfaces, "the potential energy and Coriolis force are both zero"',
        ours="a point robot on n_q = {point_robot_scene.nq} prismatic joints "
             "({point_robot_scene.nq_a} actuated) between {point_robot_scene.walls} walls "
             "(the centre's x ∈ [{point_robot_scene.x_min:g}, {point_robot_scene.x_max:g}] m, "
             "y ≥ {point_robot_scene.y_min:g} m); {point_robot_scene.nq_u} un-actuated "
             "coordinates: gravity acts on objects only, the robot is gravity-compensated "
             "(control/mpc_linear_model.h), so no potential, and prismatic joints have no "
             "Coriolis term; not "
             "stated; ours: the walls' positions, μ = {point_robot_scene.mu_min:g}, the tip's "
             "mass {point_robot_scene.tip_mass_kg:g} kg",
        commands=['build/release/quasidyn info --json examples/point_robot_walls/scene.yaml'],
        tests=['ContactMpcTest.LinearModelOfTheExampleHasTheThreeWalls'],
        holds=lambda v: v["point_robot_scene.walls"] == 3 and v["point_robot_scene.nq"] == 2
        and v["point_robot_scene.nq_u"] == 0),
    Row(
        id='N3',
        claim='§2, eq. (11): "We use big M method", one M for every complementarity pair',
        ours="the notes' single M (not stated; ours: `--big-m 1000`) and our default, an M per "
             "pair and step derived from the state and force bounds, give the same closed loop: "
             "N = 5, 60 steps, J* first {mpc_single_m.J_first:.4f} / "
             "{mpc_derived_m.J_first:.4f}, last {mpc_single_m.J_last:.4f} / "
             "{mpc_derived_m.J_last:.4f}, Σ J* {mpc_single_m.J_sum:.2f} / "
             "{mpc_derived_m.J_sum:.2f} (single / derived), {mpc_single_m.optimal} and "
             "{mpc_derived_m.optimal} of 60 solves optimal",
        commands=['build/release/quasidyn mpc examples/point_robot_walls/scene.yaml --horizon 5 --steps 60 --big-m 1000 --csv out/steps.csv',
                  'build/release/quasidyn mpc examples/point_robot_walls/scene.yaml --horizon 5 --steps 60 --csv out/steps.csv'],
        tests=['MpcMiqpTest.DerivedBigMDoesNotCutOffTheOptimum'],
        # Equal within the solver's relative gap tolerance (1e-4 by default).
        holds=lambda v: v["mpc_single_m.optimal"] == 60 and v["mpc_derived_m.optimal"] == 60
        and abs(v["mpc_single_m.J_sum"] - v["mpc_derived_m.J_sum"])
        <= 1e-4 * v["mpc_derived_m.J_sum"]),
    Row(
        id='N4',
        claim='§2: "we keep the states as part of decision variables" (sparser, faster than condensing)',
        ours="the states are kept: the MIQP of N = 5 has {miqp_bench.n5_variables} variables, "
             "per step the state x_k+1 ({point_robot_scene.n_x}), the force "
             "({point_robot_scene.nq_a}) and γ, w, z (3 × {point_robot_scene.n_gamma}), and "
             "{miqp_bench.n5_equalities} equality rows (per step the dynamics, "
             "{point_robot_scene.n_x}, each touching two consecutive steps, and the "
             "{point_robot_scene.n_gamma} definitions of w); N = 20: "
             "{miqp_bench.n20_variables} and {miqp_bench.n20_equalities}. The condensed form "
             "is not built, so \"faster\" is not measured",
        commands=[MIQP_BENCH,
                  'build/release/quasidyn info --json examples/point_robot_walls/scene.yaml'],
        tests=['MpcMiqpTest.SolutionFollowsTheNotesDynamicsAndComplementarity'],
        holds=lambda v: all(
            v[f"miqp_bench.n{n}_variables"] == n * (v["point_robot_scene.n_x"]
                                                    + v["point_robot_scene.nq_a"]
                                                    + 3 * v["point_robot_scene.n_gamma"])
            and v[f"miqp_bench.n{n}_equalities"] == n * (v["point_robot_scene.n_x"]
                                                         + v["point_robot_scene.n_gamma"])
            for n in (5, 20))),
    Row(
        id='N5',
        claim='§2: the MIQP (18) is solved "by Gurobi" (no time stated)',
        ours="not stated; ours: our branch and bound. In the closed loop (`mpc_figures`, CPU "
             "time) median {mpc.n5_miqp_median_ms:.2f} ms, slowest step "
             "{mpc.n5_miqp_max_ms:.1f} ms (N = 5), {mpc.n20_miqp_median_ms:.2f} ms and "
             "{mpc.n20_miqp_max_ms:.0f} ms (N = 20). Side by side with Bonmin (B-OA, bare, "
             "same gap tolerances, CPU time; every 6th problem of the current scene's loop, "
             "alternately): N = 5, {miqp_bench.n5_problems} problems, ours bare median "
             "{miqp_bench.n5_ours_bare_median_ms:.2f} ms, Bonmin "
             "{miqp_bench.n5_bonmin_median_ms:.1f} ms: {miqp_bench.n5_ratio_bare:.0f}× "
             "({miqp_bench.n5_ratio_loop:.0f}× against ours in the loop); N = 20, ours bare "
             "{miqp_bench.n20_ours_bare_median_ms:.1f} ms, Bonmin "
             "{miqp_bench.n20_bonmin_median_ms:.0f} ms ({miqp_bench.n20_bonmin_unproven} of "
             "{miqp_bench.n20_problems} not proven optimal within Bonmin's " + str(BONMIN_LIMIT_S)
             + " s budget, which "
             "counts at the budget: a lower bound): {miqp_bench.n20_ratio_bare:.1f}× "
             "({miqp_bench.n20_ratio_loop:.0f}× in the loop); objectives equal to "
             "{miqp_bench.n5_objective_difference:.1e} / "
             "{miqp_bench.n20_objective_difference:.1e} relative. Gurobi: not available, not a "
             "ratio",
        commands=['build/release/mpc_figures out/mpc',
                  MIQP_BENCH],
        tests=['MpcMiqpTest.MatchesBonminOnTheNotesExample'],
        kind=Substitute("the notes name Gurobi and state no time; ours is timed beside Bonmin, "
                        "another MIQP solver, on the same problems"),
        verdict="holds"),
    Row(
        id='N6',
        claim='§3: "Q = Q_f = I, R = 10I for N = 5 and N = 20"; "move from (−2, −4) to (3, −5) which actually cannot be reached"',
        ours="Q = {point_robot_scene.Q}, Q_f = {point_robot_scene.Q_f}, R = "
             "{point_robot_scene.R}; start ({point_robot_scene.start_x:g}, "
             "{point_robot_scene.start_y:g}), target ({point_robot_scene.target_x:g}, "
             "{point_robot_scene.target_y:g}) beyond the right wall (x ≤ "
             "{point_robot_scene.x_max:g} m): out of reach",
        commands=['build/release/quasidyn info --json examples/point_robot_walls/scene.yaml', 'build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        holds=lambda v: v["point_robot_scene.Q_is_I"] and v["point_robot_scene.Q_f_is_I"]
        and v["point_robot_scene.R_is_10I"]
        and (v["point_robot_scene.start_x"], v["point_robot_scene.start_y"]) == (-2, -4)
        and (v["point_robot_scene.target_x"], v["point_robot_scene.target_y"]) == (3, -5)
        and v["point_robot_scene.target_x"] > v["point_robot_scene.x_max"]),
    Row(
        id='N7',
        claim='Fig. 2: "contact and friction force for N = 5"',
        ours="contact from t = {mpc.n5_first_contact_s:.1f} s on the {mpc.n5_contact_walls} "
             "({mpc.n5_contact_steps} steps): peak normal force {mpc.n5_peak_normal_N:.3f} N, "
             "peak friction {mpc.n5_peak_friction_N:.4f} N against μ c_n = {mpc.mu:g} × "
             "{mpc.n5_normal_at_peak_friction_N:.3f} = {mpc.n5_cone_edge_N:.3f} N "
             "({mpc.n5_friction_state}), "
             "impulses {mpc.n5_normal_impulse_Ns:.4f} / {mpc.n5_friction_impulse_Ns:.4f} N·s "
             "(normal / friction); the notes' figure gives no numbers",
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        holds=lambda v: v["mpc.n5_peak_normal_N"] > 0 and v["mpc.n5_peak_friction_N"] > 0),
    Row(
        id='N8',
        claim='Fig. 3: "contact and friction force for N = 20"',
        ours="contact from t = {mpc.n20_first_contact_s:.1f} s on the {mpc.n20_contact_walls} "
             "({mpc.n20_contact_steps} step): peak normal force {mpc.n20_peak_normal_N:.3f} N, "
             "peak friction {mpc.n20_peak_friction_N:.3f} N against μ c_n = {mpc.mu:g} × "
             "{mpc.n20_normal_at_peak_friction_N:.3f} = {mpc.n20_cone_edge_N:.3f} N "
             "({mpc.n20_friction_state}), impulses "
             "{mpc.n20_normal_impulse_Ns:.4f} / {mpc.n20_friction_impulse_Ns:.4f} N·s: the "
             "forces are spikes at the impact, which friction brakes",
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        holds=lambda v: v["mpc.n20_peak_normal_N"] > 0 and v["mpc.n20_peak_friction_N"] > 0),
    Row(
        id='N9',
        claim='Fig. 4: "optimal cost for N = 5 and N = 20"; "the optimal cost is less than the shorter horizon after a few steps"',
        ours="J* of N = 20 stays {mpc.J_ratio_min:.2f} (step "
             "{mpc.J_ratio_min_step}) to {mpc.J_ratio_max:.2f} times N = 5's ({mpc.J_ratio_last:.2f} "
             "at the last step; each J* sums N + 1 terms, the target being out of reach); "
             "J*/N of N = 20 is below N = 5's from step {mpc.J_per_step_below_from} on, and the "
             "realised closed-loop cost is lower ({mpc.n20_realised_cost:.0f} against "
             "{mpc.n5_realised_cost:.0f}), its stage cost below N = 5's from step "
             "{mpc.stage_below_from} on",
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        holds=lambda v: v["mpc.J_below_for_good_step"] > 0),
    Row(
        id='N10',
        claim='§3: "the longer horizon will make more use of the friction"',
        ours="friction impulse {mpc.n20_friction_impulse_Ns:.4f} N·s (N = 20) against "
             "{mpc.n5_friction_impulse_Ns:.4f} N·s (N = 5); peak friction "
             "{mpc.n20_peak_friction_N:.3f} against {mpc.n5_peak_friction_N:.4f} N",
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc', 'ContactMpcTest.ClosedLoopReachesTheWallNearestTheTargetAndStaysOnIt'],
        holds=lambda v: v["mpc.n20_friction_impulse_Ns"] > v["mpc.n5_friction_impulse_Ns"]),
]

PAPER = Paper(key='2D contact and MPC notes', title='The 2D frictional contact model and MPC notes', intro="Scene: `examples/point_robot_walls` (docs/mpc.md), with the right wall moved to x = −1.45 m so that\nboth horizons reach it within the figures' 6 s.", rows=ROWS)
