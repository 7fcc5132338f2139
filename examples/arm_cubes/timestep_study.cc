// The time-step study of Pang & Tedrake 2021, §V-B (Fig. 7): the arm picks the red cube and
// places it on the stack; the scene is simulated with the QP of eq. (10) at several time
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
// Objects' regularisation: object_mass_scale = 100 s⁻²·h² (why: see Simulate).
//
// Usage: timestep_study [reference h, s] [scene.yaml]

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/quasi_dynamic_stepper.h"
#include "quasidyn/io/scene_loader.h"

namespace {

using quasidyn::Scene;

// The red cube's pose samples of one run, at t_k = k·h.
struct CubeTrajectory {
  double h = 0.0;
  std::vector<Eigen::Vector3d> position;
  std::vector<Eigen::Quaterniond> orientation;
  double wall_seconds = 0.0;
  std::string failure;  // empty when every step solved
};

CubeTrajectory Simulate(const Scene& scene, double h, double end_time) {
  quasidyn::FormulationSettings settings = quasidyn::SettingsFromScene(scene);
  settings.type = quasidyn::FormulationType::kQp;
  settings.time_step = h;
  // s = c·h², c = 100 s⁻²: with a fixed s the momentum reset every step drags a carried
  // cube with m·v/h, unbounded as h → 0 (the fine runs would drop the cube); s ∝ h² keeps
  // the objects' block in a fixed ratio to the robots' h²K_a (see dynamics/paper_arm_test.cc).
  settings.object_mass_scale = 100.0 * h * h;
  quasidyn::QuasiDynamicStepper stepper(scene, settings);
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
    const quasidyn::StepResult result = stepper.Step(q, scene.CommandAt((k + 1) * h));
    if (!result.ok()) {
      trajectory.failure = "step " + std::to_string(k) + ": " + result.message;
      break;
    }
    q = result.q_next;
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

}  // namespace

int main(int argc, char** argv) {
  try {
    const double reference_h = argc > 1 ? std::stod(argv[1]) : 0.002;
    const std::string path =
        argc > 2 ? argv[2] : std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml";
    const Scene scene = quasidyn::LoadScene(path);
    // At least one second after the last command, so every run has settled; a multiple of
    // the coarsest h = 0.4 s, hence of every h of the table.
    const double end_time = 0.4 * std::ceil((scene.ScheduleEnd() + 1.0) / 0.4);
    const Eigen::Vector3d target(0.55, -0.35, 0.28);  // on stack_top (z = 0.2 + 0.08)

    const CubeTrajectory ref = Simulate(scene, reference_h, end_time);
    if (!ref.failure.empty()) {
      std::cerr << "reference run failed at " << ref.failure << "\n";
      return 1;
    }
    // The scale E is compared with: how far the cube travels, integrated over time.
    double travel = 0.0;
    for (size_t k = 0; k < ref.position.size(); ++k)
      travel += ref.h * (ref.position[k] - ref.position[0]).norm();
    std::printf(
        "reference h = %g s over %g s: %zu steps, %.1f s wall; final cube position "
        "(%.4f, %.4f, %.4f) m; ∫‖p_ref(t) − p_ref(0)‖dt = %.4f m·s\n",
        reference_h, end_time, ref.position.size() - 1, ref.wall_seconds, ref.position.back().x(),
        ref.position.back().y(), ref.position.back().z(), travel);
    std::printf("%8s %16s %16s %18s %7s %10s\n", "h [s]", "E_pos [m·s]", "E_angle [rad·s]",
                "final error [mm]", "steps", "wall [s]");
    for (double h : {0.005, 0.01, 0.05, 0.1, 0.2, 0.4}) {
      const CubeTrajectory run = Simulate(scene, h, end_time);
      if (!run.failure.empty()) {
        std::printf("%8g failed at %s\n", h, run.failure.c_str());
        continue;
      }
      const IntegralErrors e = IntegralError(run, ref);
      std::printf("%8g %16.5f %16.5f %18.2f %7zu %10.2f\n", h, e.position, e.angle,
                  1e3 * (run.position.back() - target).norm(), run.position.size() - 1,
                  run.wall_seconds);
    }
  } catch (const std::exception& e) {
    std::cerr << "timestep_study: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
