// The red cube's trajectory in one run of the arm_cubes pick and place, any formulation, and
// the total integral error of Pang & Tedrake 2021, eq. (13), between two such runs:
//
//   E = ∫₀ᵀ ‖p_run(t) − p_ref(t)‖ dt   [m·s]   (position of the cube's centre)
//   A = ∫₀ᵀ angle(R_run(t) R_ref(t)ᵀ) dt   [rad·s] (orientation, reported apart)
//
// The reference is interpolated linearly (positions) / by slerp (orientations) at the run's
// sample times and the integrals use the trapezoidal rule on the run's grid.
//
// A run continues past a failed step: the model keeps the state (step_model.h), the schedule
// moves on, and the run counts the failures and keeps the first one's message. A state that
// is no longer finite, or a cube farther than kLostDistance from its start, ends the run; the
// cube's last pose is then held to the end time so that E covers the same interval for every
// run (the status says which runs were cut short).
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"

namespace arm_cubes {

// [m]: a cube this far from where it started has left the 1 m workspace of the arm: thrown.
constexpr double kLostDistance = 5.0;

struct CubeTrajectory {
  std::string formulation;  // the registered name ("qp", "anitescu", ...)
  double h = 0.0;           // the time step [s], > 0
  int stride = 1;           // one sample every `stride` steps: sample k is at t = k·stride·h
  std::vector<Eigen::Vector3d> position;        // [m], the cube's centre in the world
  std::vector<Eigen::Quaterniond> orientation;  // the cube's orientation in the world
  double wall_seconds = 0.0;                    // [s] of stepping
  int failed_steps = 0;                         // steps whose solve failed (state kept)
  std::string first_failure;  // "step k (t = … s): message" of the first failed step
  std::string cut_short;      // why the run ended before the end time, or empty

  double SampleInterval() const { return stride * h; }  // [s]
  bool Solved() const { return failed_steps == 0 && cut_short.empty(); }
};

// Runs `choice` (its time step is h [s]) from the model's initial state over [0, end_time]
// [s] (a multiple of h) under the scene's schedule, recording every `stride`-th state (>= 1;
// end_time / h must be a multiple of it). `progress`, when given, is called with the share of
// the steps done (0 … 1) after every hundredth of them. Step k takes the schedule's command at
// its end, q̄_a(t_{k+1}); with `command_at_step_start` at its start, q̄_a(t_k) (a controller whose
// input is sampled once per step at the step's start: the command lags by one step).
inline CubeTrajectory SimulateCube(const quasidyn::Scene& scene,
                                   const quasidyn::FormulationChoice& choice, double end_time,
                                   int stride = 1,
                                   const std::function<void(double)>& progress = nullptr,
                                   bool command_at_step_start = false) {
  const std::shared_ptr<const quasidyn::StepModel> model =
      quasidyn::MakeStepModel(std::make_shared<const quasidyn::Scene>(scene), choice);
  const std::unique_ptr<quasidyn::StepData> data = model->CreateData();
  const int cube_q = scene.instances[scene.InstanceIndex("red_cube")].q_start;
  CubeTrajectory run;
  run.formulation = choice.name;
  run.h = model->time_step();
  run.stride = stride;
  auto record = [&](const Eigen::VectorXd& q) {
    run.position.push_back(q.segment<3>(cube_q));
    run.orientation.emplace_back(q[cube_q + 3], q[cube_q + 4], q[cube_q + 5], q[cube_q + 6]);
  };
  const auto start = std::chrono::steady_clock::now();
  quasidyn::State x = quasidyn::InitialState(*model);
  record(x.q);
  const long steps = std::lround(end_time / run.h);
  for (long k = 0; k < steps; ++k) {
    const double t = (k + 1) * run.h;
    model->Calc(x, model->ScheduledCommand(command_at_step_start ? k * run.h : t, x), data.get());
    const quasidyn::StepResult& result = data->result;
    if (!result.ok()) {
      if (run.failed_steps++ == 0)
        run.first_failure = "step " + std::to_string(k) + " (t = " + std::to_string(k * run.h) +
                            " s): " + result.message;
    }
    x = result.next;  // a failed step's `next` is x itself
    const Eigen::Vector3d p = x.q.segment<3>(cube_q);
    if (!x.q.allFinite() || (x.v.size() > 0 && !x.v.allFinite()) ||
        (p - run.position.front()).norm() > kLostDistance) {
      run.cut_short =
          "step " + std::to_string(k) + " (t = " + std::to_string(t) + " s): " +
          (x.q.allFinite() && x.v.allFinite() ? "the cube left the workspace (farther than 5 m)"
                                              : "the state is no longer finite");
      break;
    }
    if ((k + 1) % stride == 0) record(x.q);
    if (progress && (k + 1) % std::max(steps / 100, 1L) == 0)
      progress(static_cast<double>(k + 1) / steps);
  }
  // A run cut short holds the cube's last finite pose to the end time.
  const size_t samples = static_cast<size_t>(steps / stride) + 1;
  while (run.position.size() < samples) {
    run.position.push_back(run.position.back());
    run.orientation.push_back(run.orientation.back());
  }
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// The reference's pose at t [s]: linear interpolation of the position, slerp of the orientation.
inline void PoseAt(const CubeTrajectory& ref, double t, Eigen::Vector3d* p, Eigen::Quaterniond* r) {
  const int last = static_cast<int>(ref.position.size()) - 1;
  const double s = std::clamp(t / ref.SampleInterval(), 0.0, static_cast<double>(last));
  const int k = std::min(static_cast<int>(std::floor(s)), std::max(last - 1, 0));
  const double a = std::min(s - k, 1.0);
  const int k1 = std::min(k + 1, last);
  *p = (1 - a) * ref.position[k] + a * ref.position[k1];
  *r = ref.orientation[k].slerp(a, ref.orientation[k1]);
}

struct IntegralErrors {
  double position = 0.0;  // E [m·s]
  double angle = 0.0;     // A [rad·s]
  // The first time [s] at which the cube is farther than `departure` [m] or turned more than
  // `departure_angle` [rad] from the reference, or < 0 when it never is.
  double departure_time = -1.0;
  double largest_distance = 0.0;    // [m] over the run's samples
  double largest_angle = 0.0;       // [rad] over the run's samples
  double largest_angle_time = 0.0;  // [s]
};

// Eq. (13) of Pang & Tedrake 2021, trapezoidal rule on the run's grid; `departure` [m] > 0,
// `departure_angle` [rad] > 0.
inline IntegralErrors IntegralError(const CubeTrajectory& run, const CubeTrajectory& ref,
                                    double departure, double departure_angle) {
  IntegralErrors errors;
  const int n = static_cast<int>(run.position.size());
  const double dt = run.SampleInterval();
  for (int k = 0; k < n; ++k) {
    Eigen::Vector3d p;
    Eigen::Quaterniond r;
    PoseAt(ref, k * dt, &p, &r);
    const double weight = (k == 0 || k == n - 1) ? 0.5 * dt : dt;
    const double distance = (run.position[k] - p).norm();
    const double angle = run.orientation[k].angularDistance(r);
    errors.position += weight * distance;
    errors.angle += weight * angle;
    if ((distance > departure || angle > departure_angle) && errors.departure_time < 0)
      errors.departure_time = k * dt;
    errors.largest_distance = std::max(errors.largest_distance, distance);
    if (angle > errors.largest_angle) {
      errors.largest_angle = angle;
      errors.largest_angle_time = k * dt;
    }
  }
  return errors;
}

// E [m·s] of eq. (13) integrated on the reference's grid instead of the run's (trapezoidal rule
// over the reference's samples, which must cover the run's interval on a finer grid): the run
// between its own samples either held at its last sample (`held`: a zero-order hold, what a
// discrete simulator outputs between its updates) or interpolated linearly between them.
inline double IntegralErrorOnReferenceGrid(const CubeTrajectory& run, const CubeTrajectory& ref,
                                           bool held) {
  const int n = static_cast<int>(ref.position.size());
  const int last = static_cast<int>(run.position.size()) - 1;
  const double dt = ref.SampleInterval();
  double error = 0.0;
  for (int k = 0; k < n; ++k) {
    const double s = std::clamp(k * dt / run.SampleInterval(), 0.0, static_cast<double>(last));
    // Samples of the run that fall on the reference's grid count as reached (1e-9 of a step).
    const int j = std::min(static_cast<int>(std::floor(s + 1e-9)), last);
    const double a = held ? 0.0 : std::clamp(s - j, 0.0, 1.0);
    const Eigen::Vector3d p = (1 - a) * run.position[j] + a * run.position[std::min(j + 1, last)];
    error += ((k == 0 || k == n - 1) ? 0.5 * dt : dt) * (p - ref.position[k]).norm();
  }
  return error;
}

// ∫‖p(t) − p(0)‖dt [m·s] of a run: how far the cube travels, integrated over time (the scale E
// is compared with).
inline double MotionIntegral(const CubeTrajectory& run) {
  double travel = 0.0;
  for (const Eigen::Vector3d& p : run.position)
    travel += run.SampleInterval() * (p - run.position.front()).norm();
  return travel;
}

}  // namespace arm_cubes
