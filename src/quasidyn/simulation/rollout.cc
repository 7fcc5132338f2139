#include "quasidyn/simulation/rollout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>

#include "quasidyn/dynamics/quasi_dynamic_stepper.h"
#include "quasidyn/simulation/coordinate_names.h"

namespace quasidyn {
namespace {

Trajectory EmptyTrajectory(const Scene& scene, const FormulationSettings& settings, int steps) {
  Trajectory trajectory;
  trajectory.scene_name = scene.name;
  trajectory.scene_file = scene.source_file;
  trajectory.formulation = FormulationName(settings.type);
  trajectory.time_step = settings.time_step;
  trajectory.kappa = settings.kappa;
  trajectory.object_mass_scale = settings.object_mass_scale;
  trajectory.nq = scene.nq;
  trajectory.nv = scene.nv;
  trajectory.nq_u = scene.nq_u;
  trajectory.coordinate_names = CoordinateNames(scene);
  trajectory.q0 = scene.q0;
  trajectory.steps_requested = steps;
  trajectory.steps.reserve(steps);
  return trajectory;
}

bool Succeeded(SolverStatus status) {
  return status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate;
}

}  // namespace

ContactRecord NamedContactRecord(const Scene& scene, const ContactReport& report) {
  ContactRecord record;
  record.shape_a = scene.geometries.at(report.geometry_a).name;
  record.shape_b = scene.geometries.at(report.geometry_b).name;
  record.body_a = scene.bodies.at(report.body_a).name;
  record.body_b = scene.bodies.at(report.body_b).name;
  record.point = report.point;
  record.normal = report.normal;
  record.phi_start = report.phi_start;
  record.phi_end = report.phi_end;
  record.normal_force = report.normal_force;
  record.friction_force = report.friction_force;
  return record;
}

int StepCountForDuration(double duration, double time_step) {
  if (!(time_step > 0) || !std::isfinite(time_step))
    throw std::invalid_argument("time step h must be finite and > 0 (got " +
                                std::to_string(time_step) + ")");
  if (!(duration >= 0) || !std::isfinite(duration))
    throw std::invalid_argument("duration must be finite and >= 0 (got " +
                                std::to_string(duration) + ")");
  const double ratio = duration / time_step;
  if (ratio > 1e9)
    throw std::invalid_argument("duration / h = " + std::to_string(ratio) +
                                " steps is more than 10^9");
  const double nearest = std::round(ratio);
  if (std::abs(ratio - nearest) <= 1e-9 * std::max(1.0, ratio)) return static_cast<int>(nearest);
  return static_cast<int>(std::ceil(ratio));
}

Trajectory Rollout(const Scene& scene, const FormulationSettings& settings,
                   const RolloutOptions& options) {
  if (options.steps < 0)
    throw std::invalid_argument("rollout step count must be >= 0 (got " +
                                std::to_string(options.steps) + ")");
  QuasiDynamicStepper stepper(scene, settings);  // validates h
  return Rollout(scene, settings, options,
                 [&stepper](const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
                   return stepper.Step(q, u);
                 });
}

Trajectory Rollout(const Scene& scene, const FormulationSettings& settings,
                   const RolloutOptions& options, const StepFunction& step) {
  if (options.steps < 0)
    throw std::invalid_argument("rollout step count must be >= 0 (got " +
                                std::to_string(options.steps) + ")");
  if (!(settings.time_step > 0) || !std::isfinite(settings.time_step))
    throw std::invalid_argument("time step h must be finite and > 0 (got " +
                                std::to_string(settings.time_step) + ")");
  if (!step) throw std::invalid_argument("rollout needs a step function");
  if (scene.q0.size() != scene.nq)
    throw std::invalid_argument("scene.q0 has size " + std::to_string(scene.q0.size()) +
                                ", expected n_q = " + std::to_string(scene.nq));

  Trajectory trajectory = EmptyTrajectory(scene, settings, options.steps);
  const double h = settings.time_step;
  Eigen::VectorXd q = scene.q0;
  for (int k = 1; k <= options.steps; ++k) {
    TrajectoryStep record;
    record.t = k * h;  // not accumulated: exactly k·h up to one rounding
    record.u = scene.CommandAt(record.t);
    const auto start = std::chrono::steady_clock::now();
    StepResult result;
    try {
      result = step(q, record.u);
    } catch (const std::exception& e) {
      result.status = SolverStatus::kNumericalFailure;
      result.message = e.what();
    }
    record.step_time_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    trajectory.status = result.status;
    if (!Succeeded(result.status)) {
      std::ostringstream message;
      message << "step " << k << " (t = " << record.t << " s) failed: " << ToString(result.status);
      if (!result.message.empty()) message << ": " << result.message;
      trajectory.message = message.str();
      break;
    }
    q = result.q_next;
    record.q = q;
    record.status = result.status;
    record.solver = result.info;
    record.contacts.reserve(result.contacts.size());
    for (const ContactReport& report : result.contacts)
      record.contacts.push_back(NamedContactRecord(scene, report));
    trajectory.steps.push_back(std::move(record));
    if (options.progress) options.progress(static_cast<double>(k) / options.steps);
  }
  return trajectory;
}

}  // namespace quasidyn
