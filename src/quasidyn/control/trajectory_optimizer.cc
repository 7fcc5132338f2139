#include "quasidyn/control/trajectory_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Format(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

}  // namespace

void ValidateTrajectoryOptimizerSettings(const TrajectoryOptimizerSettings& s,
                                         const StepModel& model) {
  constexpr const char* kWhere = "TrajectoryOptimizer";
  const int no = model.scene().nq_u;
  QUASIDYN_CHECK_ARGUMENT(s.horizon >= 1, kWhere,
                          "horizon must be >= 1 steps (got " + std::to_string(s.horizon) + ")");
  QUASIDYN_CHECK_ARGUMENT(s.iterations >= 0, kWhere, "iterations must be >= 0");
  CheckVector(kWhere, "object_goal", s.object_goal, no, "n_q,u (the objects' coordinates)");
  if (s.object_weight.size() > 0)
    CheckVector(kWhere, "object_weight", s.object_weight, no, "n_q,u");
  if (s.terminal_weight.size() > 0) {
    CheckVector(kWhere, "terminal_weight", s.terminal_weight, no, "n_q,u");
  }
  QUASIDYN_CHECK_ARGUMENT(
      (s.object_weight.array() >= 0.0).all() && (s.terminal_weight.array() >= 0.0).all(), kWhere,
      "object weights must be >= 0");
  auto finite_positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.rate_weight), kWhere, "rate_weight must be > 0");
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.trust_region), kWhere, "trust_region must be > 0");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.trust_region_max) && s.trust_region_max >= s.trust_region,
                          kWhere, "trust_region_max must be >= trust_region");
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.trust_region_min), kWhere,
                          "trust_region_min must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.shrink > 0.0 && s.shrink < 1.0, kWhere, "shrink must be in (0, 1)");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.grow) && s.grow >= 1.0, kWhere, "grow must be >= 1");
  ValidateSmoothingSchedule(s.smoothing);
}

TrajectoryOptimizer::TrajectoryOptimizer(std::shared_ptr<const StepModel> model,
                                         const TrajectoryOptimizerSettings& settings)
    : model_(model), settings_(settings), linearizer_(model, settings.smoothing) {
  ValidateTrajectoryOptimizerSettings(settings_, *model_);
  const int no = model_->scene().nq_u;
  if (settings_.object_weight.size() == 0) settings_.object_weight = Eigen::VectorXd::Ones(no);
  if (settings_.terminal_weight.size() == 0) {
    settings_.terminal_weight = 10.0 * settings_.object_weight;
  }
  step_data_ = model_->CreateData();
  last_data_.object_size = no;
  last_data_.goal = settings_.object_goal;
  last_data_.object_weight = settings_.object_weight;
  last_data_.terminal_weight = settings_.terminal_weight;
  last_data_.rate_weight = settings_.rate_weight;
}

bool TrajectoryOptimizer::ExactRollout(const Eigen::VectorXd& q0,
                                       const std::vector<Eigen::VectorXd>& u,
                                       std::vector<Eigen::VectorXd>* q, std::string* message) {
  q->assign(1, q0);
  for (size_t k = 0; k < u.size(); ++k) {
    model_->Calc(State{q->back(), Eigen::VectorXd()}, u[k], step_data_.get());
    if (!step_data_->result.ok()) {
      *message = "step " + std::to_string(k + 1) + " failed: " + step_data_->result.message;
      return false;
    }
    q->push_back(step_data_->result.next.q);
  }
  return true;
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
}

bool TrajectoryOptimizer::SolveWindow(const TrajoptQpData& data, Eigen::VectorXd* du,
                                      std::string* message) {
  QpProblem problem;
  BuildTrajoptQp(data, &problem);
  solver_.Setup(problem);
  const QpResult& r = solver_.Solve();
  if (!Succeeded(r.status)) {
    *message = "QP failed (" + std::string(ToString(r.status)) + "): " + r.message;
    return false;
  }
  *du = r.x;
  return true;
}

OptimizationResult TrajectoryOptimizer::Optimize(const Eigen::VectorXd& q0,
                                                 const std::vector<Eigen::VectorXd>& u0) {
  constexpr const char* kWhere = "TrajectoryOptimizer::Optimize";
  const auto start = std::chrono::steady_clock::now();
  const int T = settings_.horizon, nu = model_->control_size(), nq = model_->state_q_size();
  CheckVector(kWhere, "q0", q0, nq, "n_q");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(u0.size()) == T, kWhere,
                          "the initial guess has " + std::to_string(u0.size()) +
                              " commands, expected the horizon T = " + std::to_string(T));
  for (int k = 0; k < T; ++k)
    CheckVector(kWhere, "u0[" + std::to_string(k) + "]", u0[k], nu, "n_u");
  OptimizationResult out;
  std::string message;
  u_best_ = u0;
  if (!ExactRollout(q0, u_best_, &q_best_, &message)) {
    ThrowInvalidArgument(kWhere, "the initial guess's exact rollout fails: " + message);
  }
  out.initial_cost = out.best_cost = Cost(q_best_, u_best_);
  double r = settings_.trust_region;
  const Eigen::VectorXd u_start = q0.tail(nu);
  A_.resize(T);
  B_.resize(T);
  for (int i = 0; i < settings_.iterations; ++i) {
    const auto iteration_start = std::chrono::steady_clock::now();
    OptimizerIteration it;
    it.index = i;
    it.parameter = SmoothingParameter(settings_.smoothing, i);
    it.trust_region = r;
    it.predicted_cost = std::numeric_limits<double>::quiet_NaN();
    it.cost = std::numeric_limits<double>::infinity();
    bool ok = true;
    for (int k = 0; k < T && ok; ++k) {
      StepLinearization lin = linearizer_.LinearizeWith(q_best_[k], u_best_[k], it.parameter);
      if (!lin.ok()) {
        ok = false;
        it.message = "linearisation of step " + std::to_string(k + 1) + " failed: " + lin.message;
      } else {
        A_[k] = std::move(lin.A);
        B_[k] = std::move(lin.B);
      }
    }
    std::vector<Eigen::VectorXd> u_candidate = u_best_, q_candidate;
    if (ok && !settings_.shrinking_horizon) {
      last_data_.trust_region = r;
      FillWindow(0, Eigen::VectorXd::Zero(nq), u_start, &last_data_);
      Eigen::VectorXd du;
      ok = SolveWindow(last_data_, &du, &it.message);
      if (ok) {
        for (int k = 0; k < T; ++k) u_candidate[k] += du.segment(k * nu, nu);
        TrajoptQpData predicted = last_data_;
        it.predicted_cost = TrajoptCost(predicted, PredictedStates(last_data_, du), u_candidate);
        ok = ExactRollout(q0, u_candidate, &q_candidate, &it.message);
      }
    } else if (ok) {
      // Shrinking horizon: re-plan from every reached state, apply the first correction.
      q_candidate.assign(1, q0);
      TrajoptQpData window = last_data_;
      window.trust_region = r;
      for (int t = 0; t < T && ok; ++t) {
        FillWindow(t, q_candidate[t] - q_best_[t], t == 0 ? u_start : u_candidate[t - 1], &window);
        Eigen::VectorXd du;
        ok = SolveWindow(window, &du, &it.message);
        if (!ok) break;
        u_candidate[t] = u_best_[t] + du.head(nu);
        model_->Calc(State{q_candidate[t], Eigen::VectorXd()}, u_candidate[t], step_data_.get());
        if (!step_data_->result.ok()) {
          ok = false;
          it.message = "step " + std::to_string(t + 1) + " failed: " + step_data_->result.message;
        } else {
          q_candidate.push_back(step_data_->result.next.q);
        }
      }
    }
    if (ok) it.cost = Cost(q_candidate, u_candidate);
    if (ok && it.cost < out.best_cost) {
      it.accepted = true;
      out.best_cost = it.cost;
      u_best_ = std::move(u_candidate);
      q_best_ = std::move(q_candidate);
      r = std::min(r * settings_.grow, settings_.trust_region_max);
    } else {
      if (ok) {
        it.message =
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
