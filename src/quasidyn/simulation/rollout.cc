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
  if (commands.allFinite()) return;  // the row's name is made only for the message
  for (Eigen::Index k = 0; k < commands.rows(); ++k)
    CheckFinite(where, "commands row " + std::to_string(k), commands.row(k).transpose());
}

// `name` into `out` unless it already holds it. A refilled record (RolloutBatchInto) mostly
// names the pair it named in the last batch: comparing reads, copying also writes. A name of
// more than 15 characters lives in a buffer of its own, which then stays clean, so a record
// that the other worker refills next does not have to fetch it back from this CPU.
void KeepOrAssign(const std::string& name, std::string* out) {
  if (*out != name) *out = name;
}

// NamedContactRecord into an existing record (its strings keep their storage).
void NameContactRecord(const Scene& scene, const ContactReport& report, ContactRecord* record) {
  KeepOrAssign(scene.geometries.at(report.geometry_a).name, &record->shape_a);
  KeepOrAssign(scene.geometries.at(report.geometry_b).name, &record->shape_b);
  KeepOrAssign(scene.bodies.at(report.body_a).name, &record->body_a);
  KeepOrAssign(scene.bodies.at(report.body_b).name, &record->body_b);
  record->point = report.point;
  record->normal = report.normal;
  record->phi_start = report.phi_start;
  record->phi_end = report.phi_end;
  record->normal_force = report.normal_force;
  record->friction_force = report.friction_force;
  record->normal_impulse = report.normal_impulse;
  record->friction_impulse = report.friction_impulse;
  record->torsional_impulse = report.torsional_impulse;
  record->torsional_moment = report.torsional_moment;
}

// A step's record from the state after it, its command and (when given) its result, as
// AppendStep describes. Every field AppendStep sets is written, the derivatives' fields are
// left to the caller; an assignment keeps the storage of a record that had the same sizes (a
// refilled record: RolloutBatchInto), so a record of the same shape allocates nothing.
void FillStep(const State& x, const Eigen::VectorXd& u, const StepResult* result,
              Trajectory* trajectory, TrajectoryStep* record) {
  record->k = trajectory->steps_done + 1;
  record->t = record->k * trajectory->time_step;
  record->q = x.q;
  record->v = x.v;
  record->u = u;
  record->step_time_seconds = 0.0;
  if (result == nullptr) {
    record->status = SolverStatus::kSolved;
    record->solver = SolverSummary();
    record->max_body_motion = 0.0;
    record->large_motion = false;
    record->momentum_force.resize(0);
    record->joint_limit_impulse.resize(0);
    record->contacts.clear();
  } else {
    record->status = result->status;
    record->solver = result->solver;
    record->momentum_force = result->momentum_force;
    record->max_body_motion = result->max_body_motion;
    record->large_motion = result->large_motion;
    if (result->large_motion) ++trajectory->large_motion_steps;
    if (trajectory->scene != nullptr && trajectory->scene->HasJointLimits())
      record->joint_limit_impulse = result->joint_limit_impulse;
    else
      record->joint_limit_impulse.resize(0);
    // resize keeps the records already there (their names' storage); only more contacts than
    // the record held before allocate
    record->contacts.resize(result->contacts.size());
    for (size_t c = 0; c < result->contacts.size(); ++c)
      NameContactRecord(*trajectory->scene, result->contacts[c], &record->contacts[c]);
  }
  trajectory->steps_done = record->k;
  trajectory->steps_requested = std::max(trajectory->steps_requested, trajectory->steps_done);
  trajectory->status = record->status;
}

// The record of the next step: the trajectory's record number `index` when it already holds one
// (a trajectory refilled by RolloutBatchInto: its storage is overwritten in place), a new one
// appended otherwise.
TrajectoryStep& NextRecord(size_t index, Trajectory* trajectory) {
  if (index < trajectory->steps.size()) return trajectory->steps[index];
  return trajectory->steps.emplace_back();
}

// The one rollout loop: N steps from x0, u_k = command(k, t_k, x_{k−1}) written into u, with
// `data` (a new one, or one whose warm start the caller has cleared: StepModel::ClearWarmStart
// makes the next Calc a function of (x, u) alone, so both give the same bits). `trajectory`
// holds StartTrajectory's header (or its copy) and either no steps or the records of an earlier
// rollout, overwritten in place (every field written, AppendStep's values); records beyond the
// steps done are dropped. x and u are the caller's buffers (a worker's, kept between rollouts):
// once they and the trajectory have their sizes, a step allocates nothing of its own.
template <typename Command>
void RunRollout(const StepModel& model, const State& x0, int steps, Command command,
                const RolloutOptions& options, StepData* data, State* x, Eigen::VectorXd* u,
                Trajectory* trajectory) {
  const double h = model.time_step();
  *x = x0;
  for (int k = 1; k <= steps; ++k) {
    if (Cancelled(options.cancel)) {
      trajectory->message = "interrupted before step " + std::to_string(k);
      break;
    }
    const double t = k * h;  // not accumulated: exactly k·h up to one rounding
    command(k, t, *x, u);
    const auto start = std::chrono::steady_clock::now();
    model.Calc(*x, *u, data);
    const double step_time =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const StepResult& result = data->result;
    trajectory->status = result.status;
    if (!result.ok()) {
      std::ostringstream message;
      message << "step " << k << " (t = " << t << " s) failed: " << ToString(result.status);
      if (!result.message.empty()) message << ": " << result.message;
      trajectory->message = message.str();
      break;
    }
    x->q = result.next.q;
    x->v = result.next.v;
    TrajectoryStep& record = NextRecord(static_cast<size_t>(k - 1), trajectory);
    FillStep(*x, *u, &result, trajectory, &record);
    record.step_time_seconds = step_time;
    record.gradient_status = SolverStatus::kNotRun;
    record.gradient_message.clear();
    bool derivatives = false;
    if (options.gradients != GradientMode::kNone) {
      model.CalcDiff(options.gradients, data);
      const StepDerivatives& d = data->derivatives;
      record.gradient_status = d.status;
      record.gradient_message = d.message;
      if (d.ok()) {
        record.A = d.A;
        record.B = d.B;
        derivatives = true;
      }
    }
    if (!derivatives) {  // empty, as in a new record (no-ops when already empty)
      record.A.resize(0, 0);
      record.B.resize(0, 0);
    }
    if (options.progress) options.progress(static_cast<double>(k) / steps);
  }
  trajectory->steps.resize(static_cast<size_t>(trajectory->steps_done));
}

// The scene's schedule, u_k = model.ScheduledCommand(t_k, x_{k−1}), into the rollout's buffer.
auto ScheduledCommands(const StepModel& model) {
  return [&model](int, double t, const State& x, Eigen::VectorXd* u) {
    model.ScheduledCommandInto(t, x, u);
  };
}

// The caller's commands, u_k = row k − 1.
auto CommandRows(const Eigen::MatrixXd& rows) {
  return [&rows](int k, double, const State&, Eigen::VectorXd* u) {
    *u = rows.row(k - 1).transpose();
  };
}

// A single rollout: a new trajectory, data object and buffers.
template <typename Command>
Trajectory SingleRollout(const StepModel& model, const State& x0, int steps, Command command,
                         const RolloutOptions& options) {
  Trajectory trajectory = StartTrajectory(model, x0, steps);
  State x;
  Eigen::VectorXd u;
  RunRollout(model, x0, steps, command, options, model.CreateData().get(), &x, &u, &trajectory);
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
  TrajectoryStep record;  // filled before it is appended: x or u may be a record's own
  FillStep(x, u, result, trajectory, &record);
  trajectory->steps.push_back(std::move(record));
}

ContactRecord NamedContactRecord(const Scene& scene, const ContactReport& report) {
  ContactRecord record;
  NameContactRecord(scene, report, &record);
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
  return SingleRollout(model, x0, options.steps, ScheduledCommands(model), options);
}

Trajectory RolloutCommands(const StepModel& model, const State& x0, const Eigen::MatrixXd& commands,
                           const RolloutOptions& options) {
  constexpr const char* kWhere = "RolloutCommands";
  CheckInitialState(kWhere, model, x0);
  CheckCommands(kWhere, model, commands);
  const int steps = static_cast<int>(commands.rows());
  CheckRecordSize(kWhere, model, steps, options.gradients);
  return SingleRollout(model, x0, steps, CommandRows(commands), options);
}

namespace {

// The checks of a batch (RolloutBatch): T, the commands' count, N, every rollout's x0 and
// commands, and the record's size.
void CheckBatch(const StepModel& model, const std::vector<State>& x0s,
                const std::vector<Eigen::MatrixXd>& commands, const RolloutOptions& options,
                int threads) {
  constexpr const char* kBatchWhere = "RolloutBatch";
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, kBatchWhere,
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  const bool scheduled = commands.empty();
  QUASIDYN_CHECK_ARGUMENT(scheduled || commands.size() == x0s.size(), kBatchWhere,
                          "one command matrix per rollout: " + std::to_string(commands.size()) +
                              " for " + std::to_string(x0s.size()) + " initial states");
  QUASIDYN_CHECK_ARGUMENT(
      !scheduled || options.steps >= 0, kBatchWhere,
      "the step count must be >= 0 (got " + std::to_string(options.steps) + ")");
  double total_steps = 0;
  for (size_t b = 0; b < x0s.size(); ++b) {
    const std::string where = "rollout " + std::to_string(b);
    CheckInitialState(where, model, x0s[b]);
    if (!scheduled) CheckCommands(where, model, commands[b]);
    total_steps += scheduled ? options.steps : static_cast<double>(commands[b].rows());
  }
  CheckRecordSize(kBatchWhere, model, total_steps, options.gradients);
}

// `trajectory` as StartTrajectory(model, x0, steps) makes it (a copy of `header`, the model's,
// with x0 and N), its records kept for RunRollout to overwrite: assignments into storage of
// the same sizes allocate nothing.
void RestartTrajectory(const Trajectory& header, const State& x0, int steps,
                       Trajectory* trajectory) {
  std::vector<TrajectoryStep> records = std::move(trajectory->steps);
  *trajectory = header;  // header.steps is empty
  trajectory->steps = std::move(records);
  trajectory->q0 = x0.q;
  trajectory->v0 = x0.v;
  trajectory->steps_requested = steps;
  trajectory->steps.reserve(static_cast<size_t>(steps));
}

}  // namespace

RolloutWorkspace::RolloutWorkspace(std::shared_ptr<const StepModel> model)
    : model_(std::move(model)) {
  QUASIDYN_CHECK_ARGUMENT(model_ != nullptr, "RolloutWorkspace", "the model is null");
  header_ = StartTrajectory(*model_, InitialState(*model_), 0);
}

RolloutWorkspace::~RolloutWorkspace() = default;

const std::vector<Trajectory>& RolloutBatchInto(const std::vector<State>& x0s,
                                                const std::vector<Eigen::MatrixXd>& commands,
                                                const RolloutOptions& options, int threads,
                                                RolloutWorkspace* workspace) {
  QUASIDYN_CHECK_ARGUMENT(workspace != nullptr, "RolloutBatch", "the workspace is null");
  const StepModel& model = *workspace->model_;
  CheckBatch(model, x0s, commands, options, threads);
  // One buffer set per worker, kept between calls, all made and sized here (not on a worker's
  // first rollout: which workers take items depends on the schedule, so a lazily made set would
  // allocate in whichever later call first hands its worker an item); the warm start cleared
  // before each rollout: nothing passes from one rollout to the next, as between two single
  // calls.
  if (workspace->workers_.size() < static_cast<size_t>(threads))
    workspace->workers_.resize(static_cast<size_t>(threads));
  for (int w = 0; w < threads && !x0s.empty(); ++w) {
    RolloutWorkspace::Worker& own = workspace->workers_[w];
    if (own.data == nullptr) own.data = model.CreateData();
    own.x.q.resize(x0s.front().q.size());
    own.x.v.resize(x0s.front().v.size());
    own.u.resize(model.control_size());
  }
  workspace->trajectories_.resize(x0s.size());
  struct Call {  // what every item reads: one reference keeps ParallelFor's function small
    const StepModel& model;
    const std::vector<State>& x0s;
    const std::vector<Eigen::MatrixXd>& commands;
    RolloutOptions single;
    RolloutWorkspace::Worker* workers;
    const Trajectory& header;
    Trajectory* trajectories;
  } call{model,
         x0s,
         commands,
         options,
         workspace->workers_.data(),
         workspace->header_,
         workspace->trajectories_.data()};
  call.single.progress = nullptr;
  ParallelFor(x0s.size(), threads, [&call](size_t worker, size_t b) {
    RolloutWorkspace::Worker& own = call.workers[worker];
    call.model.ClearWarmStart(own.data.get());
    Trajectory* trajectory = &call.trajectories[b];
    if (call.commands.empty()) {
      RestartTrajectory(call.header, call.x0s[b], call.single.steps, trajectory);
      RunRollout(call.model, call.x0s[b], call.single.steps, ScheduledCommands(call.model),
                 call.single, own.data.get(), &own.x, &own.u, trajectory);
    } else {
      const Eigen::MatrixXd& rows = call.commands[b];
      const int steps = static_cast<int>(rows.rows());
      RestartTrajectory(call.header, call.x0s[b], steps, trajectory);
      RunRollout(call.model, call.x0s[b], steps, CommandRows(rows), call.single, own.data.get(),
                 &own.x, &own.u, trajectory);
    }
  });
  return workspace->trajectories_;
}

std::vector<Trajectory> RolloutBatch(const StepModel& model, const std::vector<State>& x0s,
                                     const std::vector<Eigen::MatrixXd>& commands,
                                     const RolloutOptions& options, int threads) {
  // A workspace of its own: the model is the caller's (not owned, alive for the call).
  RolloutWorkspace workspace(std::shared_ptr<const StepModel>(&model, [](const StepModel*) {}));
  RolloutBatchInto(x0s, commands, options, threads, &workspace);
  return workspace.TakeTrajectories();
}

}  // namespace quasidyn
