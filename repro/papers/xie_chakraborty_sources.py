"""The sources of xie_chakraborty.py's rows: the commands that print the paper's figures and the
functions that name their values (issue 67; repro/framework.py)."""
import json
import math
import os
import re

from repro import benchmark_json, csv_table
from repro.framework import LONG, Source, relative, timing

FIGURES = "build/release/ecp_figures out/ecp"
PEERS = "build/release/ecp_peer_comparison out/ecp"
UNFITTED = ("build/release/quasidyn simulate examples/ecp_cube_toppling/unfitted.yaml "
            "--out out/unfitted.json")
FITTED = ("build/release/quasidyn simulate examples/ecp_cube_toppling/scene.yaml "
          "--out out/toppling.json")
MANIPULATION = ("build/release/quasidyn simulate examples/ecp_cylinder_manipulation/scene.yaml "
                "--out out/manipulation.json")
BENCH = ("build/release/ecp_bench --benchmark_filter='BM_EcpNcp(Ours|Siconos)/' "
         "--benchmark_repetitions=5 --benchmark_report_aggregates_only=true "
         "--benchmark_format=json")
H = 0.01  # [s], every scenario's step (§VI-A: "h = 0.01s"), as the CSVs' t column steps


def _intervals(stdout, prefix):
    """ecp_figures' printed modes of one scenario ("scenario 3 (paper: …): point 0.01–0.98 s,
    …") as the string after the paper's part and as [(mode, from, to)]."""
    line = next(line for line in stdout.splitlines() if line.startswith(prefix))
    text = line.split("): ", 1)[1]
    items = [(mode.strip(), float(a), float(b))
             for mode, a, b in re.findall(r"([^,–]+?) (\d+\.\d+)–(\d+\.\d+) s", text)]
    return text, items


def _angle_deg(dx, dy):
    return math.degrees(math.atan2(dy, dx))


def _figures(run):
    v = {}
    # Scenario 1 (Fig. 6b, c): the ECP ahead of the bottom face's centre along the motion
    # (0.8, 0.6), and the position against the analytic one.
    rows = csv_table.read_rows(run.path("ecp_cube_sliding.csv"))
    v["s1_steps"] = len(rows)
    v["s1_h_s"] = rows[1]["t"] - rows[0]["t"]
    ahead = [0.8 * r["ecp_offset_x"] + 0.6 * r["ecp_offset_y"] for r in rows]
    side = [-0.6 * r["ecp_offset_x"] + 0.8 * r["ecp_offset_y"] for r in rows]
    v["s1_ecp_ahead_min_m"], v["s1_ecp_ahead_max_m"] = min(ahead), max(ahead)
    v["s1_ecp_side_max_m"] = max(abs(s) for s in side)
    mu, g = 0.12, 9.8  # §VI-A
    v["s1_ecp_ahead_analytic_m"] = mu / 2 * 1.0  # d = μ/2 · side (docs/ecp.md)
    v["s1_ecp_offset_dev_max_m"] = max(abs(a - v["s1_ecp_ahead_analytic_m"]) for a in ahead)
    lag_dev = 0.0
    for t in (1, 2, 3, 4):
        r = csv_table.at(rows, t=float(t))
        err = math.hypot(r["q_x"] - r["analytic_x"], r["q_y"] - r["analytic_y"])
        v[f"s1_error_{t}s_m"] = err
        lag_dev = max(lag_dev, abs(err - 0.5 * mu * g * H * t))
    v["s1_error_4s_x_percent"] = 100 * abs(rows[-1]["q_x"] - rows[-1]["analytic_x"]) / \
        rows[-1]["analytic_x"]
    v["s1_error_4s_y_percent"] = 100 * abs(rows[-1]["q_y"] - rows[-1]["analytic_y"]) / \
        rows[-1]["analytic_y"]
    # Backward Euler's lag ½ μ g h t (docs/ecp.md): how far the error is from it at 1 … 4 s.
    v["s1_error_minus_lag_max_m"] = lag_dev
    directions = [_angle_deg(b["q_x"] - a["q_x"], b["q_y"] - a["q_y"])
                  for a, b in zip(rows, rows[1:])]
    v["s1_direction_min_deg"], v["s1_direction_max_deg"] = min(directions), max(directions)
    v["s1_direction_analytic_deg"] = _angle_deg(0.8, 0.6)

    # Scenario 2 (Fig. 7b, c): L along the contact line, D off it; the rolling speed.
    rows = csv_table.read_rows(run.path("ecp_cylinder_rolling.csv"))
    v["s2_steps"] = len(rows)
    v["s2_L_max_m"] = max(abs(r["L"]) for r in rows)
    v["s2_D_max_m"] = max(abs(r["D"]) for r in rows)
    v["s2_half_length_m"] = 5.0 / 2  # l/2, §VI-B's l = 5 m
    for t in (0.5, 3.0):
        k = next(i for i, r in enumerate(rows) if abs(r["t"] - t) < 1e-9)
        # backward Euler: q_{k+1} = q_k + h v_{k+1}
        key = f"s2_vy_at_{t:g}s_m_per_s".replace(".", "_")
        v[key] = abs(rows[k]["q_y"] - rows[k - 1]["q_y"]) / H
    v["s2_rolling_speed_m_per_s"] = 1.4 * 2 / 3  # a solid cylinder rolls at v₀ · 2/3
    # The trigger's spin-ups (ω_z jumps up: p_zτ = 3 N·m·s) and |L| just before each, when ω_z
    # has decayed to 0, against |L| over the run.
    kicks = [(a, b) for a, b in zip(rows, rows[1:]) if b["omega_z"] - a["omega_z"] > 0.05]
    v["s2_spin_ups"] = len(kicks)
    v["s2_first_spin_up_s"] = kicks[0][1]["t"] if kicks else None
    v["s2_L_before_spin_up_max_m"] = max((abs(a["L"]) for a, _ in kicks), default=0.0)
    v["s2_L_after_spin_up_min_m"] = min((abs(b["L"]) for _, b in kicks), default=0.0)

    # Scenario 3 (Fig. 8): the modes ecp_figures prints (N = the cube's faces with l_i > 0).
    text, items = _intervals(run.stdout, "scenario 3")
    v["s3_modes"] = text
    v["s3_line_from_s"] = next(a for m, a, _ in items if m == "line")
    v["s3_surface_from_s"] = items[-1][1] if items[-1][0] == "surface" else None
    v["s3_surface_to_end"] = items[-1][0] == "surface"
    v["s3_flight_steps"] = sum(round((b - a) / H) + 1 for m, a, b in items if m == "in flight")
    v["s3_point_to_s"] = next(b for m, _, b in items if m == "point")
    rows = csv_table.read_rows(run.path("ecp_cube_toppling.csv"))
    before = [r for r in rows if r["t"] < v["s3_surface_from_s"] - 1e-9 and r["N"] > 0]
    v["s3_ecp_jumps"] = sum(1 for a, b in zip(before, before[1:])
                            if math.hypot(b["a_x"] - a["a_x"], b["a_y"] - a["a_y"]) > 0.3)
    v["s3_ecp_jump_max_m"] = max(math.hypot(b["a_x"] - a["a_x"], b["a_y"] - a["a_y"])
                                 for a, b in zip(before, before[1:]))
    point = [r for r in rows if r["t"] <= v["s3_point_to_s"] + 1e-9]
    line = [r for r in before if r["N"] == 2]
    after = [r for r in rows if r["t"] > 1.8 + 1e-9]
    v["s3_point_slip_max_m_per_s"] = max(math.hypot(r["v_t"], r["v_o"]) for r in point)
    v["s3_point_vr_max_rad_per_s"] = max(abs(r["v_r"]) for r in point)
    v["s3_line_slip_max_m_per_s"] = max(math.hypot(r["v_t"], r["v_o"]) for r in line)
    v["s3_line_vr_max_rad_per_s"] = max(abs(r["v_r"]) for r in line)
    v["s3_slide_speed_max_m_per_s"] = max(math.hypot(r["v_t"], r["v_o"]) for r in after)
    v["s3_slide_vr_max_rad_per_s"] = max(abs(r["v_r"]) for r in after)
    stopped = [r["t"] for r in after if math.hypot(r["v_t"], r["v_o"]) < 1e-6]
    v["s3_slide_stops_s"] = stopped[0] if stopped else None

    # Scenario 4 (Figs. 9, 10): the phases ecp_figures prints (q_z = 0.1 m lying, 0.15 m
    # standing), the flight in T3 and the wobble in T5 from the CSV (N = 0: no pair pushes).
    text, items = _intervals(run.stdout, "scenario 4")
    v["s4_modes"] = text
    lying = [(a, b) for m, a, b in items if m.startswith("lying")]
    standing = [(a, b) for m, a, b in items if m.startswith("standing")]
    v["s4_lying_stretches"] = len(lying)
    ours = {"T2": lying[0][0], "T3": lying[0][1] + H, "T4": lying[1][0], "T5": lying[1][1] + H,
            "T6": standing[-1][0]}
    paper = {"T2": 0.66, "T3": 1.51, "T4": 2.16, "T5": 3.26, "T6": 4.71}  # §VI-D
    ours = {phase: round(t, 2) for phase, t in ours.items()}  # the printed 2 decimals
    for phase, t in ours.items():
        v[f"s4_{phase}_from_s"] = t
    v["s4_T2_to_s"], v["s4_T4_to_s"] = lying[0][1], lying[1][1]
    v["s4_boundary_dev_max_s"] = round(max(abs(ours[p] - paper[p]) for p in paper), 2)
    v["s4_T6_to_end"] = items[-1][0].startswith("standing") and items[-1][2] == 5.0
    rows = csv_table.read_rows(run.path("ecp_cylinder_manipulation.csv"))
    t3 = [r for r in rows if ours["T3"] - 1e-9 <= r["t"] < ours["T4"] - 1e-9]
    flight = [r["t"] for r in t3 if r["N"] == 0]
    v["s4_T3_flight_steps"] = len(flight)
    v["s4_T3_flight_from_s"] = flight[0] if flight else None
    v["s4_T3_flight_to_s"] = flight[-1] if flight else None
    v["s4_T3_max_height_m"] = max(r["q_z"] for r in t3)
    t5 = [r for r in rows if ours["T5"] - 1e-9 <= r["t"] < ours["T6"] - 1e-9]
    v["s4_T5_standing_landings"] = sum(1 for a, b in standing if ours["T5"] <= a < ours["T6"])
    # Sign changes of v_z between steps where it is above round-off (1e-6 m/s) both times.
    moving = [r["v_z"] for r in t5 if abs(r["v_z"]) > 1e-6]
    v["s4_T5_vz_sign_changes"] = sum(1 for a, b in zip(moving, moving[1:]) if a * b < 0)
    # Fig. 10b: the plateaus and v_z at the first step of each.
    # The step that lands ends on the plateau with the velocity that carried it there (backward
    # Euler: q_{k+1} = q_k + h v_{k+1}); the step after it has v_z = 0 if the cylinder stays.
    plateau_dev, resting_vz, stays, touches = 0.0, 0.0, 0, 0
    for (a, b), height in [(s, 0.1) for s in lying] + [(s, 0.15) for s in standing]:
        stretch = [r for r in rows if a - 1e-9 <= r["t"] <= b + 1e-9]
        plateau_dev = max(plateau_dev, max(abs(r["q_z"] - height) for r in stretch))
        if len(stretch) >= 2:
            stays += 1
            resting_vz = max(resting_vz, abs(stretch[1]["v_z"]))
        else:
            touches += 1
    v["s4_plateau_dev_max_m"] = plateau_dev
    v["s4_landings_that_stay"] = stays
    v["s4_landings_for_one_step"] = touches
    v["s4_vz_after_landing_max_m_per_s"] = resting_vz
    v["s4_vz_max_m_per_s"] = max(abs(r["v_z"]) for r in rows)
    kicks = [r for r in rows if any(abs(r[k]) > 0 for k in
                                    ("p_x", "p_y", "p_z", "p_xtau", "p_ytau", "p_ztau"))]
    v["s4_impulses"] = len(kicks)
    return v


def _rotation(qw, qx, qy, qz):
    """The body-to-world rotation of a unit quaternion (w, x, y, z), rows."""
    return [[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
            [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
            [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)]]


def _solve(A, b):
    """x with A x = b (Gaussian elimination with partial pivoting; A small and square)."""
    n = len(b)
    M = [list(row) + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] for i in range(n)]


def _proposition2(trajectory, mass, side, g=9.8):
    """Proposition 2 on a run of a cube on the plane: from the state at the end of each step
    (ν⁺, q⁺) and the one before, eqs. (21)–(23) as docs/ecp.md writes them (backward Euler:
    m (v⁺ − v) = h m g + p_app + P, I (ω⁺ − ω) + h ω⁺ × I ω⁺ = p_app,τ + (a − c⁺) × P + p_r n;
    the cube's I = m side²/6 · 1, so the gyroscopic term is 0) determine the contact impulse P,
    and, with n·a = 0 (the plane), the ECP a and p_r by a 4 × 4 linear system, nonsingular when
    n·P = p_n ≠ 0. The largest differences from what the NCP returned, over the steps with one
    pushing pair."""
    h = trajectory["formulation"]["time_step"]
    previous = trajectory["v0"]
    worst = {"ecp": 0.0, "impulse": 0.0, "torsion": 0.0}
    used, least_pn = 0, float("inf")
    inertia = mass * side * side / 6
    for step in trajectory["steps"]:
        v, u, c = step["v"], step["u"], step["q"][:3]
        pushing = [x for x in step["contacts"] if x["normal_impulse"] > PUSHING]
        if len(pushing) == 1:
            contact = pushing[0]
            n = contact["normal"]
            P = [mass * (v[i] - previous[i]) - u[i] + (h * mass * g if i == 2 else 0.0)
                 for i in range(3)]
            ncp = [contact["normal_impulse"] * n[i] + contact["friction_impulse"][i]
                   for i in range(3)]
            tau = [inertia * (v[3 + i] - previous[3 + i]) - u[3 + i] for i in range(3)]
            # (a − c⁺) × P = −[P]× r: the rows of −[P]× beside n, and n·r = −n·c⁺.
            cross = [[0, -P[2], P[1]], [P[2], 0, -P[0]], [-P[1], P[0], 0]]
            A = [[-cross[i][0], -cross[i][1], -cross[i][2], n[i]] for i in range(3)]
            A.append([n[0], n[1], n[2], 0.0])
            r0, r1, r2, p_r = _solve(A, tau + [-sum(n[i] * c[i] for i in range(3))])
            a = [c[0] + r0, c[1] + r1, c[2] + r2]
            worst["ecp"] = max(worst["ecp"], math.dist(a, contact["point"]))
            worst["impulse"] = max(worst["impulse"], math.dist(P, ncp))
            worst["torsion"] = max(worst["torsion"], abs(p_r - contact["torsional_impulse"]))
            least_pn = min(least_pn, sum(n[i] * P[i] for i in range(3)))
            used += 1
        previous = v
    return {"prop2_steps": used, "prop2_ecp_dev_max_m": worst["ecp"],
            "prop2_impulse_dev_max_Ns": worst["impulse"],
            "prop2_torsion_dev_max_Nms": worst["torsion"], "prop2_least_pn_Ns": least_pn}


CORNER_TOLERANCE = 1e-5  # [m]: a corner "on the plane" (docs/ecp.md's readings: within 10 µm)
PUSHING = 1e-9  # [N·s]: a pair pushes when p_n is above this (ecp_figures' threshold)
MODES = {0: "in flight", 1: "point", 2: "line", 4: "surface"}


def _toppling(run, scene):
    """A run of a cube-toppling scene (`quasidyn simulate`'s trajectory): the mode of each step
    by the cube's corners within CORNER_TOLERANCE of the plane (1 point, 2 line, 4 surface; in
    flight when no pair pushes), as "mode from–to s" intervals like ecp_figures prints; and
    Proposition 1's property at every pushing step: the ECP on the plane's boundary (|a_z|) and
    on the cube's (max_i |local_i| − ½ m, the box's face functions), the cube never below the
    plane (its lowest corner)."""
    trajectory = json.loads(run.read("run.json"))
    steps = trajectory["steps"]
    modes, patch, lowest, pushing_steps = [], 0.0, float("inf"), 0
    jumps, previous_point = [], None  # the ECP moving > 0.3 m in one step (Fig. 8b, c)
    for step in steps:
        q = step["q"]
        R = _rotation(*q[3:7])
        heights = []
        for sx in (-0.5, 0.5):
            for sy in (-0.5, 0.5):
                for sz in (-0.5, 0.5):
                    heights.append(q[2] + R[2][0] * sx + R[2][1] * sy + R[2][2] * sz)
        lowest = min(lowest, min(heights))
        pushing = [c for c in step["contacts"] if c["normal_impulse"] > PUSHING]
        if not pushing:
            modes.append((step["t"], "in flight"))
            previous_point = None
            continue
        pushing_steps += 1
        on_plane = sum(1 for z in heights if z < CORNER_TOLERANCE)
        modes.append((step["t"], MODES.get(on_plane, f"{on_plane} corners")))
        point = max(pushing, key=lambda c: c["normal_impulse"])["point"]
        if previous_point is not None and math.dist(point[:2], previous_point[:2]) > 0.3:
            jumps.append(step["t"])
        previous_point = point
        for contact in pushing:
            a = contact["point"]
            d = [a[i] - q[i] for i in range(3)]
            local = [sum(R[i][j] * d[i] for i in range(3)) for j in range(3)]  # Rᵀ d
            patch = max(patch, abs(a[2]), abs(max(abs(x) for x in local) - 0.5))
    items, begin = [], 0
    for k in range(1, len(modes) + 1):
        if k < len(modes) and modes[k][1] == modes[begin][1]:
            continue
        items.append((modes[begin][1], modes[begin][0], modes[k - 1][0]))
        begin = k
    v = {"modes": ", ".join(f"{m} {a:.2f}–{b:.2f} s" for m, a, b in items),
         "steps": len(steps), "status": trajectory["status"],
         "e_t": trajectory["formulation"]["e_t"], "e_o": trajectory["formulation"]["e_o"],
         "e_r_m": trajectory["formulation"]["e_r"],
         "pushing_steps": pushing_steps, "ecp_off_patch_max_m": patch,
         "lowest_corner_min_m": lowest}

    def first(mode):
        return next((a for m, a, _ in items if m == mode), None)

    v["line_from_s"], v["surface_from_s"] = first("line"), first("surface")
    flights = [(a, b) for m, a, b in items if m == "in flight"]
    v["flight_steps"] = sum(round((b - a) / H) + 1 for a, b in flights)
    v["flight_from_s"] = flights[0][0] if flights else None
    v["flight_to_s"] = flights[-1][1] if flights else None
    v["ecp_jumps_before_final_mode"] = sum(1 for t in jumps if t < items[-1][1] - 1e-9)
    # The scene's mass and size, which the trajectory does not hold.
    with open(os.path.join(run.root, scene), encoding="utf-8") as handle:
        text = handle.read()
    mass = float(re.search(r"^\s*mass:\s*([0-9.]+)", text, re.M).group(1))
    side = float(re.search(r"size:\s*\[([0-9.]+),", text).group(1))
    v.update(_proposition2(trajectory, mass, side))
    v["final_mode"] = items[-1][0]
    v["final_mode_from_s"] = items[-1][1]
    return v


CYLINDER_RADIUS, CYLINDER_LENGTH, CYLINDER_MASS = 0.1, 0.3, 75.0  # [m], [m], [kg]: §VI-D
# A pair pushes when p_n is above 1e-8 of the cylinder's weight over one step (m g h, 7.4 N·s),
# the threshold of the tests (simulation/ecp_examples_test.cc): below it p_n is the solver's
# round-off, met at a 2.5 cm gap from an obstacle.
CYLINDER_PUSHING = 1e-8 * CYLINDER_MASS * 9.8 * H
TOUCHING = 1e-9  # [m]: on the ground when the distance to the plane is below this


def _manipulation(run):
    """A run of scenario 4 (`quasidyn simulate`'s trajectory): Proposition 1's property at every
    pushing step, the ECP on the cylinder's boundary (max(ρ − r, |z| − l/2) in its frame, the
    shape's axis z) and, against the plane, on the plane (|a_z|); the least distance of any pair
    at the end of a step (phi_end, the geometry model's); and the steps of T3 where the cylinder
    is off the ground (no pair with the plane at phi_end <= TOUCHING)."""
    trajectory = json.loads(run.read("run.json"))
    patch, least, pushing_steps, obstacle_steps, off = 0.0, float("inf"), 0, 0, []
    for step in trajectory["steps"]:
        q = step["q"]
        R = _rotation(*q[3:7])
        on_ground = False
        pushing = False
        for contact in step["contacts"]:
            least = min(least, contact["phi_end"])
            ground = "world" in (contact["body_a"], contact["body_b"])
            on_ground = on_ground or (ground and contact["phi_end"] <= TOUCHING)
            if contact["normal_impulse"] <= CYLINDER_PUSHING:
                continue
            pushing = True
            obstacle_steps += not ground
            a = contact["point"]
            d = [a[i] - q[i] for i in range(3)]
            local = [sum(R[i][j] * d[i] for i in range(3)) for j in range(3)]
            off_boundary = abs(max(math.hypot(local[0], local[1]) - CYLINDER_RADIUS,
                                   abs(local[2]) - CYLINDER_LENGTH / 2))
            patch = max(patch, off_boundary, abs(a[2]) if ground else 0.0)
        pushing_steps += pushing
        if not on_ground and 1.51 <= step["t"] <= 2.15:  # the stated T3
            off.append(step["t"])
    return {"steps": len(trajectory["steps"]), "status": trajectory["status"],
            "pushing_steps": pushing_steps, "obstacle_pushing_steps": obstacle_steps,
            "ecp_off_patch_max_m": patch, "least_distance_m": least,
            "T3_off_ground_steps": len(off), "T3_off_ground": _spans(off)}


def _spans(times):
    """Steps' times as "a–b s" spans of consecutive steps."""
    spans = []
    for t in times:
        if spans and abs(t - spans[-1][1] - H) < 1e-9:
            spans[-1][1] = t
        else:
            spans.append([t, t])
    return ", ".join(f"{a:.2f} s" if a == b else f"{a:.2f}–{b:.2f} s" for a, b in spans) or "none"


def _info(run):
    """`quasidyn info --json`: the scene's stated inputs (mass, μ, e_t, e_o, e_r, h)."""
    info = json.loads(run.stdout)
    moving = [j["child"] for j in info["joints"] if j["type"] != "fixed"]
    mass = {b["name"]: b["mass"] for b in info["bodies"]}
    v = {"time_step_s": info["time_step"], "gravity_m_per_s2": -info["gravity"][2],
         "mass_kg": mass[moving[0]], "moving_bodies": len(moving),
         "fixed_bodies": sum(1 for j in info["joints"] if j["type"] == "fixed"),
         "friction": min(s["friction"] for s in info["shapes"] if s["body"] == "world")}
    for key, value in info["formulation"]["parameters"].items():
        v[key] = value
    if "e_t" in v:  # the bound of the tangential impulse, e_t μ p_n (eq. (19)'s ζ ≥ 0)
        v["tangential_bound_per_pn"] = v["e_t"] * v["friction"]
    for i, x in enumerate(info["q0"][:7]):
        v[f"q0_{i}"] = x
    for i, x in enumerate(info.get("v0", [0.0] * 6)[:6]):
        v[f"v0_{i}"] = x
    return v


def _peers(run):
    """ecp_peer_comparison's CSV (6 significant digits): each engine's distance from the
    analytic position at 1 … 4 s, its relative errors in q_x, q_y at 4 s, and its direction of
    motion over the first 0.5 s and over 2.5–3 s (the analytic one: atan2(0.6, 0.8)), and when it
    comes to rest (analytic: 5/(μg) = 4.25 s, after the run)."""
    rows = csv_table.read_rows(run.path("ecp_cube_sliding_peers.csv"))
    v = {}
    for engine in ("ours", "MuJoCo", "Bullet", "ODE"):
        for t in (1, 2, 3, 4):
            r = csv_table.at(rows, t=float(t))
            v[f"{engine}_error_{t}s_m"] = math.hypot(r[f"{engine}_x"] - r["analytic_x"],
                                                     r[f"{engine}_y"] - r["analytic_y"])
        last = rows[-1]
        v[f"{engine}_error_4s_x_percent"] = 100 * abs(last[f"{engine}_x"] - last["analytic_x"]) \
            / last["analytic_x"]
        v[f"{engine}_error_4s_y_percent"] = 100 * abs(last[f"{engine}_y"] - last["analytic_y"]) \
            / last["analytic_y"]
        first, half = rows[0], csv_table.at(rows, t=0.5)
        late_a, late_b = csv_table.at(rows, t=2.5), csv_table.at(rows, t=3.0)
        x, y = f"{engine}_x", f"{engine}_y"
        v[f"{engine}_direction_start_deg"] = _angle_deg(half[x] - first[x], half[y] - first[y])
        v[f"{engine}_direction_late_deg"] = _angle_deg(late_b[x] - late_a[x], late_b[y] - late_a[y])
        v[f"{engine}_speed_late_m_per_s"] = math.hypot(
            late_b[f"{engine}_x"] - late_a[f"{engine}_x"],
            late_b[f"{engine}_y"] - late_a[f"{engine}_y"]) / (late_b["t"] - late_a["t"])
        # At rest from the first step whose position (6 digits) stays to the end; None: moving.
        still = len(rows)
        while still > 1 and rows[still - 2][f"{engine}_x"] == last[f"{engine}_x"] and \
                rows[still - 2][f"{engine}_y"] == last[f"{engine}_y"]:
            still -= 1
        v[f"{engine}_at_rest_from_s"] = rows[still - 1]["t"] if still < len(rows) else None
    v["analytic_direction_deg"] = _angle_deg(0.8, 0.6)
    return v


def _bench(run):
    """ecp_bench --benchmark_format=json: the median CPU time per NCP of ours and Siconos on the
    same recorded NCPs of each scene, and their ratio within the run."""
    medians = {name: benchmark_json.time_in(bench, "cpu_time", "us")
               for name, bench in benchmark_json.medians(run.stdout).items()}
    v = {}
    for scene in ("ecp_cube_sliding", "ecp_cylinder_rolling", "ecp_cube_toppling"):
        ours, siconos = medians[f"BM_EcpNcpOurs/{scene}"], medians[f"BM_EcpNcpSiconos/{scene}"]
        short = scene.replace("ecp_", "")
        v[f"{short}_ours_us"], v[f"{short}_siconos_us"] = ours, siconos
        v[f"{short}_ratio"] = siconos / ours
    return v


def _info_source(name, scene):
    return Source(name=name, argv=["{build}/quasidyn", "info", "--json", scene], extract=_info)


def _simulate_source(name, scene, shown, extract=None):
    return Source(name=name, argv=["{build}/quasidyn", "simulate", scene, "--out", "{out}/run.json",
                                   "--quiet"],
                  extract=extract or (lambda run: _toppling(run, scene)),
                  default_tolerance=ROUND_OFF, shown=shown)


# Deterministic runs: the same build repeats every digit; 1e-6 relative (+ 1e-9 m absolute for
# the values that are round-off, e.g. |D| ~ 1e-11 m) covers another compiler's instruction order.
ROUND_OFF = relative(1e-6, 1e-9)
SOURCES = [
    Source(name="ecp_figures", argv=["{build}/ecp_figures", "{out}"], extract=_figures,
           default_tolerance=ROUND_OFF, shown=FIGURES),
    # The peers' CSV prints 6 significant digits: a last-digit change moves a position by up to
    # 1e-5 m (positions up to 13 m) and an error by twice that.
    Source(name="ecp_peers", argv=["{build}/ecp_peer_comparison", "{out}"], extract=_peers,
           default_tolerance=relative(1e-3, 2e-5), shown=PEERS),
    _simulate_source("ecp_toppling_fitted", "examples/ecp_cube_toppling/scene.yaml", FITTED),
    _simulate_source("ecp_toppling_unfitted", "examples/ecp_cube_toppling/unfitted.yaml",
                     UNFITTED),
    _simulate_source("ecp_manipulation_run", "examples/ecp_cylinder_manipulation/scene.yaml",
                     MANIPULATION, _manipulation),
    _info_source("ecp_info_sliding", "examples/ecp_cube_sliding/scene.yaml"),
    _info_source("ecp_info_rolling", "examples/ecp_cylinder_rolling/scene.yaml"),
    _info_source("ecp_info_toppling", "examples/ecp_cube_toppling/scene.yaml"),
    _info_source("ecp_info_toppling_unfitted", "examples/ecp_cube_toppling/unfitted.yaml"),
    _info_source("ecp_info_manipulation", "examples/ecp_cylinder_manipulation/scene.yaml"),
    # Medians of 5 repetitions on the shared 2-core machine: a factor 3, for the times and for
    # their ratio alike (both solvers run in the same process, one after the other).
    Source(name="ecp_bench",
           argv=["{build}/ecp_bench", "--benchmark_filter=BM_EcpNcp(Ours|Siconos)/",
                 "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                 "--benchmark_format=json"],
           extract=_bench, cost=LONG, default_tolerance=timing(3), shown=BENCH),
]
# Strings and booleans (the printed modes) must be equal; the counts are integers, which the
# relative tolerances above leave exact.
