#include "quasidyn/control/shrinking_horizon_mpc.h"

#include <cmath>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/control/smoothed_linearizer.h"

namespace quasidyn {
namespace {
constexpr const char* kWhere = "ShrinkingHorizonMpc";
}  // namespace

ShrinkingHorizonMpc::ShrinkingHorizonMpc(std::shared_ptr<const StepModel> model,
                                         std::vector<Eigen::VectorXd> q_ref,
                                         std::vector<Eigen::VectorXd> u_ref,
                                         const ShrinkingHorizonMpcSettings& s)
    : model_(std::move(model)), q_ref_(std::move(q_ref)), u_ref_(std::move(u_ref)) {
  QUASIDYN_CHECK_ARGUMENT(model_ != nullptr, kWhere, "the model is null");
  const int T = static_cast<int>(u_ref_.size());
  const int nq = model_->state_q_size(), nu = model_->control_size(), no = model_->scene().nq_u;
  QUASIDYN_CHECK_ARGUMENT(T >= 1, kWhere, "the reference has no command");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(q_ref_.size()) == T + 1, kWhere,
                          "q_ref must have one more entry than u_ref (T + 1 configurations)");
  for (int t = 0; t <= T; ++t)
    CheckVector(kWhere, "q_ref[" + std::to_string(t) + "]", q_ref_[t], nq, "n_q");
  for (int t = 0; t < T; ++t)
    CheckVector(kWhere, "u_ref[" + std::to_string(t) + "]", u_ref_[t], nu, "n_u");
  CheckVector(kWhere, "object_goal", s.object_goal, no, "n_q,u");
  auto finite_positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.max_deviation), kWhere, "max_deviation must be > 0");
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.kappa), kWhere, "kappa must be > 0");
  data_.object_size = no;
  data_.goal = s.object_goal;
  data_.object_weight = s.object_weight.size() > 0 ? s.object_weight : Eigen::VectorXd::Ones(no);
  data_.terminal_weight = s.terminal_weight.size() > 0
                              ? s.terminal_weight
                              : Eigen::VectorXd(10.0 * data_.object_weight);
  data_.rate_weight = s.rate_weight;
  data_.trust_region = s.max_deviation;
  SmoothingSchedule schedule;  // log-barrier
  SmoothedLinearizer linearizer(model_, schedule);
  for (int t = 0; t < T; ++t) {
    StepLinearization lin = linearizer.LinearizeWith(q_ref_[t], u_ref_[t], s.kappa);
    QUASIDYN_CHECK_ARGUMENT(
        lin.ok(), kWhere,
        "the linearisation of reference step " + std::to_string(t + 1) + " failed: " + lin.message);
    data_.A.push_back(std::move(lin.A));
    data_.B.push_back(std::move(lin.B));
  }
  data_.q_nominal.assign(q_ref_.begin() + 1, q_ref_.end());
  data_.u_nominal = u_ref_;
  data_.u_before = q_ref_[0].tail(nu);
  data_.dq0 = Eigen::VectorXd::Zero(nq);
  QpProblem check;
  BuildTrajoptQp(data_, &check);  // weights, ρ and sizes, named by the builder
  window_ = data_;
}

const Eigen::VectorXd& ShrinkingHorizonMpc::Command(int t, const Eigen::VectorXd& q) {
  const int T = steps();
  QUASIDYN_CHECK_ARGUMENT(
      t >= 0 && t < T, "ShrinkingHorizonMpc::Command",
      "step t = " + std::to_string(t) + " is outside [0, " + std::to_string(T) + ")");
  CheckVector("ShrinkingHorizonMpc::Command", "q", q, model_->state_q_size(), "n_q");
  window_.A.assign(data_.A.begin() + t, data_.A.end());
  window_.B.assign(data_.B.begin() + t, data_.B.end());
  window_.q_nominal.assign(data_.q_nominal.begin() + t, data_.q_nominal.end());
  window_.u_nominal.assign(data_.u_nominal.begin() + t, data_.u_nominal.end());
  window_.u_before = t == 0 ? data_.u_before : u_ref_[t - 1];
  window_.dq0 = q - q_ref_[t];
  BuildTrajoptQp(window_, &problem_);
  solver_.Setup(problem_, TrajoptQpSettings());
  const QpResult& r = solver_.Solve();
  u_ = u_ref_[t];
  message_.clear();
  if (Succeeded(r.status)) {
    u_ += r.x.head(u_.size());
  } else {
    message_ = "step " + std::to_string(t) + ": QP failed (" + std::string(ToString(r.status)) +
               "): " + r.message + "; sent the plan's command";
  }
  return u_;
}

}  // namespace quasidyn
