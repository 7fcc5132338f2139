#include "quasidyn/simulation/rollout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/parallel_for.h"
#include "quasidyn/simulation/coordinate_names.h"

namespace quasidyn {
namespace {

constexpr size_t kMaxTrajectoryBytes = size_t{8} << 30;  // 8 GiB

// A trajectory keeps q and u (and A, B when asked) of every step: refuse up front a run whose
// record alone would not fit in kMaxTrajectoryBytes, instead of failing with std::bad_alloc
// midway. `steps`: of one rollout, or of all the rollouts of a batch together.
void CheckRecordSize(const char* where, const StepModel& model, double steps,
                     GradientMode gradients) {
  const Scene& scene = model.scene();
  const double nx = scene.nq + model.state_v_size();  // the size of x = (q, v)
  const double nu = model.control_size();
  double doubles_per_step = nx + nu + scene.nv_u;
  if (gradients != GradientMode::kNone) doubles_per_step += nx * nu;
  if (gradients == GradientMode::kAAndB) doubles_per_step += nx * nx;
  const double bytes_per_step = sizeof(TrajectoryStep) + sizeof(double) * doubles_per_step;
  QUASIDYN_CHECK_ARGUMENT(
      steps * bytes_per_step <= static_cast<double>(kMaxTrajectoryBytes), where,
      std::to_string(static_cast<long long>(steps)) + " steps would record more than " +
          std::to_string(kMaxTrajectoryBytes >> 30) + " GiB of trajectory; run fewer steps");
}

// x0 fits the model's state: q of size n_q, v of the model's state size, finite.
void CheckInitialState(std::string_view where, const StepModel& model, const State& x0) {
  CheckVector(where, "x0.q", x0.q, model.scene().nq, "n_q");
  CheckSize(where, "x0.v", x0.v.size(), model.state_v_size(), "the model's n_v of its state");
  CheckFinite(where, "x0.v", x0.v);
}

// One command per row, each of the model's command size (n_q,a, or n_v,u for ecp: the objects'
// impulses), finite.
void CheckCommands(std::string_view where, const StepModel& model,
                   const Eigen::MatrixXd& commands) {
  const int nu = model.control_size();
  QUASIDYN_CHECK_ARGUMENT(
      commands.rows() == 0 || commands.cols() == nu, where,
      "commands has " + std::to_string(commands.cols()) + " columns, expected " +
          (nu == model.scene().nq_a ? "n_q,a = " : "n_v,u = ") + std::to_string(nu));
  for (Eigen::Index k = 0; k < commands.rows(); ++k)
    CheckFinite(where, "commands row " + std::to_string(k), commands.row(k).transpose());
}

// The one rollout loop: N steps from x0, u_k = command(k, t_k, x_{k−1}), with `data` (a new
// one, or one whose warm start the caller has cleared: StepModel::ClearWarmStart makes the next
// Calc a function of (x, u) alone, so both give the same bits).
template <typename Command>
Trajectory RunRollout(const StepModel& model, const State& x0, int steps, Command command,
                      const RolloutOptions& options, StepData* data) {
  Trajectory trajectory = StartTrajectory(model, x0, steps);
  const double h = model.time_step();
  State x = x0;
  for (int k = 1; k <= steps; ++k) {
    const double t = k * h;  // not accumulated: exactly k·h up to one rounding
    const Eigen::VectorXd u = command(k, t, x);
    const auto start = std::chrono::steady_clock::now();
    model.Calc(x, u, data);
    const double step_time =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const StepResult& result = data->result;
    trajectory.status = result.status;
    if (!result.ok()) {
      std::ostringstream message;
      message << "step " << k << " (t = " << t << " s) failed: " << ToString(result.status);
      if (!result.message.empty()) message << ": " << result.message;
      trajectory.message = message.str();
      break;
    }
    x = result.next;
    AppendStep(x, u, &result, &trajectory);
    TrajectoryStep& record = trajectory.steps.back();
    record.step_time_seconds = step_time;
    if (options.gradients != GradientMode::kNone) {
      model.CalcDiff(options.gradients, data);
      const StepDerivatives& d = data->derivatives;
      record.gradient_status = d.status;
      record.gradient_message = d.message;
      if (d.ok()) {
        record.A = d.A;
        record.B = d.B;
      }
    }
    if (options.progress) options.progress(static_cast<double>(k) / steps);
  }
  return trajectory;
}

}  // namespace

Trajectory StartTrajectory(const StepModel& model, const State& x0, int steps_requested) {
  const Scene& scene = model.scene();
  Trajectory trajectory;
  trajectory.scene = model.scene_ptr();
  trajectory.scene_name = scene.name;
  trajectory.scene_file = scene.source_file;
  trajectory.formulation = model.formulation().name;
  trajectory.time_step = model.time_step();
  for (const ParameterValue& p : model.parameters().values())
    if (p.value.size() == 1) trajectory.parameters.Set(p.key, p.value(0, 0));
  trajectory.nq = scene.nq;
  trajectory.nv = scene.nv;
  trajectory.nq_u = scene.nq_u;
  // A command other than the robots' (ecp's: the objects' applied generalized impulse).
  if (model.control_size() != scene.nq_a) trajectory.nu = model.control_size();
  trajectory.coordinate_names = CoordinateNames(scene);
  trajectory.q0 = x0.q;
  trajectory.v0 = x0.v;
  trajectory.steps_requested = steps_requested;
  trajectory.steps.reserve(steps_requested);
  return trajectory;
}

FormulationChoice ChoiceOf(const Trajectory& trajectory) {
  return FormulationChoice(trajectory.formulation, trajectory.parameters, trajectory.time_step);
}

void AppendStep(const Eigen::VectorXd& q, const Eigen::VectorXd& u, const StepResult* result,
                Trajectory* trajectory) {
  AppendStep(State{q, Eigen::VectorXd()}, u, result, trajectory);
}

void AppendStep(const State& x, const Eigen::VectorXd& u, const StepResult* result,
                Trajectory* trajectory) {
  TrajectoryStep record;
  record.k = trajectory->steps_done + 1;
  record.t = record.k * trajectory->time_step;
  record.q = x.q;
  record.v = x.v;
  record.u = u;
  record.status = SolverStatus::kSolved;
  if (result != nullptr) {
    record.status = result->status;
    record.solver = result->solver;
    record.momentum_force = result->momentum_force;
    record.max_body_motion = result->max_body_motion;
    record.large_motion = result->large_motion;
    if (result->large_motion) ++trajectory->large_motion_steps;
    if (trajectory->scene != nullptr && trajectory->scene->HasJointLimits())
      record.joint_limit_impulse = result->joint_limit_impulse;
    record.contacts.reserve(result->contacts.size());
    for (const ContactReport& report : result->contacts)
      record.contacts.push_back(NamedContactRecord(*trajectory->scene, report));
  }
  trajectory->steps.push_back(std::move(record));
  trajectory->steps_done = trajectory->steps.back().k;
  trajectory->steps_requested = std::max(trajectory->steps_requested, trajectory->steps_done);
  trajectory->status = trajectory->steps.back().status;
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
  record.normal_impulse = report.normal_impulse;
  record.friction_impulse = report.friction_impulse;
  record.torsional_impulse = report.torsional_impulse;
  record.torsional_moment = report.torsional_moment;
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
  return RolloutFrom(model, InitialState(model), options);
}

Trajectory RolloutFrom(const StepModel& model, const State& x0, const RolloutOptions& options) {
  constexpr const char* kWhere = "Rollout";
  QUASIDYN_CHECK_ARGUMENT(
      options.steps >= 0, kWhere,
      "the step count must be >= 0 (got " + std::to_string(options.steps) + ")");
  CheckInitialState(kWhere, model, x0);
  CheckRecordSize(kWhere, model, options.steps, options.gradients);
  return RunRollout(
      model, x0, options.steps,
      [&model](int, double t, const State& x) { return model.ScheduledCommand(t, x); }, options,
      model.CreateData().get());
}

Trajectory RolloutCommands(const StepModel& model, const State& x0, const Eigen::MatrixXd& commands,
                           const RolloutOptions& options) {
  constexpr const char* kWhere = "RolloutCommands";
  CheckInitialState(kWhere, model, x0);
  CheckCommands(kWhere, model, commands);
  const int steps = static_cast<int>(commands.rows());
  CheckRecordSize(kWhere, model, steps, options.gradients);
  return RunRollout(
      model, x0, steps,
      [&commands](int k, double, const State&) -> Eigen::VectorXd {
        return commands.row(k - 1).transpose();
      },
      options, model.CreateData().get());
}

std::vector<Trajectory> RolloutBatch(const StepModel& model, const std::vector<State>& x0s,
                                     const std::vector<Eigen::MatrixXd>& commands,
                                     const RolloutOptions& options, int threads) {
  constexpr const char* kWhere = "RolloutBatch";
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, kWhere,
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  const bool scheduled = commands.empty();
  QUASIDYN_CHECK_ARGUMENT(scheduled || commands.size() == x0s.size(), kWhere,
                          "one command matrix per rollout: " + std::to_string(commands.size()) +
                              " for " + std::to_string(x0s.size()) + " initial states");
  QUASIDYN_CHECK_ARGUMENT(
      !scheduled || options.steps >= 0, kWhere,
      "the step count must be >= 0 (got " + std::to_string(options.steps) + ")");
  double total_steps = 0;
  for (size_t b = 0; b < x0s.size(); ++b) {
    const std::string where = "rollout " + std::to_string(b);
    CheckInitialState(where, model, x0s[b]);
    if (!scheduled) CheckCommands(where, model, commands[b]);
    total_steps += scheduled ? options.steps : static_cast<double>(commands[b].rows());
  }
  CheckRecordSize(kWhere, model, total_steps, options.gradients);
  RolloutOptions single = options;
  single.progress = nullptr;
  std::vector<Trajectory> trajectories(x0s.size());
  // One data object per worker, made by the worker on its first rollout (its buffers then
  // belong to that thread's heap) and kept for its next ones, the warm start cleared before
  // each: nothing passes from one rollout to the next, as between two single calls.
  std::vector<std::unique_ptr<StepData>> data(static_cast<size_t>(threads));
  ParallelFor(x0s.size(), threads, [&](size_t worker, size_t b) {
    std::unique_ptr<StepData>& own = data[worker];
    if (own == nullptr) own = model.CreateData();
    model.ClearWarmStart(own.get());
    if (scheduled) {
      trajectories[b] = RunRollout(
          model, x0s[b], options.steps,
          [&model](int, double t, const State& x) { return model.ScheduledCommand(t, x); }, single,
          own.get());
    } else {
      const Eigen::MatrixXd& rows = commands[b];
      trajectories[b] = RunRollout(
          model, x0s[b], static_cast<int>(rows.rows()),
          [&rows](int k, double, const State&) -> Eigen::VectorXd {
            return rows.row(k - 1).transpose();
          },
          single, own.get());
    }
  });
  return trajectories;
}

}  // namespace quasidyn
