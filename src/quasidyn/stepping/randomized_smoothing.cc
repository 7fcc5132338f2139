#include "quasidyn/stepping/randomized_smoothing.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {
namespace {

constexpr const char* kWhere = "randomized smoothing";

void CheckSettings(const RandomizedSmoothingSettings& settings) {
  QUASIDYN_CHECK_ARGUMENT(settings.samples >= 1, kWhere,
                          "samples must be >= 1 (got " + std::to_string(settings.samples) + ")");
  CheckNonNegative(kWhere, "u_std", settings.u_std);
  CheckNonNegative(kWhere, "q_std", settings.q_std);
}

void CheckPoint(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  CheckVector(kWhere, "q", q, scene.nq, "n_q");
  CheckVector(kWhere, "u", u, scene.nq_a, "n_q,a");
}

// The successful samples' results, in sample order; counts the failures.
struct Successes {
  std::vector<const StepEvaluation*> results;
  std::vector<int> indices;  // sample index of each result
  int failed = 0;
  std::string first_failure;
  SolverStatus first_failure_status = SolverStatus::kNotRun;
};

Successes CollectSuccesses(const std::vector<StepEvaluation>& results, size_t first) {
  Successes s;
  for (size_t i = first; i < results.size(); ++i) {
    const StepEvaluation& r = results[i];
    if (r.ok()) {
      s.results.push_back(&r);
      s.indices.push_back(static_cast<int>(i - first));
    } else {
      if (s.failed == 0) {
        const bool step_failed = !r.result.ok();
        s.first_failure = "sample " + std::to_string(i - first) + ": " +
                          (step_failed ? r.result.message : r.derivatives.message);
        s.first_failure_status = step_failed ? r.result.status : r.derivatives.status;
      }
      ++s.failed;
    }
  }
  return s;
}

// Mean and standard error of the mean (sample standard deviation / √n, two-pass) of the
// matrices member(r) over the successes, summed in sample order (deterministic).
template <typename Member>
void MeanAndStandardError(const Successes& s, Member member, Eigen::MatrixXd* mean,
                          Eigen::MatrixXd* standard_error) {
  const double n = static_cast<double>(s.results.size());
  const auto& first = member(*s.results.front());  // a reference: no copy per sample
  *mean = Eigen::MatrixXd::Zero(first.rows(), first.cols());
  for (const StepEvaluation* r : s.results) *mean += member(*r);
  *mean /= n;
  if (standard_error == nullptr) return;
  if (s.results.size() < 2) {
    *standard_error = Eigen::MatrixXd::Constant(first.rows(), first.cols(),
                                                std::numeric_limits<double>::infinity());
    return;
  }
  Eigen::MatrixXd squares = Eigen::MatrixXd::Zero(first.rows(), first.cols());
  for (const StepEvaluation* r : s.results) squares += (member(*r) - *mean).cwiseAbs2();
  *standard_error = (squares / ((n - 1.0) * n)).cwiseSqrt();
}

// The zeroth-order fit's needs: B needs u perturbations, A also q perturbations.
void CheckZerothOrderMode(GradientMode mode, const RandomizedSmoothingSettings& settings) {
  CheckSettings(settings);
  QUASIDYN_CHECK_ARGUMENT(mode == GradientMode::kNone || settings.u_std > 0,
                          "zeroth-order smoothing", "B needs u_std > 0");
  QUASIDYN_CHECK_ARGUMENT(mode != GradientMode::kAAndB || settings.q_std > 0,
                          "zeroth-order smoothing", "A needs q_std > 0");
}

// Samples evaluated elsewhere: one per point, each successful one with the gradients of `mode`.
void CheckEvaluations(const char* who, const std::vector<StepEvaluation>& samples,
                      GradientMode mode, const RandomizedSmoothingSettings& settings) {
  CheckSettings(settings);
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(samples.size()) == settings.samples, who,
                          std::to_string(samples.size()) + " evaluated samples for samples = " +
                              std::to_string(settings.samples));
  for (size_t i = 0; i < samples.size(); ++i) {
    const StepEvaluation& e = samples[i];
    if (!e.ok()) continue;
    const bool has_b = e.derivatives.B.size() > 0, has_a = e.derivatives.A.size() > 0;
    QUASIDYN_CHECK_ARGUMENT(
        (mode == GradientMode::kNone || has_b) && (mode != GradientMode::kAAndB || has_a), who,
        "sample " + std::to_string(i) + " lacks the gradients " + "its mode asks for");
  }
}

SmoothedLinearization FailureOf(const Successes& s, const std::string& what) {
  SmoothedLinearization out;
  out.status = s.first_failure_status == SolverStatus::kNotRun ? SolverStatus::kNumericalFailure
                                                               : s.first_failure_status;
  out.message = what + (s.first_failure.empty() ? "" : " (first failure: " + s.first_failure + ")");
  out.samples_used = static_cast<int>(s.results.size());
  out.samples_failed = s.failed;
  out.first_failure = s.first_failure;
  return out;
}

}  // namespace

std::vector<StepPoint> SmoothingSamplePointRange(const Scene& scene, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& u,
                                                 const RandomizedSmoothingSettings& settings,
                                                 int first, int count) {
  CheckSettings(settings);
  CheckPoint(scene, q, u);
  QUASIDYN_CHECK_ARGUMENT(first >= 0 && count >= 0 && first <= settings.samples - count, kWhere,
                          "samples [" + std::to_string(first) + ", " +
                              std::to_string(static_cast<long long>(first) + count) +
                              ") are not within the " + std::to_string(settings.samples) +
                              " samples");
  const int na = scene.nq_a, nv = scene.nv;
  std::vector<StepPoint> points(count);
  for (int k = 0; k < count; ++k) {
    const Eigen::VectorXd xi = StandardNormalSample(settings.seed, first + k, na + nv);
    StepPoint& p = points[k];
    p.u = settings.u_std > 0 ? Eigen::VectorXd(u + settings.u_std * xi.head(na)) : u;
    // q ⊕ σ_q ξ_q: the tangent perturbation (rotation vectors for quaternions).
    p.x.q = settings.q_std > 0 ? IntegrateConfiguration(scene, q, settings.q_std * xi.tail(nv), 1.0)
                               : q;
  }
  return points;
}

std::vector<StepPoint> SmoothingSamplePoints(const Scene& scene, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& u,
                                             const RandomizedSmoothingSettings& settings) {
  CheckSettings(settings);
  return SmoothingSamplePointRange(scene, q, u, settings, 0, settings.samples);
}

SmoothedLinearization FirstOrderSmoothing(BatchStepper* batch, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& u, GradientMode mode,
                                          const RandomizedSmoothingSettings& settings) {
  const std::vector<StepPoint> points =
      SmoothingSamplePoints(batch->model().scene(), q, u, settings);
  // the batch's own buffer: evaluations overwritten in place, no allocation per sample
  return FirstOrderEstimate(batch->RunInPlace(points, mode), mode, settings);
}

SmoothedLinearization FirstOrderEstimate(const std::vector<StepEvaluation>& samples,
                                         GradientMode mode,
                                         const RandomizedSmoothingSettings& settings) {
  CheckEvaluations("first-order smoothing", samples, mode, settings);
  const Successes s = CollectSuccesses(samples, 0);
  if (s.results.empty()) return FailureOf(s, "every sample failed");

  SmoothedLinearization out;
  out.status = SolverStatus::kSolved;
  out.samples_used = static_cast<int>(s.results.size());
  out.samples_failed = s.failed;
  out.first_failure = s.first_failure;
  Eigen::MatrixXd q_next;
  MeanAndStandardError(
      s, [](const StepEvaluation& r) -> const Eigen::VectorXd& { return r.result.next.q; }, &q_next,
      nullptr);
  out.q_next = q_next.col(0);
  if (mode != GradientMode::kNone) {
    MeanAndStandardError(
        s, [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.B; },
        &out.B, &out.B_standard_error);
  }
  if (mode == GradientMode::kAAndB) {
    MeanAndStandardError(
        s, [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.A; },
        &out.A, &out.A_standard_error);
  }
  return out;
}

SmoothedLinearization ZerothOrderSmoothing(BatchStepper* batch, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& u, GradientMode mode,
                                           const RandomizedSmoothingSettings& settings) {
  const Scene& scene = batch->model().scene();
  CheckZerothOrderMode(mode, settings);
  // Point 0 is the baseline f(q, u); points 1 … N the samples. Steps only (mode kNone).
  std::vector<StepPoint> points{{State{q, Eigen::VectorXd()}, u}};
  const std::vector<StepPoint> samples = SmoothingSamplePoints(scene, q, u, settings);
  points.insert(points.end(), samples.begin(), samples.end());
  std::vector<StepEvaluation> results = batch->Run(points, GradientMode::kNone);
  const StepEvaluation baseline = std::move(results.front());
  results.erase(results.begin());
  return ZerothOrderEstimate(scene, q, mode, settings, baseline, results);
}

SmoothedLinearization ZerothOrderEstimate(const Scene& scene, const Eigen::VectorXd& q,
                                          GradientMode mode,
                                          const RandomizedSmoothingSettings& settings,
                                          const StepEvaluation& baseline,
                                          const std::vector<StepEvaluation>& samples) {
  CheckZerothOrderMode(mode, settings);
  CheckEvaluations("zeroth-order smoothing", samples, GradientMode::kNone, settings);
  CheckVector(kWhere, "q", q, scene.nq, "n_q");
  const bool want_b = mode != GradientMode::kNone;
  const bool want_a = mode == GradientMode::kAAndB;
  if (!baseline.ok()) {
    SmoothedLinearization out;
    out.status = baseline.result.status;
    out.message = "the baseline step f(q, u) failed: " + baseline.result.message;
    return out;
  }
  const Successes s = CollectSuccesses(samples, 0);
  if (s.results.empty()) return FailureOf(s, "every sample failed");

  const int na = scene.nq_a, nv = scene.nv, nq = scene.nq;
  const int n = static_cast<int>(s.results.size());
  const bool fit_u = settings.u_std > 0, fit_q = settings.q_std > 0;
  const int p = (fit_u ? na : 0) + (fit_q ? nv : 0);

  SmoothedLinearization out;
  out.samples_used = n;
  out.samples_failed = s.failed;
  out.first_failure = s.first_failure;
  out.q_next = Eigen::VectorXd::Zero(nq);
  for (const StepEvaluation* r : s.results) out.q_next += r->result.next.q;
  out.q_next /= n;
  out.status = SolverStatus::kSolved;
  if (!want_b) return out;
  if (n <= p)
    return FailureOf(s, "zeroth-order smoothing needs more successful samples (" +
                            std::to_string(n) + ") than fitted directions (" + std::to_string(p) +
                            ")");

  // W (n × p): the standard normal draws of the fitted directions; Δ (n × n_q).
  Eigen::MatrixXd W(n, p), delta(n, nq);
  for (int row = 0; row < n; ++row) {
    const Eigen::VectorXd xi = StandardNormalSample(settings.seed, s.indices[row], na + nv);
    if (fit_u) W.row(row).head(na) = xi.head(na).transpose();
    if (fit_q) W.row(row).tail(nv) = xi.tail(nv).transpose();
    delta.row(row) = (s.results[row]->result.next.q - baseline.result.next.q).transpose();
  }
  // Normal equations (WᵀW) Cᵀ = Wᵀ Δ; WᵀW is well conditioned for Gaussian W with n > p.
  const Eigen::MatrixXd gram = W.transpose() * W;
  const Eigen::LLT<Eigen::MatrixXd> factor(gram);
  if (factor.info() != Eigen::Success)
    return FailureOf(s, "zeroth-order smoothing: the samples' Gram matrix is singular");
  const Eigen::MatrixXd coefficients = factor.solve(W.transpose() * delta).transpose();  // n_q×p
  const Eigen::MatrixXd gram_inverse = factor.solve(Eigen::MatrixXd::Identity(p, p));
  const Eigen::MatrixXd residuals = delta - W * coefficients.transpose();
  const double dof_correction = static_cast<double>(n) / static_cast<double>(n - p);

  out.B = coefficients.leftCols(na) / settings.u_std;
  out.B_standard_error.resize(nq, na);
  Eigen::MatrixXd tangent;
  if (want_a) {
    tangent = TangentFromConfiguration(scene, q);  // n_v × n_q
    out.A = coefficients.rightCols(nv) / settings.q_std * tangent;
    out.A_standard_error.resize(nq, nq);
  }
  // Standard errors robust to residuals whose spread depends on ξ (a step with a contact switch
  // has zero residual on one side of it): the sandwich covariance of row j of C (White 1980,
  // Econometrica 48(4), eq. (4); HC1, MacKinnon & White 1985, J. Econometrics 29):
  //   Cov_j = n/(n − p) · G⁻¹ (Σ_i r_ij² w_i w_iᵀ) G⁻¹,  G = WᵀW, r_ij the residuals;
  // Var(B_jk) = Cov_j,kk / σ_u², Var(A_jl) = t_lᵀ Cov_j,qq t_l / σ_q², t_l column l of T.
  for (int j = 0; j < nq; ++j) {
    const Eigen::MatrixXd weighted = W.array().colwise() * residuals.col(j).array();
    const Eigen::MatrixXd covariance =
        dof_correction * gram_inverse * (weighted.transpose() * weighted) * gram_inverse;
    out.B_standard_error.row(j) =
        covariance.diagonal().head(na).cwiseMax(0.0).cwiseSqrt().transpose() / settings.u_std;
    if (want_a) {
      const Eigen::MatrixXd& qq = covariance.bottomRightCorner(nv, nv);
      out.A_standard_error.row(j) =
          (tangent.transpose() * qq * tangent).diagonal().cwiseMax(0.0).cwiseSqrt().transpose() /
          settings.q_std;
    }
  }
  return out;
}

}  // namespace quasidyn
