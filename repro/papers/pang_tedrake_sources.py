"""The sources of pang_tedrake.py's rows: the commands that print the paper's figures and the
functions that name their values (issue 67; repro/framework.py)."""
import json
import math
import re

from repro.framework import LONG, EXACT, Source, relative, timing

from repro import benchmark_json, csv_table

MU_GRIPPER = 0.5  # §V-A: "a friction coefficient of 0.5" (the claim's number, used to test it)
FLAT = 1.25  # Fig. 7/8's "flat" / "despite the increase in h": at most 25 % above the finest h's
STEPS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4)  # timestep_study's default h [s]


def step_tag(h):
    """A key part for a time step: 0.001 → h1ms (a field name cannot hold a dot)."""
    return f"h{round(h * 1000):d}ms"


# --- gripper_figures (§V-A, Fig. 5 and 6) -------------------------------------------------------

def _gripper(run):
    rows = csv_table.read_rows(run.path("gripper.csv"))
    values = {}
    for formulation in ("lcp", "qp"):
        at_squeeze = csv_table.at(rows, formulation=formulation, t=0.08)
        values[f"{formulation}_stretch_at_squeeze_m"] = at_squeeze["x_l"] - at_squeeze["x_l_commanded"]
        values[f"{formulation}_c_n1_at_squeeze_N"] = at_squeeze["c_n1"]
        run_rows = sorted((r for r in rows if r["formulation"] == formulation), key=lambda r: r["t"])
        f = formulation
        first = lambda test: next(r["t"] for r in run_rows if test(r))
        between = lambda a, b: [r for r in run_rows if a - 1e-9 <= r["t"] <= b + 1e-9]
        spread = lambda rs, key: max(r[key] for r in rs) - min(r[key] for r in rs)
        values[f"{f}_phi_1_first_step_m"] = run_rows[0]["phi_1"]
        values[f"{f}_touch_t"] = first(lambda r: r["phi_1"] <= 1e-9)
        values[f"{f}_force_t"] = first(lambda r: r["c_n1"] > 1e-6)
        squeeze = between(values[f"{f}_touch_t"], 0.08)
        values[f"{f}_squeeze_c_n1_first_N"] = squeeze[0]["c_n1"]
        values[f"{f}_squeeze_max_abs_phi_1_m"] = max(abs(r["phi_1"]) for r in squeeze)
        values[f"{f}_weight_N"] = run_rows[0]["c_n3"]  # before any finger touches
        values[f"{f}_slide_t"] = first(lambda r: abs(r["c_f1"]) >= MU_GRIPPER * r["c_n1"] - 1e-9
                                       and r["c_n1"] > 0)
        values[f"{f}_first_motion_t"] = first(lambda r: r["y"] < run_rows[0]["y"] - 1e-9)
        y_cmd_end = run_rows[-1]["y_commanded"]
        values[f"{f}_command_stop_t"] = first(lambda r: abs(r["y_commanded"] - y_cmd_end) < 1e-12)
        previous = {id(b): a for a, b in zip(run_rows, run_rows[1:])}
        values[f"{f}_last_slide_step_t"] = max(
            r["t"] for r in run_rows[1:] if previous[id(r)]["y"] - r["y"] > 1e-6)
        after = between(values[f"{f}_slide_t"], run_rows[-1]["t"])
        for key in ("c_n1", "c_f1", "phi_1"):
            values[f"{f}_{key}_spread_after_slide"] = spread(after, key)
        values[f"{f}_c_n1_after_slide_N"] = after[0]["c_n1"]
        values[f"{f}_c_f1_after_slide_N"] = after[0]["c_f1"]
        values[f"{f}_phi_1_max_after_slide_m"] = max(r["phi_1"] for r in after)
        values[f"{f}_c_n1_max_N"] = max(r["c_n1"] for r in run_rows)
        values[f"{f}_c_n3_before_pull_N"] = at_squeeze["c_n3"]
        values[f"{f}_c_n3_max_N"] = max(r["c_n3"] for r in run_rows)
        # Force balance of the sphere: the ground carries its weight plus both fingers' friction.
        values[f"{f}_c_n3_balance_residual_N"] = max(
            abs(r["c_n3"] - values[f"{f}_weight_N"] - 2 * abs(r["c_f1"])) for r in run_rows)
        for t in (0.14, 0.24, 0.25, 0.30, 0.35):
            values[f"{f}_phi_1_at_{round(t * 100):d}cs_m"] = csv_table.at(
                rows, formulation=f, t=t)["phi_1"]
    # The QP's sliding speed between two steps of steady sliding, and the boundary layer it
    # predicts: φ = h·μ·|v| (§IV-A.2: the RHS of (8b) is active with v_n = 0).
    a, b = (csv_table.at(rows, formulation="qp", t=t) for t in (0.22, 0.23))
    h = rows[1]["t"] - rows[0]["t"]  # the CSV has one row per step of each formulation
    values["qp_slide_speed_m_per_s"] = (a["y"] - b["y"]) / h
    values["qp_boundary_layer_predicted_m"] = h * MU_GRIPPER * values["qp_slide_speed_m_per_s"]
    return values


# --- quasidyn info (scene layouts) --------------------------------------------------------------

def _info(run):
    text = run.stdout
    values = {}
    m = re.search(r"nq = (\d+), nv = (\d+)\s+\(un-actuated nq_u = (\d+), nv_u = (\d+); actuated "
                  r"nq_a = nv_a = (\d+)\)", text)
    values["nq"], values["nv"], values["nq_u"], values["nv_u"], values["nv_a"] = map(int, m.groups())
    values["h_s"] = float(re.search(r"h = ([0-9.e-]+) s", text).group(1))
    values["contact_tolerance_m"] = float(re.search(r"contact tolerance = ([0-9.e-]+) m", text).group(1))
    values["objects"] = len(re.findall(r"^\s+\S+\s+object\s", text, re.M))
    stiffness = [float(k) for k in re.findall(r" K = ([0-9.e+-]+)", text)]
    values["stiffness_count"] = len(stiffness)
    values["stiffness_min"] = min(stiffness)
    values["stiffness_max"] = max(stiffness)
    mus = [float(k) for k in re.findall(r"mu = ([0-9.e+-]+)", text)]
    values["mu_min"], values["mu_max"] = min(mus), max(mus)
    values["contacts_at_q0"] = int(re.search(r"contacts at q0 \(phi <= [^)]*\): (\d+)", text).group(1))
    finger = re.search(r"left_finger\S* / \S+\s+phi = ([0-9.e-]+) m", text)
    if finger:
        values["left_finger_phi_at_q0_m"] = float(finger.group(1))
    values["joint_names"] = ",".join(re.findall(r"^\s+(\S+)\s+(?:prismatic|revolute|planar|floating)",
                                                text, re.M))
    return values


def _gripper_q0(run):
    with open(run.path("g.json"), encoding="utf-8") as handle:
        trajectory = json.load(handle)
    names = trajectory["coordinate_names"]
    q0 = trajectory["q0"]
    ground = [c for c in trajectory["steps"][0]["contacts"] if c["body_b"] == "world"
              or c["body_a"] == "world"]
    # The sphere rests on the ground (φ = 0 at q0): its centre's height is its radius.
    return {"coordinates": ",".join(names), "sphere_height_at_q0_m": q0[names.index("sphere/root_joint/y")],
            "ground_phi_at_q0_m": ground[0]["phi_start"]}


# --- quasidyn simulate arm_cubes (Fig. 1, §V-B) --------------------------------------------------

def _arm_arrays(run):
    import numpy as np
    return np.load(run.path("arm.npz"), allow_pickle=False)


def _arm_run(run):
    import numpy as np
    d = _arm_arrays(run)
    names = [str(n) for n in d["coordinate_names"]]
    cube = names.index("red_cube/root_joint/x")
    top = names.index("stack_top/root_joint/x")
    q = d["q"]
    end, top_end = q[-1, cube:cube + 7], q[-1, top:top + 7]
    w = min(1.0, abs(float(end[3])))
    counts = d["contact_count"]
    return {
        "steps": int(d["steps_requested"]), "steps_solved": int(d["steps_done"]),
        "status": str(d["status"]),
        "cube_final_x_m": float(end[0]), "cube_final_y_m": float(end[1]), "cube_final_z_m": float(end[2]),
        "cube_above_stack_top_m": float(end[2] - top_end[2]),
        "cube_off_stack_top_axis_m": float(np.linalg.norm(end[:2] - top_end[:2])),
        "cube_final_tilt_deg": math.degrees(2 * math.acos(w)),
        "contacts_mean": float(np.mean(counts)), "contacts_max": int(np.max(counts)),
        "contacts_min": int(np.min(counts)),
        "time_step_s": float(d["time_step"]),
    }


def _arm_solve_times(run):
    import numpy as np
    d = _arm_arrays(run)
    return {"solve_mean_ms": 1e3 * float(np.mean(d["solve_time"])),
            "solve_median_ms": 1e3 * float(np.median(d["solve_time"])),
            "step_mean_ms": 1e3 * float(np.mean(d["step_time"])),
            "steps": int(d["steps_done"]), "contacts_mean": float(np.mean(d["contact_count"]))}


# --- dump_solver_problems + cvxopt (the QP solver against an independent one) -------------------

def _cvxopt(run):
    lines = re.findall(r"^(ok|FAIL)\s+#\s*\d+\s+(qp|socp)\s+n=\s*(\d+).*?\|dx\|=([0-9.e+-]+) bound=([0-9.e+-]+)",
                       run.stdout, re.M)
    qp = [l for l in lines if l[1] == "qp"]
    socp = [l for l in lines if l[1] == "socp"]
    return {"problems": len(lines), "agree": sum(1 for l in lines if l[0] == "ok"),
            "qp_count": len(qp), "socp_count": len(socp),
            "qp_n_min": min(int(l[2]) for l in qp), "qp_n_max": max(int(l[2]) for l in qp),
            "qp_max_dx": max(float(l[3]) for l in qp), "socp_max_dx": max(float(l[3]) for l in socp),
            "max_dx_over_bound": max(float(l[3]) / float(l[4]) for l in lines)}


# --- benchmarks (Google Benchmark JSON) ---------------------------------------------------------

def _medians(run):
    return benchmark_json.medians(run.read("bench.json"))


def _to_ms(b, key):
    return benchmark_json.time_in(b, key, "ms")


def _step_bench(run):
    m = _medians(run)
    solve, step = m["BM_Part_SolveQp"], m["BM_Calc/arm_cubes_qp"]
    # CPU times only: the wall-clock medians moved by more than a factor 4 with the load of the
    # shared machine between two runs of the same build (1.30 and 0.29 ms for the step).
    return {"solve_qp_cpu_ms": _to_ms(solve, "cpu_time"), "step_cpu_ms": _to_ms(step, "cpu_time"),
            "step_contacts": int(step["contacts"])}


def _large_scene_bench(run):
    m = _medians(run)
    values = {}
    points = []
    for n in (100, 300, 1000):
        b = m[f"BM_LargePlanarStep/qp/{n}"]
        values[f"n{n}_cpu_ms"] = _to_ms(b, "cpu_time")
        values[f"n{n}_contacts"] = int(b["contacts"]) if "contacts" in b else -1
        values[f"n{n}_heap_KB_per_object"] = b.get("heap_KB_per_object", -1.0)
        points.append((math.log(n), math.log(values[f"n{n}_cpu_ms"])))
    # The least-squares exponent α of time ∝ N^α over the three sizes.
    mx = sum(x for x, _ in points) / 3
    my = sum(y for _, y in points) / 3
    values["exponent"] = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return values


# --- timestep_study (§V-B, Fig. 7 and 8) and its variants (examples/arm_cubes/timestep_variants.sh)

VARIANTS = ("base", "s0", "lag", "zeta0.25")
# The phases of the scene's schedule (examples/arm_cubes/scene.yaml's knots) [s].
PHASES = (("approach", 0.0, 2.0), ("lift", 2.0, 4.0), ("swing", 4.0, 8.0), ("lower", 8.0, 9.6),
          ("release", 9.6, 10.4), ("settle", 10.4, 11.6))


def _trajectories(path):
    import numpy as np
    runs = {}
    for r in csv_table.read_rows(path):
        runs.setdefault((r["run"], r["h"]), []).append((r["t"], r["x"], r["y"], r["z"], r["angle_deg"]))
    return {key: np.array(rows) for key, rows in runs.items()}


def _phase_error(run, ref, a, b):
    """E [m·s] of the run's samples in [a, b] against ref interpolated (trapezoidal rule)."""
    import numpy as np
    t = run[:, 0]
    keep = (t >= a - 1e-9) & (t <= b + 1e-9)
    t, p = t[keep], run[keep, 1:4]
    p_ref = np.stack([np.interp(t, ref[:, 0], ref[:, i]) for i in (1, 2, 3)], axis=1)
    d = np.linalg.norm(p - p_ref, axis=1)
    return float(np.sum(0.5 * (d[1:] + d[:-1]) * np.diff(t)))


def _timestep(run):
    import numpy as np
    values = {}
    for variant in VARIANTS:
        folder = run.path(variant)
        v = variant.replace(".", "")  # zeta0.25 → zeta025
        rows = csv_table.read_rows(f"{folder}/timestep_errors.csv")
        stdout = open(f"{folder}/stdout.txt", encoding="utf-8").read()
        for row in rows:
            if row["reference"] == "ground_truth" and row["formulation"] == "qp_reference":
                values[f"{v}_qp_floor_E"] = row["E_position"]
                continue
            tag = step_tag(row["h"])
            if row["reference"] == "qp_reference":
                values[f"{v}_qp_self_E_{tag}"] = row["E_position"]
                continue
            f = "qp" if row["formulation"] == "qp" else "so"  # so: the second-order formulation
            values[f"{v}_{f}_E_{tag}"] = row["E_position"]
            if variant != "base":
                continue
            values[f"{v}_{f}_E_held_{tag}"] = row["E_held"]
            values[f"{v}_{f}_E_interpolated_{tag}"] = row["E_interpolated"]
            values[f"{v}_{f}_A_{tag}"] = row["E_angle"]
            values[f"{v}_{f}_largest_mm_{tag}"] = 1e3 * row["largest_distance"]
            values[f"{v}_{f}_final_error_mm_{tag}"] = 1e3 * row["final_error"]
            values[f"{v}_{f}_on_stack_{tag}"] = bool(row["on_stack"])
            values[f"{v}_{f}_failed_steps_{tag}"] = int(row["failed_steps"])
            values[f"{v}_{f}_left_{tag}"] = row["departure_t"] >= 0
            values[f"{v}_{f}_wall_s_{tag}"] = row["wall_seconds"]
            values[f"{v}_{f}_steps_{tag}"] = int(row["steps"])
        truth = re.search(r"^ground truth: .* at h = ([0-9.e-]+) s over ([0-9.]+) s: ([0-9.]+) s wall, "
                          r"(\d+) failed steps.*?∫‖p\(t\) − p\(0\)‖dt = ([0-9.]+) m·s", stdout, re.M)
        if variant in ("base", "zeta0.25"):
            values[f"{v}_truth_h_s"] = float(truth.group(1))
            values[f"{v}_truth_failed_steps"] = int(truth.group(4))
            values[f"{v}_truth_motion_m_s"] = float(truth.group(5))
        if variant == "base":
            values["end_time_s"] = float(truth.group(2))
            values["truth_wall_s"] = float(truth.group(3))
            values["truth_steps"] = round(float(truth.group(2)) / float(truth.group(1)))
            values["explicit_limit_ms"] = float(re.search(r"2/ω_max = ([0-9.]+) ms", stdout).group(1))
    base_rows = csv_table.read_rows(run.path("base/timestep_errors.csv"))
    values["so_formulation"] = next(r["formulation"] for r in base_rows
                                    if r["formulation"] not in ("qp", "qp_reference"))
    # Ratios and summaries the rows test.
    for v in ("base", "s0", "lag", "zeta025"):
        values[f"{v}_qp_E_ratio"] = values[f"{v}_qp_E_h400ms"] / values[f"{v}_qp_E_h1ms"]
    values["base_qp_E_held_ratio"] = values["base_qp_E_held_h400ms"] / values["base_qp_E_held_h1ms"]
    values["base_qp_E_interpolated_ratio"] = (values["base_qp_E_interpolated_h400ms"]
                                              / values["base_qp_E_interpolated_h1ms"])
    values["base_qp_growth"] = values["base_qp_E_h400ms"] - values["base_qp_E_h1ms"]
    values["base_so_E_ratio"] = values["base_so_E_h400ms"] / values["base_so_E_h1ms"]
    values["base_qp_below_so_count"] = sum(
        1 for h in STEPS if values[f"base_qp_E_{step_tag(h)}"] < values[f"base_so_E_{step_tag(h)}"])
    values["base_so_failed_steps"] = sum(values[f"base_so_failed_steps_{step_tag(h)}"] for h in STEPS)
    values["base_so_left_count"] = sum(1 for h in STEPS if values[f"base_so_left_{step_tag(h)}"])
    values["base_qp_left_count"] = sum(1 for h in STEPS if values[f"base_qp_left_{step_tag(h)}"])
    values["base_qp_on_stack_count"] = sum(1 for h in STEPS if values[f"base_qp_on_stack_{step_tag(h)}"])
    values["base_qp_failed_steps"] = sum(values[f"base_qp_failed_steps_{step_tag(h)}"] for h in STEPS)
    values["base_qp_largest_max_mm_h200ms_or_less"] = max(
        values[f"base_qp_largest_mm_{step_tag(h)}"] for h in STEPS if h <= 0.2 + 1e-12)
    values["base_qp_largest_min_mm_h200ms_or_less"] = min(
        values[f"base_qp_largest_mm_{step_tag(h)}"] for h in STEPS if h <= 0.2 + 1e-12)
    values["base_qp_largest_ratio"] = (max(values[f"base_qp_largest_mm_{step_tag(h)}"] for h in STEPS)
                                       / values["base_qp_largest_mm_h1ms"])
    # Where the growth happens: E of the QP at h = 0.4 s and at 0.001 s by phase of the schedule,
    # against the truth and against the QP's own h = 0.002 s run (from the trajectory CSV: the
    # truth and the fine runs thinned to one sample per 5 ms).
    runs = _trajectories(run.path("base/timestep_trajectories.csv"))
    truth = next(r for k, r in runs.items() if k[0] == "ground_truth")
    reference = next(r for k, r in runs.items() if k[0] == "qp_reference")
    for h in (0.001, 0.4):
        qp = runs[("qp", h)]
        for name, a, b in PHASES:
            values[f"phase_{name}_qp_E_{step_tag(h)}"] = _phase_error(qp, truth, a, b)
            values[f"phase_{name}_qp_self_E_{step_tag(h)}"] = _phase_error(qp, reference, a, b)
    # The cube's slip in the grasp: its offset from the QP's own fine run at h = 0.4 s at the
    # knots of the schedule (there the hand is at the same commanded pose at every h), what the
    # lift and the swing add to it, and the same for the scene with a twice slower swing.
    def offsets(folder, knots):
        runs = _trajectories(run.path(f"{folder}/timestep_trajectories.csv"))
        reference = next(r for k, r in runs.items() if k[0] == "qp_reference")
        qp = runs[("qp", 0.4)]
        found = []
        for t in knots:
            k = int(np.argmin(abs(qp[:, 0] - t)))
            assert abs(qp[k, 0] - t) < 1e-9, (folder, t)
            found.append(qp[k, 1:4] - np.array([np.interp(t, reference[:, 0], reference[:, i])
                                                for i in (1, 2, 3)]))
        return found
    for folder, knots in (("base", (2.0, 4.0, 8.0, 9.6)), ("slow_swing", (2.0, 4.0, 12.0, 13.6))):
        o = offsets(folder, knots)
        key = folder.replace("_", "")
        values[f"{key}_slip_lift_mm"] = 1e3 * float(np.linalg.norm(o[1] - o[0]))
        values[f"{key}_slip_swing_mm"] = 1e3 * float(np.linalg.norm(o[2] - o[1]))
        values[f"{key}_offset_lowered_mm"] = 1e3 * float(np.linalg.norm(o[3]))
    values["slip_swing_ratio_slow_over_base"] = values["slowswing_slip_swing_mm"] / values["base_slip_swing_mm"]
    slow = csv_table.read_rows(run.path("slow_swing/timestep_errors.csv"))
    values["slowswing_qp_self_E_h400ms"] = next(r["E_position"] for r in slow if r["reference"] == "qp_reference")
    # The floor against which our growth would look flat (E(0.4) / E(0.001) <= FLAT).
    values["floor_for_flat"] = values["base_qp_growth"] / (FLAT - 1)
    # Fig. 8's angle: the largest difference of the cube's axis-angle angle between the truth and
    # the QP while it is lifted, t = 2.5 … 6 s.
    for h in (0.01, 0.4):
        qp = runs[("qp", h)]
        keep = (qp[:, 0] >= 2.5 - 1e-9) & (qp[:, 0] <= 6.0 + 1e-9)
        gt = np.interp(qp[keep, 0], truth[:, 0], truth[:, 4])
        values[f"lift_angle_difference_max_deg_{step_tag(h)}"] = float(np.max(abs(gt - qp[keep, 4])))
        values[f"lift_angle_truth_max_deg_{step_tag(h)}"] = float(np.max(gt))
        values[f"lift_angle_qp_max_deg_{step_tag(h)}"] = float(np.max(qp[keep, 4]))
    values["speedup_h400ms_over_h1ms"] = values["base_qp_wall_s_h1ms"] / values["base_qp_wall_s_h400ms"]
    values["speedup_h400ms_over_truth"] = values["truth_wall_s"] / values["base_qp_wall_s_h400ms"]
    return values


SOURCES = [
    Source(name="gripper", argv=["{build}/gripper_figures", "{out}/gripper.csv"],
           extract=_gripper, shown="build/release/gripper_figures out/gripper.csv"),
    Source(name="pt_gripper_info", argv=["{build}/quasidyn", "info", "examples/planar_gripper/scene.yaml"],
           extract=_info, tolerances={"*": EXACT}),
    Source(name="pt_gripper_q0",
           argv=["{build}/quasidyn", "simulate", "examples/planar_gripper/scene.yaml", "--steps", "1",
                 "--out", "{out}/g.json", "--quiet"],
           extract=_gripper_q0, shown="build/release/quasidyn simulate examples/planar_gripper/scene.yaml "
                                      "--steps 1 --out out/g.json"),
    Source(name="pt_arm_info", argv=["{build}/quasidyn", "info", "examples/arm_cubes/scene.yaml"],
           extract=_info, tolerances={"*": EXACT}),
    # The run of Fig. 1 at the scene's h = 0.01 s: what it does (cheap); its solve times apart
    # (long: a time on the shared machine is not checked in the default suite).
    Source(name="pt_arm_run",
           argv=["{build}/quasidyn", "simulate", "examples/arm_cubes/scene.yaml", "--formulation", "qp",
                 "--out", "{out}/arm.npz", "--quiet"],
           extract=_arm_run, shown="build/release/quasidyn simulate examples/arm_cubes/scene.yaml "
                                   "--formulation qp --out out/arm.npz",
           # Positions after 1040 interior-point steps: the last digits move with the build.
           tolerances={"cube_*": relative(1e-6, 1e-9), "contacts_mean": EXACT}),
    Source(name="pt_arm_solve_times", cost=LONG,
           argv=["{build}/quasidyn", "simulate", "examples/arm_cubes/scene.yaml", "--formulation", "qp",
                 "--out", "{out}/arm.npz", "--quiet"],
           extract=_arm_solve_times, shown="build/release/quasidyn simulate examples/arm_cubes/scene.yaml "
                                           "--formulation qp --out out/arm.npz",
           tolerances={"*_ms": timing(3)}),
    Source(name="pt_cvxopt",
           argv=["sh", "-c", "{build}/dump_solver_problems {out}/problems.json && "
                 "{python} tests/reference/cvxopt_reference.py {out}/problems.json"],
           extract=_cvxopt,
           shown="build/release/dump_solver_problems out/problems.json && /usr/bin/python3 "
                 "tests/reference/cvxopt_reference.py out/problems.json",
           # |x_ours − x_cvxopt| is the two solvers' round-off (1e-10 … 1e-5): only its size is the
           # figure, so a factor 2 (relative 1) and 1e-7 absolute; the counts are exact.
           tolerances={"*max_dx*": relative(1.0, 1e-7), "*": EXACT}),
    Source(name="pt_step_bench", cost=LONG,
           argv=["{build}/step_bench", "--benchmark_filter=^(BM_Part_SolveQp|BM_Calc/arm_cubes_qp)$",
                 "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                 "--benchmark_out={out}/bench.json", "--benchmark_out_format=json"],
           extract=_step_bench,
           shown="build/release/step_bench --benchmark_filter='^(BM_Part_SolveQp|BM_Calc/arm_cubes_qp)$' "
                 "--benchmark_repetitions=5 --benchmark_report_aggregates_only=true "
                 "--benchmark_out=out/bench.json",
           tolerances={"*_ms": timing(3), "step_contacts": EXACT}),
    Source(name="pt_large_scene_bench", cost=LONG,
           argv=["{build}/large_scene_bench", "--benchmark_filter=^BM_LargePlanarStep/qp/",
                 "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true",
                 "--benchmark_out={out}/bench.json", "--benchmark_out_format=json"],
           extract=_large_scene_bench,
           shown="build/release/large_scene_bench --benchmark_filter='^BM_LargePlanarStep/qp/' "
                 "--benchmark_repetitions=3 --benchmark_report_aggregates_only=true "
                 "--benchmark_out=out/bench.json",
           # The exponent is a slope through three timings: ±0.3 (a factor 3 at one end of a
           # tenfold range moves it by about 0.5; the medians of 3 move far less).
           tolerances={"*_ms": timing(3), "exponent": relative(0.0, 0.3),
                       "*heap*": relative(0.1), "*contacts": EXACT}),
    # The time-step study and its variants (one ground truth shared by three of them): minutes.
    Source(name="pt_timestep", cost=LONG, timeout_s=3600.0,
           argv=["bash", "examples/arm_cubes/timestep_variants.sh", "{build}", "{out}"],
           extract=_timestep,
           shown="bash examples/arm_cubes/timestep_variants.sh build/release out",
           # Integral errors of deterministic runs: the last digits move with the build (1e-4
           # relative); times on the shared machine within a factor 3 (ratios of two times too).
           tolerances={"*wall_s*": timing(3), "speedup*": timing(3), "*ratio": relative(1e-3),
                       "*": relative(1e-3, 1e-6)}),
]
