#include "quasidyn/control/stabilizer.h"

#include <cmath>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/model/physical_ranges.h"
#include "quasidyn/solvers/qp.h"

namespace quasidyn {
namespace {
constexpr const char* kStabilizerWhere = "Stabilizer";
}  // namespace

const SettingsSchema<StabilizerSettings>& StabilizerSettingsSchema() {
  static const SettingsSchema<StabilizerSettings>* const schema = [] {
    using S = StabilizerSettings;
    auto* s = new SettingsSchema<S>(
        "stabilizer",
        "the talk's QP stabiliser of a plan on its smoothed linearisation, one small QP per "
        "control step (docs/control.md, \"Stabiliser\")");
    s->Field("object_weight", &S::object_weight)
        .Unit("1/m², 1/rad²")
        .AtLeast(0)
        .Doc(
            "weights w of the objects' coordinates, Q = diag(w) (n_q,u numbers; absent: all 1, "
            "or the planner's metric where the plan has planning settings: track, replanning)");
    s->Number("command_weight", &S::command_weight)
        .Unit("1/m², 1/rad²")
        .Within(kSettingWeightRange)
        .Doc(
            "weight r of the command's change u − u_ref, R = r·I (relative to object weights of "
            "1; times their mean with the planner's metric)");
    s->Number("max_deviation", &S::max_deviation)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("bound d of the command's change, |u − u_ref|∞ <= d");
    s->Choice("method", &S::method, {SmoothingMethod::kLogBarrier, SmoothingMethod::kRandomized},
              SmoothingMethodName)
        .Name("smoothing")
        .Noun("smoothing")
        .Doc(
            "the linearisation A_ρ, B_ρ: of the log-barrier program, or randomized smoothing of "
            "the exact one");
    s->Number("kappa", &S::smoothing)
        .Unit("1/(N·m); m or rad")
        .Above(0)
        .Doc(
            "the smoothing's parameter: κ of log-barrier (the talk states none), σ_u of "
            "randomized");
    s->Integer("samples", &S::samples).AtLeast(1).Doc("randomized: samples per linearisation");
    return s;
  }();
  return *schema;
}

std::optional<SettingsProblem> CheckStabilizerSettings(const StabilizerSettings& settings,
                                                       int object_size) {
  if (std::optional<SettingsProblem> p = CheckSettingsBlock(StabilizerSettingsSchema(), settings))
    return p;
  // `kappa` holds κ [1/(N·m)] of log-barrier smoothing or σ_u [m or rad] of randomized
  // smoothing: its usable range is the method's (model/physical_ranges.h).
  const bool log_barrier = settings.method == SmoothingMethod::kLogBarrier;
  const std::string range_problem =
      PhysicalRangeProblem(log_barrier ? kKappaRange : kSettingLengthRange, settings.smoothing);
  if (!range_problem.empty())
    return SettingsProblem{"kappa",
                           range_problem + (log_barrier ? " (κ of log-barrier smoothing)"
                                                        : " (σ_u of randomized smoothing)")};
  const Eigen::Index n = settings.object_weight.size();
  if (n > 0 && n != object_size)
    return SettingsProblem{"object_weight", "expected n_q,u = " + std::to_string(object_size) +
                                                " numbers, got " + std::to_string(n)};
  return std::nullopt;
}

Stabilizer::Stabilizer(std::shared_ptr<const StepModel> model, std::vector<Eigen::VectorXd> q_ref,
                       std::vector<Eigen::VectorXd> u_ref, const StabilizerSettings& settings)
    : model_(std::move(model)),
      q_ref_(std::move(q_ref)),
      u_ref_(std::move(u_ref)),
      settings_(settings),
      solver_(std::make_unique<QpSolver>()) {
  QUASIDYN_CHECK_ARGUMENT(model_ != nullptr, kStabilizerWhere, "the model is null");
  const int T = static_cast<int>(u_ref_.size());
  const int nq = model_->state_q_size(), nu = model_->control_size(), no = model_->scene().nq_u;
  QUASIDYN_CHECK_ARGUMENT(T >= 1, kStabilizerWhere, "the reference has no command");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(q_ref_.size()) == T + 1, kStabilizerWhere,
                          "q_ref must have one more entry than u_ref (T + 1 configurations)");
  for (int t = 0; t <= T; ++t)
    CheckVector(kStabilizerWhere, "q_ref[" + std::to_string(t) + "]", q_ref_[t], nq, "n_q");
  for (int t = 0; t < T; ++t)
    CheckVector(kStabilizerWhere, "u_ref[" + std::to_string(t) + "]", u_ref_[t], nu, "n_u");
  if (const std::optional<SettingsProblem> p = CheckStabilizerSettings(settings_, no))
    settings_detail::ThrowSettingProblem(StabilizerSettingsSchema().block(), p->field, p->problem);
  if (settings_.object_weight.size() == 0) settings_.object_weight = Eigen::VectorXd::Ones(no);
  QUASIDYN_CHECK_ARGUMENT(
      settings_.regrasp_steps.empty() || static_cast<int>(settings_.regrasp_steps.size()) == T,
      kStabilizerWhere, "regrasp_steps must be empty or have one entry per command");
  QUASIDYN_CHECK_ARGUMENT(
      settings_.open_loop_steps.empty() || static_cast<int>(settings_.open_loop_steps.size()) == T,
      kStabilizerWhere, "open_loop_steps must be empty or have one entry per command");
  SmoothingSchedule schedule;
  schedule.method = settings_.method;
  schedule.samples = settings_.samples;
  SmoothedLinearizer linearizer(model_, schedule);
  std::unique_ptr<StepData> data = model_->CreateData();
  linearized_.assign(T, false);
  A_u_.resize(T);
  B_u_.resize(T);
  f_u_.resize(T);
  hessian_.assign(T, Eigen::MatrixXd::Identity(nu, nu));
  for (int t = 0; t < T; ++t) {
    if (!settings_.regrasp_steps.empty() && settings_.regrasp_steps[t]) continue;
    if (!settings_.open_loop_steps.empty() && settings_.open_loop_steps[t]) continue;
    std::string failure;
    StepLinearization lin = linearizer.LinearizeWith(q_ref_[t], u_ref_[t], settings_.smoothing);
    if (!lin.ok()) {
      failure = "the linearisation of reference step " + std::to_string(t + 1) +
                " failed: " + lin.message;
    } else {
      model_->Calc(State{q_ref_[t], Eigen::VectorXd()}, u_ref_[t], data.get());
      if (!data->result.ok())
        failure = "reference step " + std::to_string(t + 1) +
                  " fails on the model: " + data->result.message;
    }
    if (!failure.empty()) {
      QUASIDYN_CHECK_ARGUMENT(settings_.open_loop_where_linearization_fails, kStabilizerWhere,
                              failure);
      open_loop_steps_.push_back(t);
      open_loop_reasons_.push_back(failure);
      continue;
    }
    A_u_[t] = lin.A.topRows(no);
    B_u_[t] = lin.B.topRows(no);
    f_u_[t] = data->result.next.q.head(no);
    Eigen::MatrixXd H = 2.0 * B_u_[t].transpose() * settings_.object_weight.asDiagonal() * B_u_[t];
    H.diagonal().array() += 2.0 * settings_.command_weight;
    hessian_[t] = 0.5 * (H + H.transpose());
    linearized_[t] = true;
  }
  // Fixed pattern: a full nu × nu Hessian, the box rows δu >= −d, −δu >= −d.
  problem_.Q.Reset(nu);
  for (int i = 0; i < nu; ++i) {
    problem_.Q.AppendRow();
    for (int j = 0; j < nu; ++j) problem_.Q.Append(j, hessian_[0](i, j));
  }
  problem_.c = Eigen::VectorXd::Zero(nu);
  problem_.G.Reset(nu);
  for (int sign : {1, -1}) {
    for (int i = 0; i < nu; ++i) {
      problem_.G.AppendRow();
      problem_.G.Append(i, sign);
    }
  }
  problem_.h = Eigen::VectorXd::Constant(2 * nu, -settings_.max_deviation);
  solver_->Setup(problem_);
  e_.resize(no);
  u_.resize(nu);
}

Stabilizer::~Stabilizer() = default;

Eigen::VectorXd Stabilizer::Residual(int t, const Eigen::VectorXd& q) const {
  return f_u_[t] + A_u_[t] * (q - q_ref_[t]) - q_ref_[t + 1].head(f_u_[t].size());
}

Eigen::VectorXd Stabilizer::ClosedFormCommand(int t, const Eigen::VectorXd& q) const {
  QUASIDYN_CHECK_ARGUMENT(t >= 0 && t < steps(), "Stabilizer::ClosedFormCommand",
                          "step t out of [0, T)");
  QUASIDYN_CHECK_ARGUMENT(linearized_[t], "Stabilizer::ClosedFormCommand",
                          "step " + std::to_string(t) + " has no linearisation");
  const Eigen::VectorXd e = Residual(t, q);
  const Eigen::VectorXd gradient =
      2.0 * B_u_[t].transpose() * (settings_.object_weight.asDiagonal() * e);
  return u_ref_[t] - hessian_[t].llt().solve(gradient);
}

const Eigen::VectorXd& Stabilizer::Command(int t, const Eigen::VectorXd& q) {
  QUASIDYN_CHECK_ARGUMENT(
      t >= 0 && t < steps(), "Stabilizer::Command",
      "step t = " + std::to_string(t) + " out of [0, " + std::to_string(steps()) + ")");
  CheckVector("Stabilizer::Command", "q", q, model_->state_q_size(), "n_q");
  QUASIDYN_CHECK_ARGUMENT(
      settings_.regrasp_steps.empty() || !settings_.regrasp_steps[t], "Stabilizer::Command",
      "step t = " + std::to_string(t) + " is a regrasp: TrackPlan executes it (plan_tracking.h)");
  if (!linearized_[t]) {  // an open-loop step, or its linearisation failed (the settings)
    message_ = !settings_.open_loop_steps.empty() && settings_.open_loop_steps[t]
                   ? std::string()
                   : "step " + std::to_string(t) + ": no linearisation; u_ref sent";
    u_ = u_ref_[t];
    return u_;
  }
  const int nu = model_->control_size();
  e_.noalias() = f_u_[t] - q_ref_[t + 1].head(e_.size());
  e_.noalias() += A_u_[t] * (q - q_ref_[t]);
  e_.array() *= settings_.object_weight.array();
  problem_.c.noalias() = 2.0 * B_u_[t].transpose() * e_;
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nu; ++j) problem_.Q.value(i * nu + j) = hessian_[t](i, j);
  }
  solver_->UpdateValues(problem_);
  const QpResult& r = solver_->Solve();
  if (Succeeded(r.status)) {
    message_.clear();
    u_ = u_ref_[t] + r.x;
  } else {
    message_ = "step " + std::to_string(t) + ": QP " + std::string(ToString(r.status)) + " (" +
               r.message + "); closed form clipped to the bound used";
    u_ = (ClosedFormCommand(t, q) - u_ref_[t])
             .cwiseMax(-settings_.max_deviation)
             .cwiseMin(settings_.max_deviation) +
         u_ref_[t];
  }
  return u_;
}

}  // namespace quasidyn
