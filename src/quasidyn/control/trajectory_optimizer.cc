#include "quasidyn/control/trajectory_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/solvers/qp.h"

namespace quasidyn {
namespace {

// Whether `outcome` is ok; a failure's message is added to the iteration's record (its message,
// the result's account of what failed).
bool Record(const Outcome& outcome, OptimizerIteration* it) {
  if (!outcome) it->message += outcome.message();
  return outcome.ok();
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Format(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

}  // namespace

const SettingsSchema<TrajectoryOptimizerSettings>& TrajectoryOptimizerSettingsSchema() {
  static const SettingsSchema<TrajectoryOptimizerSettings>* const schema = [] {
    using O = TrajectoryOptimizerSettings;
    auto* s = new SettingsSchema<O>(
        "optimizer",
        "trajectory optimisation through contact by iterative MPC: a QP on the smoothed "
        "linearisations per iteration, its candidate rolled out exactly (docs/control.md, "
        "\"Iterative MPC\")");
    s->Integer("horizon", &O::horizon).AtLeast(1).Doc("steps T (commands) of the plan");
    s->Integer("iterations", &O::iterations).AtLeast(0).Doc("iterations K");
    s->Field("object_goal", &O::object_goal)
        .Name("goal")
        .Unit("m, rad")
        .Doc("the objects' goal configuration g (n_q,u numbers)");
    s->Field("object_weight", &O::object_weight)
        .AtLeast(0)
        .Doc(
            "the goal cost's weights w on steps 1 … T − 1 (n_q,u numbers; absent: all 1, or the "
            "planner's metric where the goal is the scene's planning goal: optimize)");
    s->Field("terminal_weight", &O::terminal_weight)
        .AtLeast(0)
        .Doc("the goal cost's weights w_T on step T (n_q,u numbers; absent: 10·w)");
    s->Number("rate_weight", &O::rate_weight)
        .Within(kSettingWeightRange)
        .Doc(
            "weight ρ of the command changes ‖u_k − u_{k−1}‖² (relative to object weights of 1; "
            "times their mean with the planner's metric)");
    s->Number("trust_region", &O::trust_region)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("initial trust region r_0 (|δu|∞ <= r)");
    s->Number("trust_region_max", &O::trust_region_max)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc(
            "largest trust region r_max (>= trust_region; raised to a larger trust_region "
            "given alone)");
    s->Number("trust_region_min", &O::trust_region_min)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("the run stops when r falls below this");
    s->Number("shrink", &O::shrink)
        .Above(0)
        .Below(1)
        .Doc("r's factor after a rejected or failed candidate");
    s->Number("grow", &O::grow).AtLeast(1).Doc("r's factor after an accepted candidate");
    s->Field("shrinking_horizon", &O::shrinking_horizon)
        .Doc("re-plan from each reached state in every iteration (not with per_segment)");
    s->Field("per_segment", &O::per_segment)
        .Doc(
            "one QP per contact-continuous segment between a plan's regrasps, in path order "
            "(false: one QP over all steps)");
    s->Integer("segment_steps", &O::segment_steps)
        .AtLeast(0)
        .Doc(
            "per_segment: a longer segment is corrected in pieces of at most this many steps, "
            "one QP each (0: whole segments)");
    s->Number("penetration_tolerance", &O::penetration_tolerance)
        .Unit("m")
        .Within(kSettingLengthRange)
        .MayBeInfinite()
        .Doc(
            "the deepest overlap of two shapes a candidate may reach, or the initial guess's "
            "own depth if deeper (∞: not measured)");
    s->Include("smoothing", &O::smoothing, SmoothingScheduleSchema());
    return s;
  }();
  return *schema;
}

std::optional<SettingsProblem> CheckTrajectoryOptimizerSettings(
    const TrajectoryOptimizerSettings& s, int object_size) {
  using Problem = std::optional<SettingsProblem>;
  if (Problem p = CheckSettingsBlock(TrajectoryOptimizerSettingsSchema(), s)) return p;
  const std::string n = "n_q,u = " + std::to_string(object_size) + " numbers";
  if (s.object_goal.size() == 0)
    return SettingsProblem{"object_goal", "missing: expected " + n + " (the objects' goal)"};
  for (const auto& [field, x] :
       {std::pair<const char*, const Eigen::VectorXd*>{"object_goal", &s.object_goal},
        {"object_weight", &s.object_weight},
        {"terminal_weight", &s.terminal_weight}}) {
    if (x->size() > 0 && x->size() != object_size)
      return SettingsProblem{
          field, "expected " + n + " (the objects' coordinates), got " + std::to_string(x->size())};
  }
  if (s.trust_region_max < s.trust_region)
    return SettingsProblem{"trust_region_max",
                           "must be >= trust_region = " + NumberText(s.trust_region) + " (got " +
                               NumberText(s.trust_region_max) + ")"};
  if (s.per_segment && s.shrinking_horizon)
    return SettingsProblem{"per_segment", "per_segment and shrinking_horizon exclude each other"};
  if (Problem p = CheckSmoothingSchedule(s.smoothing)) {
    p->field = "smoothing." + p->field;
    return p;
  }
  return std::nullopt;
}

void ValidateTrajectoryOptimizerSettings(const TrajectoryOptimizerSettings& s,
                                         const StepModel& model) {
  constexpr const char* kWhere = "TrajectoryOptimizer";
  if (const std::optional<SettingsProblem> p =
          CheckTrajectoryOptimizerSettings(s, model.scene().nq_u))
    settings_detail::ThrowSettingProblem(TrajectoryOptimizerSettingsSchema().block(), p->field,
                                         p->problem);
  if (!s.regrasp_steps.empty()) {
    QUASIDYN_CHECK_ARGUMENT(static_cast<int>(s.regrasp_steps.size()) == s.horizon, kWhere,
                            "regrasp_steps has " + std::to_string(s.regrasp_steps.size()) +
                                " entries, expected the horizon T = " + std::to_string(s.horizon));
    QUASIDYN_CHECK_ARGUMENT(
        std::find(s.regrasp_steps.begin(), s.regrasp_steps.end(), false) != s.regrasp_steps.end(),
        kWhere, "every step is a regrasp: there is no command to optimise");
  }
}

void ApplyOptimizerSettingOverrides(const SettingOverrides& overrides,
                                    TrajectoryOptimizerSettings* settings) {
  bool trust_region_max_given = false;
  for (const SettingOverride& o : overrides) trust_region_max_given |= o.name == "trust_region_max";
  ApplySettingOverrides(TrajectoryOptimizerSettingsSchema(), overrides, settings);
  if (!trust_region_max_given)
    settings->trust_region_max = std::max(settings->trust_region_max, settings->trust_region);
}

namespace {

// The settings, validated before the members made from them (the lineariser checks its schedule
// too, but a problem is named as the optimiser's field).
const TrajectoryOptimizerSettings& Validated(const TrajectoryOptimizerSettings& settings,
                                             const std::shared_ptr<const StepModel>& model) {
  QUASIDYN_CHECK_ARGUMENT(model != nullptr, "TrajectoryOptimizer", "the model is null");
  ValidateTrajectoryOptimizerSettings(settings, *model);
  return settings;
}

}  // namespace

TrajectoryOptimizer::TrajectoryOptimizer(std::shared_ptr<const StepModel> model,
                                         const TrajectoryOptimizerSettings& settings)
    : model_(model),
      settings_(Validated(settings, model)),
      linearizer_(model, settings.smoothing),
      solver_(std::make_unique<QpSolver>()) {
  const int no = model_->scene().nq_u;
  if (settings_.object_weight.size() == 0) settings_.object_weight = Eigen::VectorXd::Ones(no);
  if (settings_.terminal_weight.size() == 0) {
    settings_.terminal_weight = 10.0 * settings_.object_weight;
  }
  step_data_ = model_->CreateData();
  if (std::isfinite(settings_.penetration_tolerance))
    depth_ = std::make_unique<PenetrationMeter>(model_->scene_ptr());
  last_data_.object_size = no;
  last_data_.goal = settings_.object_goal;
  last_data_.object_weight = settings_.object_weight;
  last_data_.terminal_weight = settings_.terminal_weight;
  last_data_.rate_weight = settings_.rate_weight;
  last_data_.regrasp = settings_.regrasp_steps;
}

TrajectoryOptimizer::~TrajectoryOptimizer() = default;

const QpResult& TrajectoryOptimizer::last_qp_result() const { return solver_->result(); }

// A planar object's angle θ and θ + 2πk are one orientation, but the cost's e = q − g
// (trajopt_qp.h) is not periodic: a guess that turns the object by −π toward a goal of +π (a
// planner's path does, whichever way it found) would be charged 2π. So each planar joint's goal
// angle is taken on the branch g_θ + 2πk nearest the guess's final angle θ_T:
// g_θ ← θ_T + wrap(g_θ − θ_T), wrap to [−π, π]. Unchanged when |g_θ − θ_T| <= π.
void TrajectoryOptimizer::GoalOnTheGuessBranch(const Eigen::VectorXd& q_final) {
  const Scene& scene = model_->scene();
  const auto on_the_branch = [&](int i) {
    const double theta = q_final[i];
    last_data_.goal[i] = theta + WrapAngle(settings_.object_goal[i] - theta);
  };
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kPlanar) continue;
    const int i = joint.q_start + 2;  // (x, y, θ)
    if (i >= scene.nq_u) continue;    // a robot's planar joint: not in the goal
    on_the_branch(i);
  }
  // An object on planar ghost links: its revolute joint, the last of its three coordinates.
  for (const ModelInstance& instance : scene.instances)
    if (OnPlanarGhostLinks(scene, instance)) on_the_branch(instance.q_start + 2);
}

void TrajectoryOptimizer::StartDepth(const Eigen::VectorXd& q0) {
  rollout_depth_ = depth_ ? depth_->Depth(q0) : std::numeric_limits<double>::quiet_NaN();
}

bool TrajectoryOptimizer::IsRegrasp(int k) const {
  return !settings_.regrasp_steps.empty() && settings_.regrasp_steps[k];
}

Outcome TrajectoryOptimizer::Step(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                  Eigen::VectorXd* next) {
  if (IsRegrasp(k)) {  // the robots re-grasp at u, the objects stay (docs/plan-format.md)
    *next = q;
    next->tail(u.size()) = u;
    if (depth_) rollout_depth_ = std::max(rollout_depth_, depth_->Depth(*next));
    return Outcome::Ok();
  }
  model_->Calc(State{q, Eigen::VectorXd()}, u, step_data_.get());
  const StepResult& result = step_data_->result;
  if (!result.ok())
    return Outcome::Failure("step " + std::to_string(k + 1) + " failed: " + result.message);
  if (depth_) rollout_depth_ = std::max(rollout_depth_, depth_->StepDepth(*model_, q, result));
  *next = result.next.q;
  return Outcome::Ok();
}

Outcome TrajectoryOptimizer::ExactRollout(const Eigen::VectorXd& q0,
                                          const std::vector<Eigen::VectorXd>& u,
                                          std::vector<Eigen::VectorXd>* q) {
  QUASIDYN_CHECK_ARGUMENT(
      u.size() <= static_cast<size_t>(settings_.horizon) || settings_.regrasp_steps.empty(),
      "TrajectoryOptimizer::ExactRollout",
      "more commands than the horizon whose regrasp steps are set");
  q->assign(1, q0);
  StartDepth(q0);
  Eigen::VectorXd next;
  for (size_t k = 0; k < u.size(); ++k) {
    if (Outcome step = Step(static_cast<int>(k), q->back(), u[k], &next); !step) return step;
    q->push_back(next);
  }
  return Outcome::Ok();
}

double TrajectoryOptimizer::Cost(const std::vector<Eigen::VectorXd>& q,
                                 const std::vector<Eigen::VectorXd>& u) const {
  TrajoptQpData weights = last_data_;
  weights.u_before = q.front().tail(model_->control_size());
  return TrajoptCost(weights, std::vector<Eigen::VectorXd>(q.begin() + 1, q.end()), u);
}

void TrajectoryOptimizer::FillWindow(int t0, const Eigen::VectorXd& dq0,
                                     const Eigen::VectorXd& u_before, TrajoptQpData* data) const {
  const int T = settings_.horizon;
  data->A.assign(A_.begin() + t0, A_.end());
  data->B.assign(B_.begin() + t0, B_.end());
  data->q_nominal.assign(q_best_.begin() + t0 + 1, q_best_.end());
  data->u_nominal.assign(u_best_.begin() + t0, u_best_.begin() + T);
  data->u_before = u_before;
  data->dq0 = dq0;
  if (!settings_.regrasp_steps.empty())
    data->regrasp.assign(settings_.regrasp_steps.begin() + t0, settings_.regrasp_steps.end());
}

Outcome TrajectoryOptimizer::SolveWindow(const TrajoptQpData& data, Eigen::VectorXd* du,
                                         OptimizerIteration* it) {
  const auto start = std::chrono::steady_clock::now();
  QpProblem problem;
  BuildTrajoptQp(data, &problem);
  solver_->Setup(problem, TrajoptQpSettings());
  const QpResult& r = solver_->Solve();
  it->qp_seconds += Seconds(start);
  ++it->qps;
  if (!Succeeded(r.status))
    return Outcome::Failure("QP failed (" + std::string(ToString(r.status)) + "): " + r.message);
  *du = r.x;
  return Outcome::Ok();
}

bool TrajectoryOptimizer::CorrectSegments(const Eigen::VectorXd& q0, const Eigen::VectorXd& u_start,
                                          double r, std::vector<Eigen::VectorXd>* u,
                                          std::vector<Eigen::VectorXd>* q, OptimizerIteration* it) {
  const int T = settings_.horizon, nu = model_->control_size();
  q->assign(1, q0);
  StartDepth(q0);
  TrajoptQpData window = last_data_;
  window.trust_region = r;
  Eigen::VectorXd next;
  int t = 0;
  while (t < T) {
    int end = t;  // the segment [t, end) of steps that are not regrasps; empty at a regrasp
    while (end < T && !IsRegrasp(end) &&
           (settings_.segment_steps == 0 || end - t < settings_.segment_steps))
      ++end;
    if (end > t) {
      FillWindow(t, q->back() - q_best_[t], t == 0 ? u_start : (*u)[t - 1], &window);
      window.corrected_steps = end - t;
      Eigen::VectorXd du;
      if (const Outcome solved = SolveWindow(window, &du, it); solved) {
        for (int k = t; k < end; ++k) (*u)[k] = u_best_[k] + du.segment((k - t) * nu, nu);
      } else {  // this segment keeps its commands; the later ones are still corrected
        it->message += "segment of steps " + std::to_string(t + 1) + "-" + std::to_string(end) +
                       " kept: " + solved.message() + "; ";
      }
    } else {
      end = t + 1;  // the regrasp, as it is
    }
    for (; t < end; ++t) {
      if (!Record(Step(t, q->back(), (*u)[t], &next), it)) return false;
      q->push_back(next);
    }
  }
  return true;
}

OptimizationResult TrajectoryOptimizer::Optimize(const Eigen::VectorXd& q0,
                                                 const std::vector<Eigen::VectorXd>& u0) {
  constexpr const char* kWhere = "TrajectoryOptimizer::Optimize";
  const auto start = std::chrono::steady_clock::now();
  const int T = settings_.horizon, nu = model_->control_size(), nq = model_->state_q_size();
  const int no = model_->scene().nq_u;
  CheckVector(kWhere, "q0", q0, nq, "n_q");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(u0.size()) == T, kWhere,
                          "the initial guess has " + std::to_string(u0.size()) +
                              " commands, expected the horizon T = " + std::to_string(T));
  for (int k = 0; k < T; ++k)
    CheckVector(kWhere, "u0[" + std::to_string(k) + "]", u0[k], nu, "n_u");
  OptimizationResult out;
  // Nothing carries over from a previous run: the same call gives the same result.
  model_->ClearWarmStart(step_data_.get());
  linearizer_.ClearWarmStarts();
  u_best_ = u0;
  if (Outcome rollout = ExactRollout(q0, u_best_, &q_best_); !rollout) {
    ThrowInvalidArgument(kWhere, "the initial guess's exact rollout fails: " + rollout.message());
  }
  GoalOnTheGuessBranch(q_best_.back());
  out.initial_cost = out.best_cost = Cost(q_best_, u_best_);
  out.initial_penetration = out.max_penetration = rollout_depth_;
  // Candidates may not pass deeper than this (the class comment); NaN compares false: no limit.
  const double depth_limit = std::max(settings_.penetration_tolerance, out.initial_penetration);
  double r = settings_.trust_region;
  const Eigen::VectorXd u_start = q0.tail(nu);
  A_.resize(T);
  B_.resize(T);
  // The parameter A_, B_ were last linearised with at the best iterate (NaN: none yet, or the
  // best iterate moved since): a rejected iteration leaves the best iterate where it was, and
  // once the schedule has reached κ_max (σ_min) the next iteration would linearise the same
  // steps with the same parameter again, so it keeps them.
  double linearized_parameter = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < settings_.iterations; ++i) {
    if (Cancelled(settings_.cancel)) {
      out.interrupted = true;
      out.message = "interrupted before iteration " + std::to_string(i);
      break;
    }
    const auto iteration_start = std::chrono::steady_clock::now();
    OptimizerIteration it;
    it.index = i;
    it.parameter = SmoothingParameter(settings_.smoothing, i);
    it.trust_region = r;
    it.predicted_cost = std::numeric_limits<double>::quiet_NaN();
    it.cost = std::numeric_limits<double>::infinity();
    bool ok = true;
    const auto linearize_start = std::chrono::steady_clock::now();
    const bool relinearize = !(it.parameter == linearized_parameter);
    it.linearizations_kept = !relinearize;
    for (int k = 0; k < T && ok && relinearize; ++k) {
      if (Cancelled(settings_.cancel)) {  // a long horizon's linearisations take a while
        out.interrupted = true;
        out.message = "interrupted during iteration " + std::to_string(i) + " (dropped)";
        break;
      }
      if (IsRegrasp(k)) {  // exact: q⁺ = (q^u, u), the grasp fixed (trajopt_qp.h)
        A_[k] = Eigen::MatrixXd::Zero(nq, nq);
        A_[k].topLeftCorner(no, no).setIdentity();
        B_[k] = Eigen::MatrixXd::Zero(nq, nu);
        continue;
      }
      StepLinearization lin = linearizer_.LinearizeWith(q_best_[k], u_best_[k], it.parameter);
      // The best iterate does not move while iterations are rejected, so a linearisation that
      // fails there would fail again in every later iteration: fall back to the smoother
      // parameters of the earlier iterations (i − 1, …, 0) and say so.
      for (int j = i - 1; !lin.ok() && j >= 0; --j) {
        const double smoother = SmoothingParameter(settings_.smoothing, j);
        if (smoother == it.parameter) continue;
        StepLinearization retry = linearizer_.LinearizeWith(q_best_[k], u_best_[k], smoother);
        if (!retry.ok()) continue;
        it.message += "step " + std::to_string(k + 1) + " linearised with parameter " +
                      Format(smoother) + " (" + Format(it.parameter) + " failed); ";
        lin = std::move(retry);
      }
      if (!lin.ok()) {
        ok = false;
        it.message += "linearisation of step " + std::to_string(k + 1) + " failed: " + lin.message;
      } else {
        A_[k] = std::move(lin.A);
        B_[k] = std::move(lin.B);
      }
    }
    if (out.interrupted) break;
    it.linearize_seconds = Seconds(linearize_start);
    linearized_parameter = ok ? it.parameter : std::numeric_limits<double>::quiet_NaN();
    std::vector<Eigen::VectorXd> u_candidate = u_best_, q_candidate;
    if (ok && settings_.per_segment) {
      ok = CorrectSegments(q0, u_start, r, &u_candidate, &q_candidate, &it);
    } else if (ok && !settings_.shrinking_horizon) {
      last_data_.trust_region = r;
      FillWindow(0, Eigen::VectorXd::Zero(nq), u_start, &last_data_);
      Eigen::VectorXd du;
      ok = Record(SolveWindow(last_data_, &du, &it), &it);
      if (ok) {
        int variables = 0;
        const std::vector<int> column = TrajoptColumns(last_data_, &variables);
        for (int k = 0; k < T; ++k) {
          if (column[k] >= 0) u_candidate[k] += du.segment(column[k], nu);
        }
        TrajoptQpData predicted = last_data_;
        it.predicted_cost = TrajoptCost(predicted, PredictedStates(last_data_, du), u_candidate);
        ok = Record(ExactRollout(q0, u_candidate, &q_candidate), &it);
      }
    } else if (ok) {
      // Shrinking horizon: re-plan from every reached state, apply the first correction.
      q_candidate.assign(1, q0);
      StartDepth(q0);
      TrajoptQpData window = last_data_;
      window.trust_region = r;
      Eigen::VectorXd next;
      for (int t = 0; t < T && ok; ++t) {
        if (!IsRegrasp(t)) {  // a regrasp's grasp is fixed: nothing to re-plan at it
          FillWindow(t, q_candidate[t] - q_best_[t], t == 0 ? u_start : u_candidate[t - 1],
                     &window);
          Eigen::VectorXd du;
          ok = Record(SolveWindow(window, &du, &it), &it);
          if (!ok) break;
          u_candidate[t] = u_best_[t] + du.head(nu);
        }
        ok = Record(Step(t, q_candidate[t], u_candidate[t], &next), &it);
        if (ok) q_candidate.push_back(next);
      }
    }
    if (ok) {
      it.cost = Cost(q_candidate, u_candidate);
      it.penetration = depth_ ? rollout_depth_ : 0.0;
    }
    const bool too_deep = ok && depth_ && rollout_depth_ > depth_limit;
    if (too_deep) {
      ok = false;
      it.message += "the rollout passes " + Format(1e3 * rollout_depth_) +
                    " mm into a shape, deeper than the limit " + Format(1e3 * depth_limit) +
                    " mm (penetration_tolerance)";
    }
    if (ok && it.cost < out.best_cost) {
      it.accepted = true;
      out.best_cost = it.cost;
      out.max_penetration = rollout_depth_;
      u_best_ = std::move(u_candidate);
      q_best_ = std::move(q_candidate);
      linearized_parameter = std::numeric_limits<double>::quiet_NaN();  // the best iterate moved
      r = std::min(r * settings_.grow, settings_.trust_region_max);
    } else {
      if (ok) {
        it.message +=
            "exact cost " + Format(it.cost) + " not below the best " + Format(out.best_cost);
      }
      r *= settings_.shrink;
      it.message += "; trust region shrunk to " + Format(r);
    }
    it.best_cost = out.best_cost;
    it.seconds = Seconds(iteration_start);
    out.iterations.push_back(it);
    if (settings_.progress) settings_.progress(it);
    if (r < settings_.trust_region_min) {
      out.message = "stopped after iteration " + std::to_string(i) + ": trust region " + Format(r) +
                    " below trust_region_min " + Format(settings_.trust_region_min);
      break;
    }
  }
  out.u = u_best_;
  out.q = q_best_;
  out.seconds = Seconds(start);
  return out;
}

}  // namespace quasidyn
