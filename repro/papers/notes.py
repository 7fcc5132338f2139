"""The 2D frictional contact model and MPC notes: the rows of docs/reproductions.md (issue 67)."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

SOURCES = []

ROWS = [
    Row(
        id='N1',
        claim='§1, eqs. (1)–(5): the Stewart–Trinkle / Anitescu–Potra time step with a polyhedral cone, "D(q) only has two columns" in 2D',
        ours="the `stewart-trinkle` formulation, n_d = 2 rays in the plane; the MIQP's solutions satisfy the notes' (7) and complementarity (8)",
        commands=['build/release/quasidyn info examples/point_robot_walls/scene.yaml'],
        tests=['MpcMiqpTest.SolutionFollowsTheNotesDynamicsAndComplementarity'],
        legacy=True),
    Row(
        id='N2',
        claim='Fig. 1: "2D robot model with friction", two prismatic joints and three contact surfaces, "the potential energy and Coriolis force are both zero"',
        ours="a 1 kg point robot on two prismatic joints between three walls (left x ≥ −5, floor y ≥ −6, right x ≤ −1.45 for the robot's centre), μ = 0.5; not stated; ours: the walls' positions, μ, the mass",
        commands=['build/release/quasidyn info examples/point_robot_walls/scene.yaml'],
        tests=['ContactMpcTest.LinearModelOfTheExampleHasTheThreeWalls'],
        legacy=True),
    Row(
        id='N3',
        claim='§2, eq. (11): "We use big M method", one M for every complementarity pair',
        ours="an M per pair and step derived from the state and force bounds (`mpc.big_m.value` sets the notes' single M); the derived M give the optimum of a 10× larger one",
        commands=['build/release/quasidyn mpc examples/point_robot_walls/scene.yaml --horizon 5 --steps 10'],
        tests=['MpcMiqpTest.DerivedBigMDoesNotCutOffTheOptimum'],
        legacy=True),
    Row(
        id='N4',
        claim='§2: "we keep the states as part of decision variables" (sparser, faster than condensing)',
        ours='the states are kept (every row touches two consecutive steps)',
        commands=['build/release/quasidyn mpc examples/point_robot_walls/scene.yaml --horizon 20 --steps 10'],
        tests=['MpcMiqpTest.SolutionFollowsTheNotesDynamicsAndComplementarity'],
        legacy=True),
    Row(
        id='N5',
        claim='§2: the MIQP (18) is solved "by Gurobi" (no time stated)',
        ours="not stated; ours: our branch and bound, measured on the previous scene (right wall at x = 2): N = 5 median 0.35 ms bare against Bonmin's 25.5 ms (72.8×), N = 20 451 ms against 4476 ms (9.9×, a lower bound); on the current scene the MIQP in the loop takes median 1.1 ms (N = 5) and 8.5–12.9 ms (N = 20), max 12.6 s",
        commands=['build/release/miqp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['MpcMiqpTest.MatchesBonminOnTheNotesExample'],
        legacy=True),
    Row(
        id='N6',
        claim='§3: "Q = Q_f = I, R = 10I for N = 5 and N = 20"; "move from (−2, −4) to (3, −5) which actually cannot be reached"',
        ours='the stated start, target, Q, Q_f, R and horizons; (3, −5) lies beyond the right wall (x ≤ −1.45), out of reach',
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        legacy=True),
    Row(
        id='N7',
        claim='Fig. 2: "contact and friction force for N = 5"',
        ours='contact from 4.1 s on the right wall: peak normal force 1.20 N, peak friction 0.60 N (= μ c_n, sliding), impulses 0.226 / 0.060 N·s',
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        legacy=True),
    Row(
        id='N8',
        claim='Fig. 3: "contact and friction force for N = 20"',
        ours='contact from 1.8 s on the right wall: peak normal force 4.23 N, peak friction 1.70 N (sticking, below μ c_n = 2.11), impulses 0.423 / 0.170 N·s; the forces are spikes at the impact (braking by friction costs 4× more than by the motor at μ = 0.5)',
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        legacy=True),
    Row(
        id='N9',
        claim='Fig. 4: "optimal cost for N = 5 and N = 20"; "the optimal cost is less than the shorter horizon after a few steps"',
        ours="J* of N = 20 does not fall below N = 5's: it stays 2.9–3.4 times it (each J* sums N + 1 terms of at least 19.8, the target being out of reach); J*/N of N = 20 is below N = 5's from step 1, and the realised closed-loop cost is 6 % lower (1291 against 1375), its per-step cost below N = 5's from 0.7 s on",
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc'],
        legacy=True),
    Row(
        id='N10',
        claim='§3: "the longer horizon will make more use of the friction"',
        ours='holds: friction impulse 0.170 N·s (N = 20) against 0.060 N·s (N = 5)',
        commands=['build/release/mpc_figures out/mpc'],
        tests=['figures.mpc', 'ContactMpcTest.ClosedLoopReachesTheWallNearestTheTargetAndStaysOnIt'],
        legacy=True),
]

PAPER = Paper(key='2D contact and MPC notes', title='The 2D frictional contact model and MPC notes', intro="Scene: `examples/point_robot_walls` (docs/mpc.md), with the right wall moved to x = −1.45 m so that\nboth horizons reach it within the figures' 6 s.", rows=ROWS)
