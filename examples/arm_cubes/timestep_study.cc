// The time-step study of Pang & Tedrake 2021, §V-B (Fig. 7 and 8): the arm picks the red cube
// and places it on the stack. As in the paper, the ground truth is a second-order simulation
// at h = 5e-5 s (the paper: Drake's MultibodyPlant; here the `anitescu` formulation,
// docs/formulations.md, "stewart-trinkle and anitescu"), and the total integral error of
// eq. (13) (arm_cubes/cube_trajectory.h) is measured at each h for two simulators:
//   * the second-order formulation itself (the paper's MultibodyPlant curve);
//   * the quasi-dynamic QP of eq. (10) (the paper's quasistatic curve).
// The QP's error against its own fine step (--reference-h) is kept as a second table: it is
// the scheme's discretisation error alone, while the error against the second-order truth
// also holds the difference of the two models (quasi-dynamic vs full dynamics), its floor.
//
// The QP runs with object_mass_scale s = 100 s⁻²·h² (why: see QpChoice; another c of s = c·h²
// with --object-mass-coefficient) and the scene's contact tolerance ε = 0.01 m at every h (why
// that suffices at h = 0.4 s: see the schedule's comment in scene.yaml and docs/formulations.md
// §V-B). --command-at-step-start gives the QP's steps the command one step late, and
// examples/arm_cubes/timestep_variants.sh runs the study with each such difference (docs/
// formulations.md, "Why ours is not flat"). The second-order formulation runs with its
// defaults (critically damped joint impedance) and the same ε.
// Every run goes on past failed steps (the state is kept, step_model.h); the table and the CSV
// give each run's failed steps, the first failure's message, the first time the cube is more
// than kDeparture from the ground truth and whether it ends on stack_top.
//
// The ground truth is written to a file once (arm_cubes/ground_truth_file.h; default
// DIR/ground_truth_<formulation>_h<h>.csv) and read back by later runs of the same scene.
//
// Output (with --out DIR):
//   DIR/timestep_errors.csv       one row per run: formulation, reference (ground_truth |
//                                 qp_reference), h [s], steps, E_position [m·s],
//                                 E_angle [rad·s], departure_t [s] (first time > 40 mm or
//                                 > 10° from the reference; −1: never), largest_distance [m],
//                                 largest_angle [rad] (to the reference), final x, y, z
//                                 [m], final_error [m] (to the target), on_stack (1 | 0),
//                                 wall_seconds, failed_steps, status (solved | failed_steps |
//                                 cut_short), what_happened (text, no commas), E_held and
//                                 E_interpolated [m·s] (E on the reference's grid with the run
//                                 held at its last sample / interpolated between its samples,
//                                 cube_trajectory.h IntegralErrorOnReferenceGrid)
//   DIR/timestep_trajectories.csv one row per sample: run (ground_truth | qp_reference | the
//                                 formulation), h [s], t [s], x, y, z [m] (cube centre),
//                                 angle [deg] (axis-angle angle of the cube's orientation in
//                                 the world, as in Fig. 8); at most one sample per 5 ms
//
// Usage: timestep_study [--out DIR] [--h H1,H2,...] [--reference-h H] [--ground-truth-h H]
//                       [--ground-truth FILE] [--second-order NAME] [--damping-ratio ζ]
//                       [--object-mass-coefficient C] [--command-at-step-start] [--quick]
//                       [scene.yaml]
//   --quick: ground truth at h = 0.001 s, QP reference h = 0.01 s and h ∈ {0.05, 0.1, 0.2, 0.4}
//   (seconds; for tests).

#include <CLI/CLI.hpp>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arm_cubes/cube_trajectory.h"
#include "arm_cubes/ground_truth_file.h"
#include "common/tool_options.h"
#include "quasidyn/kinematics/kinematics.h"

namespace {

using arm_cubes::CubeTrajectory;
using quasidyn::Scene;

constexpr double kCoarsestStep = 0.4;     // [s]: the paper's largest h; the end time is a multiple
constexpr double kSampleInterval = 5e-4;  // [s]: the ground truth is kept on this grid
constexpr double kPlotInterval = 5e-3;    // [s]: at most one trajectory row per this interval
constexpr double kDeparture = 0.04;       // [m]: half the cube's side
constexpr double kDepartureAngle = 10.0 * std::numbers::pi / 180.0;  // [rad]: a tipped cube
const Eigen::Vector3d kTarget(0.55, -0.35, 0.28);  // [m]: the cube's centre on stack_top

// s = c·h², c = 100 s⁻² by default: with a fixed s the momentum reset every step drags a
// carried cube with m·v/h, unbounded as h → 0 (the fine runs would drop the cube); s ∝ h² keeps
// the objects' block in a fixed ratio to the robots' h²K_a (see stepping/paper_arm_test.cc).
// c = 0 is the paper's QP (10), which has no objects' term (--object-mass-coefficient).
quasidyn::FormulationChoice QpChoice(double h, double mass_coefficient) {
  return quasidyn::FormulationChoice("qp", {{"object_mass_scale", mass_coefficient * h * h}}, h);
}

struct Options {
  std::string output_directory;  // empty: print only
  std::vector<double> steps{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4};  // [s]
  double reference_h = 0.002;     // [s]: the QP's own fine step
  double ground_truth_h = 5e-5;   // [s]
  std::string ground_truth_path;  // empty: DIR/ground_truth_<formulation>_h<h>.csv
  std::string second_order = "anitescu";
  double damping_ratio = 1.0;          // ζ >= 0 of the robots' joints in the second-order runs
  double mass_coefficient = 100.0;     // [s⁻²]: the QP's object_mass_scale s = c·h²
  bool command_at_step_start = false;  // the QP's step k takes q̄_a(t_k) instead of q̄_a(t_{k+1})
  bool show_progress = false;          // a progress line on stderr while the ground truth runs
  std::string scene_path = std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml";
};

// The command line (CLI11): --help lists every option.
Options ParseOptions(int argc, char** argv) {
  Options options;
  CLI::App app{
      "timestep_study: the arm places the red cube at several time steps h under a "
      "second-order formulation and the quasi-dynamic QP; integral errors against a "
      "second-order ground truth (Pang & Tedrake 2021, §V-B, Fig. 7 and 8)"};
  app.add_option("--out", options.output_directory,
                 "Write timestep_errors.csv, timestep_trajectories.csv and the ground truth "
                 "into this folder (created if missing)");
  app.add_option("--h", options.steps, "Time steps to compare [s], comma separated")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--reference-h", options.reference_h, "The QP's own reference step [s] > 0")
      ->check(CLI::PositiveNumber);
  app.add_option("--ground-truth-h", options.ground_truth_h,
                 "The second-order ground truth's step [s] > 0 (the paper: 5e-5)")
      ->check(CLI::PositiveNumber);
  app.add_option("--ground-truth", options.ground_truth_path,
                 "The ground-truth file: read when it holds this scene's run at this step, "
                 "else computed and written (default: DIR/ground_truth_<formulation>_h<h>.csv)");
  app.add_option("--second-order", options.second_order,
                 "The second-order formulation: anitescu (default) or stewart-trinkle");
  app.add_option("--damping-ratio", options.damping_ratio,
                 "The robots' damping in the second-order runs as a ratio ζ >= 0 of critical "
                 "damping, D = ζ·2·sqrt(K·M_jj(q0)) (default 1: the scene's default)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--object-mass-coefficient", options.mass_coefficient,
                 "c of the QP's object_mass_scale s = c·h² [s⁻²] >= 0 (default 100; 0: the "
                 "paper's QP (10), no objects' term)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--command-at-step-start", options.command_at_step_start,
               "The QP's step from t_k to t_k + h takes the command at t_k (a controller sampled "
               "at the step's start: a lag of one step) instead of at t_k + h");
  bool quick = false;
  app.add_flag("--quick", quick,
               "Ground truth h = 0.001 s, QP reference h = 0.01 s and h in {0.05, 0.1, 0.2, "
               "0.4} (seconds; for tests)");
  app.add_option("SCENE", options.scene_path, "The scene file (default: examples/arm_cubes)");
  bool quiet = false;
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  if (quiet) quasidyn::tools::SilenceStdout();
  options.show_progress = quasidyn::tools::ShowsProgress(quiet);
  if (quick) {
    options.ground_truth_h = 0.001;
    options.reference_h = 0.01;
    options.steps = {0.05, 0.1, 0.2, 0.4};
  }
  for (double h : options.steps) {
    // Every run must end at the same time, a multiple of its own h.
    const double ratio = kCoarsestStep / h;
    if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio)
      throw std::invalid_argument("--h: " + std::to_string(h) + " s does not divide 0.4 s");
  }
  if (options.second_order != "anitescu" && options.second_order != "stewart-trinkle")
    throw std::invalid_argument("--second-order: " + options.second_order +
                                " is not anitescu or stewart-trinkle");
  return options;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::ofstream OpenOutput(const std::string& directory, const std::string& name) {
  std::filesystem::create_directories(directory);
  const std::string path = directory + "/" + name;
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.precision(10);
  return out;
}

// The ground truth: read from its file when that holds this run, else simulated (and written).
CubeTrajectory GroundTruth(const Options& options, const Scene& scene, double end_time) {
  // ζ is part of what the file was computed from (the scene text does not hold it).
  char formulation[96];
  std::snprintf(formulation, sizeof formulation, "%s_zeta%g", options.second_order.c_str(),
                options.damping_ratio);
  const double h = options.ground_truth_h;
  const long steps = std::lround(end_time / h);
  const long ratio = std::lround(kSampleInterval / h);
  const int stride = (ratio > 1 && std::abs(ratio * h - kSampleInterval) < 1e-9 * kSampleInterval &&
                      steps % ratio == 0)
                         ? static_cast<int>(ratio)
                         : 1;
  std::string path = options.ground_truth_path;
  if (path.empty() && !options.output_directory.empty()) {
    char name[128];
    std::snprintf(name, sizeof name, "ground_truth_%s_h%g.csv",
                  options.damping_ratio == 1.0 ? options.second_order.c_str() : formulation, h);
    std::filesystem::create_directories(options.output_directory);
    path = options.output_directory + "/" + name;
  }
  const std::string key =
      arm_cubes::GroundTruthKey(formulation, h, stride, end_time, ReadText(options.scene_path));
  if (!path.empty()) {
    if (auto stored = arm_cubes::ReadGroundTruth(path, key, options.second_order, h, stride)) {
      if (stored->position.size() != static_cast<size_t>(steps / stride + 1))
        throw std::runtime_error(path + ": " + std::to_string(stored->position.size()) +
                                 " samples, expected " + std::to_string(steps / stride + 1));
      std::printf("ground truth read from %s (computed in %.1f s)\n", path.c_str(),
                  stored->wall_seconds);
      return *stored;
    }
  }
  std::fprintf(stderr, "computing the ground truth: %s, h = %g s, %ld steps ...\n",
               options.second_order.c_str(), h, steps);
  auto show = [](double done) { std::fprintf(stderr, "\r  %3.0f %%", 100 * done); };
  CubeTrajectory truth = arm_cubes::SimulateCube(
      scene, quasidyn::FormulationChoice(options.second_order, {}, h), end_time, stride,
      options.show_progress ? std::function<void(double)>(show) : nullptr);
  if (options.show_progress) std::fprintf(stderr, "\n");
  if (!path.empty()) arm_cubes::WriteGroundTruth(path, key, truth);
  return truth;
}

// The scene with each robot joint's damping set to ζ·2·sqrt(K·M_jj(q0)), ζ >= 0 (ζ = 1: critical
// damping of the joint's own inertia, the second-order models' default, stepping/
// second_order_model.h); the quasi-dynamic QP does not use damping.
Scene WithDampingRatio(Scene scene, double zeta) {
  quasidyn::Kinematics kinematics(std::make_shared<const Scene>(scene));
  kinematics.Update(scene.q0);
  const Eigen::MatrixXd mass = kinematics.MassMatrix();
  for (quasidyn::Joint& joint : scene.joints)
    if (joint.stiffness > 0)
      joint.damping = zeta * 2.0 * std::sqrt(joint.stiffness * mass(joint.v_start, joint.v_start));
  return scene;
}

// 2/ω_max [s]: the largest h at which the robots' joint springs K_a, taken explicitly (at the
// start of the step, as a controller sampled once per step acts), stay stable on their own
// inertia M_aa(q0): symplectic Euler on ẍ = −ω²x is stable iff h·ω < 2 (the trace of its
// amplification matrix, 2 − h²ω², must lie in (−2, 2)), ω² the generalized eigenvalues of
// (K_a, M_aa). Our second-order step takes K_a and D_a at the end of the step (implicit Euler,
// docs/formulations.md, "stewart-trinkle and anitescu"), stable at every h.
double ExplicitImpedanceStepLimit(const Scene& scene) {
  quasidyn::Kinematics kinematics(std::make_shared<const Scene>(scene));
  kinematics.Update(scene.q0);
  const Eigen::MatrixXd robots = kinematics.MassMatrix().bottomRightCorner(scene.nv_a, scene.nv_a);
  const Eigen::MatrixXd stiffness = scene.ActuatedStiffness().asDiagonal();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> modes(stiffness, robots);
  return 2.0 / std::sqrt(modes.eigenvalues().maxCoeff());
}

bool OnStack(const Eigen::Vector3d& p) {
  return std::abs(p.z() - kTarget.z()) < 0.01 && (p - kTarget).head<2>().norm() < kDeparture;
}

// What happened in `run` against `ref`, in words without commas (a CSV field).
std::string WhatHappened(const CubeTrajectory& run, const CubeTrajectory& ref,
                         const arm_cubes::IntegralErrors& e) {
  std::string text;
  auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  if (run.failed_steps > 0)
    add(std::to_string(run.failed_steps) + " failed steps; first at " + run.first_failure);
  if (!run.cut_short.empty()) add("cut short at " + run.cut_short);
  if (e.departure_time >= 0) {
    Eigen::Vector3d p_ref, p = run.position[std::lround(e.departure_time / run.SampleInterval())];
    Eigen::Quaterniond r_ref;
    arm_cubes::PoseAt(ref, e.departure_time, &p_ref, &r_ref);
    char part[240];
    std::snprintf(part, sizeof part,
                  "left the reference (> %.0f mm or > %.0f deg) at t = %.3f s (dz = %+.0f mm "
                  "then); at most %.0f mm and %.1f deg (at t = %.3f s) from it",
                  1e3 * kDeparture, kDepartureAngle * 180 / std::numbers::pi, e.departure_time,
                  1e3 * (p.z() - p_ref.z()), 1e3 * e.largest_distance,
                  e.largest_angle * 180 / std::numbers::pi, e.largest_angle_time);
    add(part);
  }
  const Eigen::Vector3d end = run.position.back();
  char part[96];
  std::snprintf(part, sizeof part, "ends %s (%.1f mm from the target)",
                OnStack(end) ? "on stack_top" : "off stack_top", 1e3 * (end - kTarget).norm());
  add(part);
  std::replace(text.begin(), text.end(), ',', ';');
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

const char* Status(const CubeTrajectory& run) {
  return !run.cut_short.empty() ? "cut_short" : run.failed_steps > 0 ? "failed_steps" : "solved";
}

void WriteTrajectoryRows(const CubeTrajectory& run, const std::string& label, std::ostream& out) {
  if (!out) return;
  constexpr double kDegrees = 180.0 / std::numbers::pi;
  const double dt = run.SampleInterval();
  const long thin = std::max(1L, std::lround(kPlotInterval / dt));
  for (size_t k = 0; k < run.position.size(); k += thin) {
    const Eigen::Vector3d& p = run.position[k];
    const double angle = Eigen::AngleAxisd(run.orientation[k].normalized()).angle();
    out << label << "," << run.h << "," << k * dt << "," << p.x() << "," << p.y() << "," << p.z()
        << "," << angle * kDegrees << "\n";
  }
}

struct Comparison {
  CubeTrajectory run;
  arm_cubes::IntegralErrors errors;
};

// One row of the errors CSV.
void WriteErrorRow(const Comparison& c, const CubeTrajectory& ref, const char* reference,
                   std::ostream& out) {
  if (!out) return;
  const Eigen::Vector3d end = c.run.position.back();
  out << c.run.formulation << "," << reference << "," << c.run.h << ","
      << std::lround(c.run.SampleInterval() * (c.run.position.size() - 1) / c.run.h) << ","
      << c.errors.position << "," << c.errors.angle << "," << c.errors.departure_time << ","
      << c.errors.largest_distance << "," << c.errors.largest_angle << "," << end.x() << ","
      << end.y() << "," << end.z() << "," << (end - kTarget).norm() << "," << OnStack(end) << ","
      << c.run.wall_seconds << "," << c.run.failed_steps << "," << Status(c.run) << ","
      << WhatHappened(c.run, ref, c.errors) << ","
      << arm_cubes::IntegralErrorOnReferenceGrid(c.run, ref, true) << ","
      << arm_cubes::IntegralErrorOnReferenceGrid(c.run, ref, false) << "\n";
}

// "E (A)" of a run, with a mark when its cube left the reference or a step failed.
std::string Cell(const Comparison& c) {
  char cell[64];
  std::snprintf(cell, sizeof cell, "%9.4f %8.4f %s", c.errors.position, c.errors.angle,
                !c.run.Solved()                ? "FAILED"
                : c.errors.departure_time >= 0 ? "left"
                                               : "ok");
  return cell;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = ParseOptions(argc, argv);
    const Scene scene = quasidyn::LoadScene(options.scene_path);
    const Scene second_order_scene =
        options.damping_ratio == 1.0 ? scene : WithDampingRatio(scene, options.damping_ratio);
    // At least one second after the last command, so every run has settled; a multiple of
    // the coarsest h = 0.4 s, hence of every h of the table.
    const double end_time = kCoarsestStep * std::ceil((scene.ScheduleEnd() + 1.0) / kCoarsestStep);

    std::ofstream errors_csv, trajectories_csv;
    if (!options.output_directory.empty()) {
      errors_csv = OpenOutput(options.output_directory, "timestep_errors.csv");
      trajectories_csv = OpenOutput(options.output_directory, "timestep_trajectories.csv");
      errors_csv << "formulation,reference,h,steps,E_position,E_angle,departure_t,largest_distance,"
                    "largest_angle,final_x,"
                    "final_y,final_z,final_error,on_stack,wall_seconds,failed_steps,status,"
                    "what_happened,E_held,E_interpolated\n";
      trajectories_csv << "run,h,t,x,y,z,angle_deg\n";
    }

    const CubeTrajectory truth = GroundTruth(options, second_order_scene, end_time);
    WriteTrajectoryRows(truth, "ground_truth", trajectories_csv);
    std::printf(
        "ground truth: %s (robots' damping ratio ζ = %g) at h = %g s over %g s: %.1f s wall, %d "
        "failed steps%s%s; final cube "
        "position (%.4f, %.4f, %.4f) m; ∫‖p(t) − p(0)‖dt = %.4f m·s; ε = %g m\n",
        options.second_order.c_str(), options.damping_ratio, truth.h, end_time, truth.wall_seconds,
        truth.failed_steps, truth.cut_short.empty() ? "" : "; cut short at ",
        truth.cut_short.c_str(), truth.position.back().x(), truth.position.back().y(),
        truth.position.back().z(), arm_cubes::MotionIntegral(truth), scene.contact_tolerance);
    if (!truth.Solved())
      std::printf("  ground truth's first failure: %s\n", truth.first_failure.c_str());

    std::printf(
        "an explicit joint impedance would be stable only for h < 2/ω_max = %.2f ms (this arm's "
        "K_a against its M_aa(q0)); ours is implicit\n",
        1e3 * ExplicitImpedanceStepLimit(scene));

    const CubeTrajectory qp_reference =
        arm_cubes::SimulateCube(scene, QpChoice(options.reference_h, options.mass_coefficient),
                                end_time, 1, nullptr, options.command_at_step_start);
    WriteTrajectoryRows(qp_reference, "qp_reference", trajectories_csv);
    Comparison floor{qp_reference,
                     arm_cubes::IntegralError(qp_reference, truth, kDeparture, kDepartureAngle)};
    floor.run.formulation = "qp_reference";  // the floor's row, apart from the sweep's h
    WriteErrorRow(floor, truth, "ground_truth", errors_csv);
    std::printf(
        "model difference (floor): the QP at its reference h = %g s against the ground truth: "
        "E = %.4f m·s, A = %.4f rad·s\n",
        options.reference_h, floor.errors.position, floor.errors.angle);
    std::printf("the QP: object_mass_scale s = %g s⁻²·h²; step k takes the command at t_%s\n",
                options.mass_coefficient,
                options.command_at_step_start ? "k (one step late)" : "k+1");

    std::printf("\nAgainst the %s ground truth (E [m·s], A [rad·s]):\n",
                options.second_order.c_str());
    std::printf("%8s | %-30s | %-30s | %s\n", "h [s]", options.second_order.c_str(), "qp (10)",
                "qp against its own h_ref: E, A");
    bool all_qp_solved = qp_reference.Solved();
    std::vector<std::string> notes, grid_rows;
    for (double h : options.steps) {
      const CubeTrajectory second_run = arm_cubes::SimulateCube(
          second_order_scene, quasidyn::FormulationChoice(options.second_order, {}, h), end_time);
      const Comparison second{
          second_run, arm_cubes::IntegralError(second_run, truth, kDeparture, kDepartureAngle)};
      const CubeTrajectory qp_run =
          arm_cubes::SimulateCube(scene, QpChoice(h, options.mass_coefficient), end_time, 1,
                                  nullptr, options.command_at_step_start);
      const Comparison qp{qp_run,
                          arm_cubes::IntegralError(qp_run, truth, kDeparture, kDepartureAngle)};
      // Against its own reference only where the reference is the finer run.
      const bool coarser = h > options.reference_h * (1 + 1e-9);
      const Comparison qp_self{
          qp_run, arm_cubes::IntegralError(qp_run, qp_reference, kDeparture, kDepartureAngle)};
      all_qp_solved = all_qp_solved && qp_run.Solved();
      char grid_row[160];
      std::snprintf(grid_row, sizeof grid_row, "%8g | %9.4f | %9.4f | %9.4f", h, qp.errors.position,
                    arm_cubes::IntegralErrorOnReferenceGrid(qp_run, truth, true),
                    arm_cubes::IntegralErrorOnReferenceGrid(qp_run, truth, false));
      grid_rows.push_back(grid_row);
      std::printf("%8g | %-30s | %-30s | %s\n", h, Cell(second).c_str(), Cell(qp).c_str(),
                  coarser ? Cell(qp_self).c_str() : "(not coarser than h_ref)");
      notes.push_back(options.second_order + " h = " + std::to_string(h) + ": " +
                      WhatHappened(second_run, truth, second.errors) + " [" +
                      std::to_string(second_run.wall_seconds) + " s]");
      notes.push_back("qp h = " + std::to_string(h) + ": " +
                      WhatHappened(qp_run, truth, qp.errors) + " [" +
                      std::to_string(qp_run.wall_seconds) + " s]");
      WriteErrorRow(second, truth, "ground_truth", errors_csv);
      WriteErrorRow(qp, truth, "ground_truth", errors_csv);
      if (coarser) WriteErrorRow(qp_self, qp_reference, "qp_reference", errors_csv);
      WriteTrajectoryRows(second_run, options.second_order, trajectories_csv);
      WriteTrajectoryRows(qp_run, "qp", trajectories_csv);
    }
    std::printf(
        "\nThe QP's E [m·s] three ways: on its own grid (the table above), on the ground "
        "truth's grid with the run held between its samples, and interpolated between them:\n");
    std::printf("%8s | %9s | %9s | %9s\n", "h [s]", "own grid", "held", "interp.");
    for (const std::string& row : grid_rows) std::printf("%s\n", row.c_str());
    std::printf("\n");
    for (const std::string& note : notes) std::printf("  %s\n", note.c_str());
    // The second-order runs may fail or lose the cube at large h (that is the finding); the
    // exit status is about the QP and the ground truth.
    return all_qp_solved && truth.Solved() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "timestep_study: " << e.what() << "\n";
    return 1;
  }
}
