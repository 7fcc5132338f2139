// The time-step study of Pang & Tedrake 2021, §V-B (Fig. 7 and 8): the arm picks the red cube
// and places it on the stack; the scene is simulated with the QP of eq. (10) at several time
// steps h and compared with a fine-step reference by the total integral error of eq. (13),
//
//   E(h) = ∫₀ᵀ ‖p_cube,h(t) − p_cube,ref(t)‖ dt   [m·s]   (position of the cube's centre)
//   A(h) = ∫₀ᵀ angle(R_cube,h(t) R_cube,ref(t)ᵀ) dt   [rad·s] (orientation, reported apart)
//
// The reference is interpolated linearly (positions) / by slerp (orientations) at each run's
// times t_k = k·h, and the integrals use the trapezoidal rule on that grid. The paper's ground
// truth is a second-order simulator at h = 5e-5 s; here the reference is the same quasi-dynamic
// model at a fine step (default 0.002 s), so E(h) measures the discretisation error of the
// scheme itself. The table also gives the final cube position's distance to its target on the
// stack (0.55, −0.35, 0.28) m, the step count and the wall time.
//
// Objects' regularisation: object_mass_scale s = 100 s⁻²·h² (why: see ObjectMassScale). The
// contact tolerance is the scene's ε = 0.01 m at every h. It is not raised with h: on this
// schedule every contact that closes is within ε at the start of the step that closes it (at
// h = 0.4 s the fingers' gaps to the cube are 14 mm, 2 mm, then closed; the palm touches the
// cube from the grasp on; the lowering's last knot leaves the cube 6–9 mm above stack_top
// before the fingers open). That is a property of this schedule, not a guarantee for others; a
// skipped contact would show as a cube pushed into another and off its target in the table.
// (A larger ε would not be safe anyway: geometry/manifold_3d.h builds a manifold from the surface
// band of width ε − φ, which for ε above the 0.02 m finger thickness takes vertices from two faces
// and gives approximate φ.) What limits large h is the slip of the carried cube in the grasp (see
// the comment on the schedule in scene.yaml).
//
// Output (with --out DIR):
//   DIR/timestep_errors.csv       one row per h: h [s], steps,
//                                 E_position [m·s], E_angle [rad·s], final x, y, z [m],
//                                 final_error [m] (to the target), wall_seconds, status
//   DIR/timestep_trajectories.csv one row per sample: run (reference | study), h [s], t [s],
//                                 x, y, z [m] (cube centre), angle [deg] (axis-angle angle of
//                                 the cube's orientation in the world, as in Fig. 8)
//
// Usage: timestep_study [--out DIR] [--reference-h H] [--h H1,H2,...] [--quick] [scene.yaml]
//   --quick: reference h = 0.01 s and h ∈ {0.05, 0.1, 0.2, 0.4} (a few seconds; for tests).

#include <CLI/CLI.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/scene_loading.h"

namespace {

using quasidyn::Scene;

constexpr double kCoarsestStep = 0.4;  // [s]: the paper's largest h; the end time is a multiple

// The red cube's pose samples of one run, at t_k = k·h.
struct CubeTrajectory {
  double h = 0.0;
  std::vector<Eigen::Vector3d> position;
  std::vector<Eigen::Quaterniond> orientation;
  double wall_seconds = 0.0;
  std::string failure;  // empty when every step solved
};

// s = c·h², c = 100 s⁻²: with a fixed s the momentum reset every step drags a carried cube
// with m·v/h, unbounded as h → 0 (the fine runs would drop the cube); s ∝ h² keeps the
// objects' block in a fixed ratio to the robots' h²K_a (see dynamics/paper_arm_test.cc).
double ObjectMassScale(double h) { return 100.0 * h * h; }

CubeTrajectory Simulate(const Scene& scene, double h, double end_time) {
  const quasidyn::FormulationChoice qp("qp", {{"object_mass_scale", ObjectMassScale(h)}}, h);
  // The model shares a copy of the scene; one data object steps it.
  const std::shared_ptr<const quasidyn::StepModel> model =
      quasidyn::MakeStepModel(std::make_shared<const Scene>(scene), qp);
  const std::unique_ptr<quasidyn::StepData> data = model->CreateData();
  const int cube_q = scene.instances[scene.InstanceIndex("red_cube")].q_start;
  CubeTrajectory trajectory;
  trajectory.h = h;
  auto record = [&](const Eigen::VectorXd& q) {
    trajectory.position.push_back(q.segment<3>(cube_q));
    trajectory.orientation.emplace_back(q[cube_q + 3], q[cube_q + 4], q[cube_q + 5], q[cube_q + 6]);
  };
  const auto start = std::chrono::steady_clock::now();
  Eigen::VectorXd q = scene.q0;
  record(q);
  const int steps = static_cast<int>(std::lround(end_time / h));
  for (int k = 0; k < steps; ++k) {
    model->Calc(quasidyn::State{q, Eigen::VectorXd()}, scene.CommandAt((k + 1) * h), data.get());
    const quasidyn::StepResult& result = data->result;
    if (!result.ok()) {
      trajectory.failure = "step " + std::to_string(k) + ": " + result.message;
      break;
    }
    q = result.next.q;
    record(q);
  }
  trajectory.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return trajectory;
}

// Linear interpolation of the reference position and slerp of its orientation at time t.
void ReferenceAt(const CubeTrajectory& ref, double t, Eigen::Vector3d* p, Eigen::Quaterniond* r) {
  const int last = static_cast<int>(ref.position.size()) - 1;
  const double s = std::clamp(t / ref.h, 0.0, static_cast<double>(last));
  const int k = std::min(static_cast<int>(std::floor(s)), std::max(last - 1, 0));
  const double a = std::min(s - k, 1.0);
  const int k1 = std::min(k + 1, last);
  *p = (1 - a) * ref.position[k] + a * ref.position[k1];
  *r = ref.orientation[k].slerp(a, ref.orientation[k1]);
}

struct IntegralErrors {
  double position = 0.0;  // [m·s]
  double angle = 0.0;     // [rad·s]
};

// Eq. (13) of Pang & Tedrake 2021, trapezoidal rule on the run's grid.
IntegralErrors IntegralError(const CubeTrajectory& run, const CubeTrajectory& ref) {
  IntegralErrors errors;
  const int n = static_cast<int>(run.position.size());
  for (int k = 0; k < n; ++k) {
    Eigen::Vector3d p;
    Eigen::Quaterniond r;
    ReferenceAt(ref, k * run.h, &p, &r);
    const double weight = (k == 0 || k == n - 1) ? 0.5 * run.h : run.h;
    errors.position += weight * (run.position[k] - p).norm();
    errors.angle += weight * run.orientation[k].angularDistance(r);
  }
  return errors;
}

void WriteTrajectoryRows(const CubeTrajectory& run, const char* label, std::ostream& out) {
  constexpr double kDegrees = 180.0 / std::numbers::pi;
  for (size_t k = 0; k < run.position.size(); ++k) {
    const Eigen::Vector3d& p = run.position[k];
    const double angle = Eigen::AngleAxisd(run.orientation[k]).angle();
    out << label << "," << run.h << "," << k * run.h << "," << p.x() << "," << p.y() << "," << p.z()
        << "," << angle * kDegrees << "\n";
  }
}

struct Options {
  std::string output_directory;                                 // empty: print only
  double reference_h = 0.002;                                   // [s]
  std::vector<double> steps{0.005, 0.01, 0.05, 0.1, 0.2, 0.4};  // [s]
  std::string scene_path = std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml";
};

// The command line (CLI11): --help lists every option.
Options ParseOptions(int argc, char** argv) {
  Options options;
  CLI::App app{
      "timestep_study: the arm places the red cube at several time steps h; integral errors "
      "against a fine reference run (Pang & Tedrake 2021, §V-B, Fig. 7 and 8)"};
  app.add_option("--out", options.output_directory,
                 "Write timestep_errors.csv and timestep_trajectories.csv into this folder "
                 "(created if missing)");
  app.add_option("--reference-h", options.reference_h, "Reference time step [s] > 0")
      ->check(CLI::PositiveNumber);
  app.add_option("--h", options.steps, "Time steps to compare [s], comma separated")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  bool quick = false;
  app.add_flag("--quick", quick,
               "Reference h = 0.01 s and h in {0.05, 0.1, 0.2, 0.4} (a few seconds; for tests)");
  app.add_option("SCENE", options.scene_path, "The scene file (default: examples/arm_cubes)");
  bool quiet = false;
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  if (quiet) quasidyn::tools::SilenceStdout();
  if (quick) {
    options.reference_h = 0.01;
    options.steps = {0.05, 0.1, 0.2, 0.4};
  }
  for (double h : options.steps) {
    // Every run must end at the same time, a multiple of its own h.
    const double ratio = kCoarsestStep / h;
    if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio)
      throw std::invalid_argument("--h: " + std::to_string(h) + " s does not divide 0.4 s");
  }
  return options;
}

std::ofstream OpenOutput(const std::string& directory, const std::string& name) {
  std::filesystem::create_directories(directory);
  const std::string path = directory + "/" + name;
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.precision(10);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = ParseOptions(argc, argv);
    const Scene scene = quasidyn::LoadScene(options.scene_path);
    // At least one second after the last command, so every run has settled; a multiple of
    // the coarsest h = 0.4 s, hence of every h of the table.
    const double end_time = kCoarsestStep * std::ceil((scene.ScheduleEnd() + 1.0) / kCoarsestStep);
    const Eigen::Vector3d target(0.55, -0.35, 0.28);  // on stack_top (z = 0.2 + 0.08)

    std::ofstream errors_csv, trajectories_csv;
    if (!options.output_directory.empty()) {
      errors_csv = OpenOutput(options.output_directory, "timestep_errors.csv");
      trajectories_csv = OpenOutput(options.output_directory, "timestep_trajectories.csv");
      errors_csv << "h,steps,E_position,E_angle,final_x,final_y,final_z,"
                    "final_error,wall_seconds,status\n";
      trajectories_csv << "run,h,t,x,y,z,angle_deg\n";
    }

    const CubeTrajectory ref = Simulate(scene, options.reference_h, end_time);
    if (!ref.failure.empty()) {
      std::cerr << "reference run failed at " << ref.failure << "\n";
      return 1;
    }
    if (trajectories_csv.is_open()) WriteTrajectoryRows(ref, "reference", trajectories_csv);
    // The scale E is compared with: how far the cube travels, integrated over time.
    double travel = 0.0;
    for (size_t k = 0; k < ref.position.size(); ++k)
      travel += ref.h * (ref.position[k] - ref.position[0]).norm();
    std::printf(
        "reference h = %g s over %g s: %zu steps, %.1f s wall; final cube position "
        "(%.4f, %.4f, %.4f) m; ∫‖p_ref(t) − p_ref(0)‖dt = %.4f m·s; ε = %g m\n",
        options.reference_h, end_time, ref.position.size() - 1, ref.wall_seconds,
        ref.position.back().x(), ref.position.back().y(), ref.position.back().z(), travel,
        scene.contact_tolerance);
    std::printf("%8s %16s %16s %18s %7s %10s\n", "h [s]", "E_pos [m·s]", "E_angle [rad·s]",
                "final error [mm]", "steps", "wall [s]");
    bool all_solved = true;
    for (double h : options.steps) {
      const CubeTrajectory run = Simulate(scene, h, end_time);
      const IntegralErrors e = IntegralError(run, ref);
      const Eigen::Vector3d end = run.position.back();
      if (!run.failure.empty()) {
        all_solved = false;
        std::printf("%8g failed at %s\n", h, run.failure.c_str());
      } else {
        std::printf("%8g %16.5f %16.5f %18.2f %7zu %10.2f\n", h, e.position, e.angle,
                    1e3 * (end - target).norm(), run.position.size() - 1, run.wall_seconds);
      }
      if (errors_csv.is_open()) {
        // A failed run's errors cover only the steps it made; its status says so.
        errors_csv << h << "," << run.position.size() - 1 << "," << e.position << "," << e.angle
                   << "," << end.x() << "," << end.y() << "," << end.z() << ","
                   << (end - target).norm() << "," << run.wall_seconds << ","
                   << (run.failure.empty() ? "solved" : "failed") << "\n";
        WriteTrajectoryRows(run, "study", trajectories_csv);
      }
    }
    return all_solved ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "timestep_study: " << e.what() << "\n";
    return 1;
  }
}
