"""Pang & Tedrake 2021, "A Convex Quasistatic Time-stepping Scheme for Rigid Multibody Systems with Contact and Friction" (ICRA): the rows of docs/reproductions.md (issue 67)."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

from repro import csv_table


def _gripper(run):
    rows = csv_table.read_rows(run.path("gripper.csv"))
    values = {}
    for formulation in ("lcp", "qp"):
        at_squeeze = csv_table.at(rows, formulation=formulation, t=0.08)
        values[f"{formulation}_stretch_at_squeeze_m"] = at_squeeze["x_l"] - at_squeeze["x_l_commanded"]
        values[f"{formulation}_c_n1_at_squeeze_N"] = at_squeeze["c_n1"]
    return values


SOURCES = [
    Source(name="gripper", argv=["{build}/gripper_figures", "{out}/gripper.csv"],
           extract=_gripper, shown="build/release/gripper_figures out/gripper.csv"),
]

ROWS = [
    Row(
        id='PT1',
        claim='Fig. 1: "KUKA IIWA robot stacking cubes. The red cube starts off on the ground (a) and is placed on a stack of cubes (b)."',
        ours="a 7-joint arm with a parallel gripper (9 actuated joints) carries the red cube from the ground onto `stack_top`: at h = 0.01 s (qp) 1040 of 1040 steps solved, the cube ends at (0.550, −0.350, 0.280) m, 0.080 m (one cube) above stack_top's centre, upright",
        commands=['build/release/quasidyn simulate examples/arm_cubes/scene.yaml --formulation qp --out out/arm.json'],
        tests=['PaperArmTest.EveryStepPlacesTheCubeAndTheIntegralErrorStaysFlat'],
        legacy=True),
    Row(
        id='PT2',
        claim='§V-B: "10 cubes, 69 DOFs"',
        ours='10 cubes, n_v = 69 (60 of the cubes, 9 of the arm and gripper); n_q = 79 (quaternions)',
        commands=['build/release/quasidyn info examples/arm_cubes/scene.yaml'],
        tests=['cli.info', 'ExamplesTest.ArmCubesHasSixtyNineVelocities'],
        legacy=True),
    Row(
        id='PT3',
        claim='§V-B: "56 contacts on average"',
        ours="47.6 contacts per step on average over the run (the trajectory file's `contacts`; 40 at q0, at most 53, `max contacts` of the summary), 52 at the grasp (`step_bench`'s `contacts`); contact tolerance not stated; ours: ε = 0.01 m",
        commands=['build/release/quasidyn simulate examples/arm_cubes/scene.yaml --formulation qp --out out/arm.json', 'build/release/step_bench --benchmark_filter=BM_Calc/arm_cubes_qp'],
        tests=['PaperArmTest.EveryStepPlacesTheCubeAndTheIntegralErrorStaysFlat'],
        legacy=True),
    Row(
        id='PT4',
        claim='§V-B, speed: "the mean time of solving QP (10) is 3.56ms on a Mac mini with Intel i7-8700B CPU and 64GB of RAM" (Gurobi)',
        ours='our interior-point QP at the grasp (52 contacts): median 191 µs CPU (290 µs wall) per solve, the whole step 224 µs CPU (337 µs wall), 10 iterations; other machine, not a ratio',
        commands=['build/release/step_bench --benchmark_filter=Part_SolveQp --benchmark_repetitions=5 --benchmark_report_aggregates_only=true', 'build/release/step_bench --benchmark_filter=arm_cubes_qp --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['PaperArmTest.EveryStepPlacesTheCubeAndTheIntegralErrorStaysFlat'],
        legacy=True),
    Row(
        id='PT5',
        claim='§V-B: Drake\'s MathematicalProgram builds QP (10), "which is then solved with GUROBI"',
        ours="our own interior-point QP (solvers/qp.h); 7 random QPs (n = 2 … 69) and 5 SOCPs agree with cvxopt: 12/12, the largest difference 4.9e-8 on the QPs, each within its bound from the two solvers' residuals",
        commands=['build/release/dump_solver_problems out/problems.json', '/usr/bin/python3 tests/reference/cvxopt_reference.py out/problems.json'],
        tests=['reference.cvxopt'],
        legacy=True),
    Row(
        id='PT6',
        claim='Abstract, §V-B: the scheme "scales well with the complexity of the simulated systems"; "QP (10) scales well with the number of DOFs and contacts" (no numbers)',
        ours='not stated; ours, one QP step of a pile of N planar spheres (n_v = 3N), median CPU time: N = 100 (193 contacts) 1.47 ms, 300 (583) 8.30 ms, 1000 (1968) 64.6 ms, about N^1.6; heap 24.8, 17.7, 17.8 KB per sphere (linear in N)',
        commands=['build/release/large_scene_bench --benchmark_filter=qp/ --benchmark_repetitions=3 --benchmark_report_aggregates_only=true'],
        tests=['LargeSceneMemoryTest.HeapOfOneStepIsLinearInTheObjectCount'],
        legacy=True),
    Row(
        id='PT7',
        claim='Fig. 2a: q_a = [x_l, x_r, y], q_u = [x_c, y_c], "r = 0.1m"',
        ours='q_a = (y, x_left, x_right), q_u = (x, y, θ) (the sphere on a planar joint: its rotation too), r = 0.1 m',
        commands=['build/release/quasidyn info examples/planar_gripper/scene.yaml'],
        tests=['PaperGripperTest.*'],
        legacy=True),
    Row(
        id='PT8',
        claim='Fig. 2b: "A grasping command violating the non-penetration constraint" of the LCP (1) with prescribed positions',
        ours='not reproduced: formulation (1), positions prescribed, is not one of ours; the same squeeze under the impedance models (6) and (10) has unique forces, c_n1 = K(x_l − x̄_l) = 10 N',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        legacy=True),
    Row(
        id='PT9',
        claim='Fig. 3, eq. (3): the spring force k(x_l − x̄_l) balances the contact force f_n1',
        ours='at t = 0.08 s: x_l − x̄_l = {gripper.lcp_stretch_at_squeeze_m:.4f} m (LCP), '
             '{gripper.qp_stretch_at_squeeze_m:.4f} m (QP); c_n1 = {gripper.lcp_c_n1_at_squeeze_N:.1f} N '
             '(LCP), {gripper.qp_c_n1_at_squeeze_N:.1f} N (QP), against K·|x_l − x̄_l| with K = 1000 N/m',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        holds=lambda v: all(abs(v[f"gripper.{f}_c_n1_at_squeeze_N"]
                                - 1000.0 * abs(v[f"gripper.{f}_stretch_at_squeeze_m"]))
                            <= 1e-6 * v[f"gripper.{f}_c_n1_at_squeeze_N"] for f in ("lcp", "qp"))),
    Row(
        id='PT10',
        claim='Fig. 4 / §IV-A: in sliding under Anitescu\'s constraints "the body slides in a \'boundary layer\'": φ_i > 0',
        ours="the QP's φ_1 = h·μ·|v_slide| = 0.01 s · 0.5 · 0.2 m/s = 1.0 mm while the fingers slide; the LCP's φ_1 = 0",
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.QpOpensBoundaryLayerWhileSlidingAndClosesItAfter'],
        legacy=True),
    Row(
        id='PT11',
        claim='§V-A: "h is set to 0.01s; the weight of the sphere is 10N; the stiffness for all actuated DOFs is 1000N/m and a friction coefficient of 0.5"',
        ours='h = 0.01 s, mass 1.0194 kg (10 N at g = 9.81 m/s²), K = 1000 N/m on the three joints, μ = 0.5 on every shape',
        commands=['build/release/quasidyn info examples/planar_gripper/scene.yaml'],
        tests=['PaperGripperTest.*'],
        legacy=True),
    Row(
        id='PT12',
        claim='§V-A, Fig. 5: "the grippers start 0.006m away from the surface of the sphere … touching the sphere at t = 0.03 s"',
        ours='φ_1 = 0.006 m at q0; φ_1 = 0 at t = 0.03 s, c_n1 > 0 from t = 0.04 s',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        legacy=True),
    Row(
        id='PT13',
        claim='§V-A, Fig. 6: squeeze "until t = 0.08 s. Accordingly, c_n1 grows from 0N to 10N, while φ_1 stays at 0", by both the LCP (6) and the QP (10)',
        ours='c_n1 = 2, 4, … 10 N at t = 0.04 … 0.08 s, φ_1 = 0, LCP and QP alike',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.*'],
        legacy=True),
    Row(
        id='PT14',
        claim='Fig. 5: "rolling to sliding at t = 0.13 s"',
        ours='c_f1 reaches μ·c_n1 = 5 N at t = 0.13 s; the fingers slide from the next step (y = 0.100 m at 0.13 s, 0.098 m at 0.14 s)',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        legacy=True),
    Row(
        id='PT15',
        claim='§V-A, Fig. 6a: "In the LCP simulation, c_n1, c_f1 and ϕ_1 remain constant despite the contact mode transition"',
        ours='LCP: c_n1 = 10 N, c_f1 = −5 N, φ_1 = 0 at every step from 0.13 to 0.35 s',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.LcpSqueezesSlidesAndSticksWithoutBoundaryLayer'],
        legacy=True),
    Row(
        id='PT16',
        claim='§V-A, Fig. 6b: "In the QP simulation … a small increase in ϕ_1 is observed"',
        ours='QP: φ_1 = 0.67 mm at t = 0.14 s, 1.0 mm from 0.20 to 0.24 s; c_n1 = K(0.01 m + φ_1) = 11.0 N while sliding',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.QpOpensBoundaryLayerWhileSlidingAndClosesItAfter'],
        legacy=True),
    Row(
        id='PT17',
        claim='§V-A: "c_n3 grows with the friction c_f1 in order to keep the sphere in force balance"',
        ours='c_n3 = 10 N before the pull, 20 N (LCP) and 21 N (QP) while sliding',
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.*'],
        legacy=True),
    Row(
        id='PT18',
        claim='§V-A: "The downward commands stop at t = 0.24 s" (Fig. 5\'s caption: "sliding to rolling at t = 0.23 s"); the QP\'s boundary layer "dissipates as sliding stops", the LCP\'s values stay',
        ours="the command stops at t = 0.24 s; LCP unchanged; the QP's φ_1 = 1.0 mm at 0.24 s, 0.33 mm at 0.25 s, 1 µm at 0.30 s, 0 at 0.35 s",
        commands=['build/release/gripper_figures out/gripper.csv'],
        tests=['PaperGripperTest.QpOpensBoundaryLayerWhileSlidingAndClosesItAfter'],
        legacy=True),
    Row(
        id='PT19',
        claim='§V-B, eq. (13): the ground truth "is generated with Drake\'s MBP using a time step h = 5 × 10^-5 s"',
        ours="our second-order `anitescu` step (Anitescu's relaxation, impedance robots, critical damping) at h = 5e-5 s: 232,000 steps in 59.5–68.2 s, cached in the output folder; `stewart-trinkle` at the same h agrees with it to E = 0.0008 m·s (at most 1.0 mm) but takes 30 min",
        commands=['build/release/timestep_study --out out'],
        tests=['PaperArmTest.AgainstASecondOrderTruthTheQpIsFlatAndTheSecondOrderStepFirstOrder', 'figures.paper'],
        legacy=True),
    Row(
        id='PT20',
        claim='Fig. 7: "the total integral error of MBP … starts to explode right after h = 0.001 s"',
        ours="does not hold for our second-order steps: anitescu's E grows first-order in h without failing, 0.0004 (h = 0.001), 0.0038 (0.01), 0.0363 (0.1), 0.1569 m·s (0.4; the cube tips 21° at the release, ends on the stack 36.5 mm off); stewart-trinkle fails steps from h = 0.05 s and throws the cube at 0.4 s (E = 1.74 m·s). Both treat the arm's springs implicitly; explicit springs would be stable only below h = 7.0 ms on this arm",
        commands=['build/release/timestep_study --out out'],
        tests=['PaperArmTest.AgainstASecondOrderTruthTheQpIsFlatAndTheSecondOrderStepFirstOrder'],
        legacy=True),
    Row(
        id='PT21',
        claim='Fig. 7: "the total integral error of the proposed quasistatic scheme remains flat even for h = 0.4 s"',
        ours="holds: the QP's E against the anitescu truth is 0.0702 (h = 0.001), 0.0708 (0.01), 0.0857 (0.1), 0.1723 m·s (0.4), a floor of 0.070 m·s (2.3 % of the motion) set by the models' difference (the second-order arm lags its command under critical damping; 0.0205 m·s at damping ratio 0.25)",
        commands=['build/release/timestep_study --out out'],
        tests=['PaperArmTest.EveryStepPlacesTheCubeAndTheIntegralErrorStaysFlat', 'PaperArmTest.AgainstASecondOrderTruthTheQpIsFlatAndTheSecondOrderStepFirstOrder'],
        legacy=True),
    Row(
        id='PT22',
        claim='Fig. 8: "the translational trajectories are almost identical to the ground truth despite the increase in h"',
        ours="the QP's x, y, z follow the second-order truth within 11.7 mm (lift) and 8.5 mm (swing) at every h up to 0.4 s; the cube is placed on the stack at every h",
        commands=['build/release/timestep_study --out out', '/usr/bin/python3 examples/arm_cubes/plot_timestep_study.py out/timestep_errors.csv out/timestep_trajectories.csv out/timestep.png'],
        tests=['figures.paper'],
        legacy=True),
    Row(
        id='PT23',
        claim='Fig. 8: "The ground-truth angle of the cube is different by some 0.8 degrees … from t = 2.5 s to 6s"',
        ours="the second-order truth tilts the cube by about 1° in the grasp against the QP's 0.2°",
        commands=['build/release/timestep_study --out out'],
        tests=['figures.paper'],
        legacy=True),
]

PAPER = Paper(key='Pang & Tedrake 2021', title='Pang & Tedrake 2021, "A Convex Quasistatic Time-stepping Scheme for Rigid Multibody Systems with Contact and Friction" (ICRA)', intro='Scenes: `examples/planar_gripper` (§V-A), `examples/arm_cubes` (§V-B); docs/formulations.md,\n"Reproducing the paper\'s §V".', rows=ROWS)
