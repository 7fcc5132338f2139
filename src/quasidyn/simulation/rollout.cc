#include "quasidyn/simulation/rollout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/simulation/coordinate_names.h"

namespace quasidyn {
namespace {

constexpr size_t kMaxTrajectoryBytes = size_t{8} << 30;  // 8 GiB

}  // namespace

Trajectory EmptyTrajectory(const StepModel& model, int steps) {
  const Scene& scene = model.scene();
  const FormulationSettings& settings = model.settings();
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

Trajectory Rollout(const StepModel& model, const RolloutOptions& options) {
  QUASIDYN_CHECK_ARGUMENT(
      options.steps >= 0, "Rollout",
      "the step count must be >= 0 (got " + std::to_string(options.steps) + ")");
  const Scene& scene = model.scene();
  // A trajectory keeps q and u of every step: refuse up front a run whose record alone would
  // not fit in kMaxTrajectoryBytes, instead of failing with std::bad_alloc midway.
  const double bytes_per_step =
      sizeof(TrajectoryStep) + sizeof(double) * static_cast<double>(scene.nq + scene.nq_a);
  QUASIDYN_CHECK_ARGUMENT(
      options.steps * bytes_per_step <= static_cast<double>(kMaxTrajectoryBytes), "Rollout",
      std::to_string(options.steps) + " steps would record more than " +
          std::to_string(kMaxTrajectoryBytes >> 30) + " GiB of trajectory; run fewer steps");
  Trajectory trajectory = EmptyTrajectory(model, options.steps);
  const double h = model.time_step();
  const std::unique_ptr<StepData> data = model.CreateData();
  State x = InitialState(scene);
  for (int k = 1; k <= options.steps; ++k) {
    TrajectoryStep record;
    record.t = k * h;  // not accumulated: exactly k·h up to one rounding
    record.u = model.ScheduledCommand(record.t, x);
    const auto start = std::chrono::steady_clock::now();
    model.Calc(x, record.u, data.get());
    record.step_time_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const StepResult& result = data->result;
    trajectory.status = result.status;
    if (!result.ok()) {
      std::ostringstream message;
      message << "step " << k << " (t = " << record.t << " s) failed: " << ToString(result.status);
      if (!result.message.empty()) message << ": " << result.message;
      trajectory.message = message.str();
      break;
    }
    x = result.next;
    record.q = x.q;
    record.status = result.status;
    record.solver = result.solver;
    record.contacts.reserve(result.contacts.size());
    for (const ContactReport& report : result.contacts)
      record.contacts.push_back(NamedContactRecord(scene, report));
    trajectory.steps.push_back(std::move(record));
    if (options.progress) options.progress(static_cast<double>(k) / options.steps);
  }
  return trajectory;
}

}  // namespace quasidyn
