"""Xie & Chakraborty, "Rigid Body Dynamic Simulation with Line and Surface Contact": the rows of docs/reproductions.md (issue 67)."""
from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

SOURCES = []

ROWS = [
    Row(
        id='XC1',
        claim='Figs. 1–5: point, line and surface contact between convex shapes (diagrams)',
        ours="not reproduced as figures; one NCP for all three: the cube's face (XC3), the cylinder's line (XC9)",
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CubeSlidingMatchesTheAnalyticSolution', 'EcpExamples.CylinderRollingKeepsItsEcpOnTheContactLine'],
        legacy=True),
    Row(
        id='XC2',
        claim='§VI-A: "a cube with 1 m side length and 1 kg", β = 9.8 m/s², h = 0.01 s, μ = 0.12, e_t = e_o = 1, e_r = 1 m, q = [0, 0, 0.5 m, 1, 0, 0, 0], ν = [4 m/s, 3 m/s, 0, 0, 0, 0], "the tolerance of simulation to be 1e-8", 4 s',
        ours='the same scene, 400 steps; our tolerance ‖Φ‖∞ ≤ 1e-9',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CubeSlidingMatchesTheAnalyticSolution'],
        legacy=True),
    Row(
        id='XC3',
        claim='Fig. 6b: the position of the ECP a_x, a_y of the sliding cube',
        ours="the ECP stays 0.060 m (μ/2 · 1 m) ahead of the bottom face's centre along the motion (0.8, 0.6), at every step",
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpModel.SlidingCubeFollowsTheDiscreteAnalyticSolution'],
        legacy=True),
    Row(
        id='XC4',
        claim='Fig. 6c: "The analytical solution and the solution from PATH agrees well"',
        ours="ours from the analytic position: 0.0059, 0.0118, 0.0176, 0.0235 m at t = 1, 2, 3, 4 s (0.22 % in q_x and q_y at 4 s): backward Euler's lag ½μg h t, nothing else",
        commands=['build/release/ecp_peer_comparison out/ecp'],
        tests=['EcpExamples.CubeSlidingMatchesTheAnalyticSolution', 'figures.ecp'],
        legacy=True),
    Row(
        id='XC5',
        claim='Fig. 6c: ODE (4 contact points, dContactApprox1) "has a large error and the direction of sliding changes"',
        ours='ODE 0.16, the same settings: 0.271 m from the analytic position at 1 s, 3.054 m at 4 s (20.0 %, 40.0 %); its direction of motion turns from 36.8° to 0° (ours: 36.7°–37.0°, analytic 36.9°)',
        commands=['build/release/ecp_peer_comparison out/ecp'],
        tests=['figures.ecp'],
        legacy=True),
    Row(
        id='XC6',
        claim='Fig. 6d: "the error of BULLET increases as time increases" (4 contact points)',
        ours='Bullet 3.24: 0.0053, 0.0126, 0.0239, 0.0895 m at t = 1 … 4 s (0.69 %, 1.07 % at 4 s)',
        commands=['build/release/ecp_peer_comparison out/ecp'],
        tests=['figures.ecp'],
        legacy=True),
    Row(
        id='XC7',
        claim='§VI-B: l = 5 m, radius 1 m, m = 10 kg, μ = 0.3, q = [0, 0, 1 m, 0, 0, 0, 0], ν = [0, −1.4 m/s, 0, 0, 0, 0.2], "whenever the angular velocity w_z becomes 0, we provide an impulse p_zτ = 3 Nms", 10 s',
        ours='the same scene (the trigger `impulses: [{{when: {{wz: 0}}, …}}]`), 1000 steps',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderRollingKeepsItsEcpOnTheContactLine'],
        legacy=True),
    Row(
        id='XC8',
        claim='Fig. 7b: "L is always smaller than l/2"; L falls to 0 as w_z does and rises after the impulse',
        ours='|L| ≤ 0.039 m (l/2 = 2.5 m) over the 10 s',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderRollingKeepsItsEcpOnTheContactLine'],
        legacy=True),
    Row(
        id='XC9',
        claim='Fig. 7c: "the distance D is always 0"',
        ours='|D| ≤ 7.5e-13 m over the 10 s',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderRollingKeepsItsEcpOnTheContactLine'],
        legacy=True),
    Row(
        id='XC10',
        claim='§VI-B: "After around t = 0.5 s, the trend changes periodically in the same pattern"',
        ours='the cylinder stops slipping and rolls by t ≈ 0.5 s: |v_y| = 0.932 m/s at 0.5 s (the rolling speed 1.4 · 2/3 = 0.933 m/s), then slows under rolling and torsional friction (0.917 m/s at 3 s)',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderRollingKeepsItsEcpOnTheContactLine'],
        legacy=True),
    Row(
        id='XC11',
        claim='§VI-C: a unit cube on its corner, μ = 0.2, the initial q and ν as stated, impulses at t = 1 s and 1.8 s, 4 s',
        ours='q₀, ν₀, μ = 0.2, h and impulses as stated; not stated for this scenario; ours: mass 2.8 kg and e_t = e_o = 4 (with the unit ellipsoid and 1 kg the cube reached line contact at 0.44 s, flew at 1.02 s and lay on a face at 1.26 s: docs/ecp.md, scenario 3, the 12 readings tried)',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CubeTopplingGoesFromPointToLineToSurfaceContactAtThePapersTimes'],
        legacy=True),
    Row(
        id='XC12',
        claim='Fig. 8a: N = 3 (point), 2 (line), 1 (surface contact); "when the point contact becomes line contact (t = 1s)", "surface contact … (t = 1.8s)"',
        ours='point 0.01–0.98 s, line from 0.99 s (one rock back onto the corner at 1.00–1.01 s), line 1.02–1.76 s, surface 1.77–4.00 s; no flight',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CubeTopplingGoesFromPointToLineToSurfaceContactAtThePapersTimes'],
        legacy=True),
    Row(
        id='XC13',
        claim='Fig. 8b, 8c: a_x, a_y; "During point contact and line contact, ECP suddenly changes several times"',
        ours='the ECP jumps along the landing edge while the cube rocks on it (0.46–0.99 s: the contact point moves 1 m): it changes several times',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['figures.ecp'],
        legacy=True),
    Row(
        id='XC14',
        claim='§VI-D: "mass m = 75kg", length 0.3 m, radius 0.1 m, μ = 0.8, two obstacles',
        ours='75 kg, l = 0.3 m, r = 0.1 m, μ = 0.8, two obstacles as stated; the impulse schedule is ours (one or two impulses per phase)',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderManipulationFollowsThePapersPhases'],
        legacy=True),
    Row(
        id='XC15',
        claim='Fig. 9: phases T1 (0.01–0.65 s, falls), T2 (0.66–1.5 s, rolls), T3 (1.51–2.15 s, pivots past the obstacle), T4 (2.16–3.25 s, rolls), T5 (3.26–4.7 s, lifted), T6 (4.71–5 s, at the goal)',
        ours='T1 0.01–0.64 s, T2 lying 0.65–1.51 s, T3 1.52–2.09 s (an end-over-end flip, off the ground 1.67–1.70 s), T4 lying 2.10–3.26 s, T5 3.27–4.63 s, T6 standing 4.64–5.00 s: every boundary within 0.07 s of the stated one',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderManipulationFollowsThePapersPhases'],
        legacy=True),
    Row(
        id='XC16',
        claim='Fig. 10a: the applied impulses p_app(t) (a plot only)',
        ours="our schedule's impulses plotted beside q_z and v_z with the stated phase boundaries dashed (the values are ours, read from the phases: none are stated)",
        commands=['build/release/ecp_figures out/ecp'],
        tests=['figures.ecp'],
        legacy=True),
    Row(
        id='XC17',
        claim='Fig. 10b: line contact "when q_z(t) = 0.1m", surface contact "when q_z(t) = 0.15m"; v_z drops to 0 at each impact',
        ours='q_z plateaus at 0.1 m lying and 0.15 m standing, to 1e-6 m; v_z drops to 0 at each landing',
        commands=['build/release/ecp_figures out/ecp'],
        tests=['EcpExamples.CylinderManipulationFollowsThePapersPhases'],
        legacy=True),
    Row(
        id='XC18',
        claim='§VI: the NCPs are solved with PATH (no time stated)',
        ours="not stated; ours: per NCP, our semismooth Newton against Siconos' `mcp_newton_FB_FBLSA` side by side (a ratio): cube sliding 3.19 against 7.34 µs CPU (2.30×), cylinder rolling 11.27 against 20.45 µs (1.81×), cube toppling 5.65 against 18.70 µs (3.31×)",
        commands=['build/release/ecp_bench --benchmark_filter=BM_EcpNcp --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['MixedNcpSolver.RandomLcpsAgreeWithLemkeAndSiconos'],
        legacy=True),
]

PAPER = Paper(key='Xie & Chakraborty', title='Xie & Chakraborty, "Rigid Body Dynamic Simulation with Line and Surface Contact"', intro='Scenes: `examples/ecp_cube_sliding`, `ecp_cylinder_rolling`, `ecp_cube_toppling`,\n`ecp_cylinder_manipulation`; docs/ecp.md.', rows=ROWS)
