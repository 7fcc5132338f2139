#include "quasidyn/solvers/socp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/constraint_blocks.h"
#include "quasidyn/solvers/interior_point_settings_check.h"
#include "quasidyn/solvers/problem_value_checks.h"
#include "quasidyn/solvers/second_order_cone.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
namespace soc = second_order_cone;

// out[o … o+m) = W.block(o, 0, m, m) · in[o … o+m), for the tiny cone blocks (plain loops on
// the storage, below the sizes where Eigen's matrix-vector product pays for its dispatch);
// kFixed = m when the compiler may unroll by it, 0 otherwise.
template <int kFixed>
inline void MultiplyBlockOf(const MatrixXd& W, int o, int m_runtime, const double* in,
                            double* out) {
  const int m = kFixed > 0 ? kFixed : m_runtime;
  const double* block = W.data() + o;
  const Eigen::Index stride = W.rows();
  for (int r = 0; r < m; ++r) {
    double sum = 0.0;
    for (int c = 0; c < m; ++c) sum += block[r + stride * c] * in[o + c];
    out[o + r] = sum;
  }
}

// The same, unrolled for a friction cone (m = 3) and a linear row (m = 1).
inline void MultiplyBlock(const MatrixXd& W, int o, int m, const VectorXd& in, VectorXd& out) {
  if (m == 3) {
    MultiplyBlockOf<3>(W, o, 3, in.data(), out.data());
  } else if (m == 1) {
    out[o] = W(o, 0) * in[o];
  } else {
    MultiplyBlockOf<0>(W, o, m, in.data(), out.data());
  }
}

// weights.block(o, 0, m, m) = W⁻¹ W⁻¹ for the block W⁻¹ = W_inverse.block(o, 0, m, m); kFixed
// as MultiplyBlockOf.
template <int kFixed>
void SquareBlockOf(const MatrixXd& W_inverse, int o, int m_runtime, MatrixXd& weights) {
  const int m = kFixed > 0 ? kFixed : m_runtime;
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < m; ++c) {
      double sum = 0.0;
      for (int i = 0; i < m; ++i) sum += W_inverse(o + r, i) * W_inverse(o + i, c);
      weights(o + r, c) = sum;
    }
  }
}

double SocpInfNorm(const VectorXd& v) { return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0; }

void ValidateProblem(const char* where, const SocpProblem& p, bool check_values) {
  const int n = p.Q.rows();
  CheckShape(where, "Q", p.Q, n, n);
  CheckSize(where, "c", p.c.size(), n, "n");
  if (p.G.rows() > 0) CheckShape(where, "G", p.G, p.G.rows(), n);
  CheckSize(where, "h", p.h.size(), p.G.rows(), "rows of G");
  if (p.A.rows() > 0) CheckShape(where, "A", p.A, p.A.rows(), n);
  CheckSize(where, "b", p.b.size(), p.A.rows(), "rows of A");
  CheckConeDims(where, p.cone_dims, p.A.rows());
  if (!check_values) return;
  CheckProblemValuesFinite(where, p);
}

}  // namespace

void ValidateSocpSettings(const SocpSettings& s) {
  constexpr const char* kWhere = "SocpSettings";
  CheckInteriorPointSettings(kWhere, s);
  CheckPositive(kWhere, "warm_start_min_margin", s.warm_start_min_margin);
  ValidatePolishSettings(kWhere, s.polish);
}

void SocpSolver::Setup(const SocpProblem& problem, const SocpSettings& settings) {
  ValidateSocpSettings(settings);
  ValidateProblem("SocpSolver::Setup", problem, true);
  settings_ = settings;
  CopyConeProblem(problem, &problem_, &storage_);  // onto the last one's storage
  const int n = problem.Q.rows();
  linear_rows_ = problem.G.rows();
  const int max_dim =
      StackConstraintBlocks(problem_.G, problem_.h, problem_.A, problem_.b, problem_.cone_dims, n,
                            &A_, &b_, &offset_, &dim_, &storage_);
  const int rows = A_.rows();
  // Through the pool: a row count met before (contacts that come and go along a rollout) finds
  // its storage kept, and Setup allocates nothing for it.
  for (Eigen::MatrixXd* M : {&W_, &W_inverse_, &weights_}) storage_.Resize(M, rows, max_dim);
  normal_.Setup(problem_.Q, A_, offset_, dim_,
                SparsePathRule{settings.sparse_min_variables, settings.sparse_max_density});
  // The polish's normal matrix would be set up on the same Q, blocks and rule: it borrows
  // normal_, whose values the interior point no longer needs once its iterations end.
  polish_.SetupLent(n, rows, offset_, dim_);
  for (VectorXd* v : {&s_, &z_, &lambda_, &ds_, &dz_, &u_, &scratch_, &Ax_, &r_p_, &rc_,
                      &ds_affine_, &dz_affine_, &product_, &Adx_})
    storage_.Resize(v, rows);
  for (VectorXd* v : {&dx_, &rhs_, &Qx_, &Atz_, &r_d_}) storage_.Resize(v, n);
  // A result not yet solved, on the storage of the last one (its vectors through the pool, its
  // offsets' and message's capacity kept).
  result_.status = SolverStatus::kNotRun;
  result_.message.clear();
  result_.objective = 0.0;
  result_.info = SocpInfo();
  storage_.Resize(&result_.x, n);
  storage_.Resize(&result_.linear_duals, linear_rows_);
  storage_.Resize(&result_.cone_duals, rows - linear_rows_);
  result_.cone_offset.clear();
  for (size_t k = 0, row = 0; k < problem.cone_dims.size(); row += problem.cone_dims[k++])
    result_.cone_offset.push_back(static_cast<int>(row));
  ready_ = true;
}

bool SocpSolver::SamePattern(const SocpProblem& p) const {
  return ready_ && SameConePattern(p, problem_);
}

void SocpSolver::UpdateValues(const SocpProblem& problem) {
  QUASIDYN_CHECK_ARGUMENT(SamePattern(problem), "SocpSolver::UpdateValues",
                          "the problem has other sizes or sparsity patterns than at Setup; call "
                          "Setup");
  ValidateProblem("SocpSolver::UpdateValues", problem, true);
  problem_.Q = problem.Q;  // same sizes: storage reused
  problem_.c = problem.c;
  problem_.G = problem.G;
  problem_.h = problem.h;
  problem_.A = problem.A;
  problem_.b = problem.b;
  StackConstraintBlocks(problem_.G, problem_.h, problem_.A, problem_.b, problem_.cone_dims,
                        problem_.Q.rows(), &A_, &b_, &offset_, &dim_);
  normal_.UpdateValues(problem_.Q, A_);
  polish_.UpdateValues(problem_.Q, A_);
}

void SocpSolver::UpdateSettings(const SocpSettings& settings) {
  ValidateSocpSettings(settings);
  QUASIDYN_CHECK_ARGUMENT(settings.sparse_min_variables == settings_.sparse_min_variables &&
                              settings.sparse_max_density == settings_.sparse_max_density,
                          "SocpSolver::UpdateSettings",
                          "the sparse-path rule can change only through Setup");
  settings_ = settings;
}

bool SocpSolver::Factor() {
  const Eigen::Index stride = W_.rows();
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    const double* s = s_.data() + o;
    const double* z = z_.data() + o;
    // The scaling needs s and z strictly inside K (sᵀJs > 0, zᵀJz > 0).
    if (!(soc::InteriorMargin(s, m) > 0 && soc::JNorm2(s, m) > 0 && soc::InteriorMargin(z, m) > 0 &&
          soc::JNorm2(z, m) > 0)) {
      return false;
    }
    soc::NesterovToddScaling(s, z, m, W_.data() + o, stride, W_inverse_.data() + o, stride);
    MultiplyBlock(W_, o, m, z_, lambda_);  // λ = W z
    // W⁻² = W⁻¹ W⁻¹
    if (m == 3) {
      SquareBlockOf<3>(W_inverse_, o, 3, weights_);
    } else if (m == 1) {
      SquareBlockOf<1>(W_inverse_, o, 1, weights_);
    } else {
      SquareBlockOf<0>(W_inverse_, o, m, weights_);
    }
  }
  // Vandenberghe 2010, eq. (4.12) reduced to the normal equations: Q + Aᵀ W⁻² A (W symmetric).
  normal_.Assemble(weights_, settings_.kkt_regularization);
  return normal_.Factorize();
}

bool SocpSolver::StrictlyInterior(const VectorXd& v) const {
  for (size_t k = 0; k < dim_.size(); ++k) {
    const double* segment = v.data() + offset_[k];
    if (!(soc::InteriorMargin(segment, dim_[k]) > 0 && soc::JNorm2(segment, dim_[k]) > 0))
      return false;
  }
  return true;
}

// Newton direction for the complementarity right-hand side rc, i.e. λ ∘ (W Δz + W⁻¹ Δs) = rc:
//   u = λ⁻¹ ∘ rc (Jordan division),
//   (Q + AᵀW⁻²A) Δx = −r_d + Aᵀ(W⁻¹u − W⁻² r_p),  Δs = A Δx + r_p,  Δz = W⁻¹(u − W⁻¹ Δs).
void SocpSolver::Direction(const VectorXd& r_d, const VectorXd& r_p, const VectorXd& rc) {
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    soc::JordanDivide(lambda_.data() + o, rc.data() + o, m, u_.data() + o);
    // scratch = W⁻¹(u − W⁻¹ r_p)
    MultiplyBlock(W_inverse_, o, m, r_p, dz_);
    for (int i = o; i < o + m; ++i) dz_[i] = u_[i] - dz_[i];
    MultiplyBlock(W_inverse_, o, m, dz_, scratch_);
  }
  normal_.MultiplyAt(scratch_, &rhs_);
  rhs_ -= r_d;
  normal_.Solve(rhs_, &dx_);
  normal_.MultiplyA(dx_, &ds_);
  Adx_ = ds_;  // the last call's (the corrector's) A Δx carries A x to the next iterate
  ds_ += r_p;
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    MultiplyBlock(W_inverse_, o, m, ds_, scratch_);
    for (int i = o; i < o + m; ++i) scratch_[i] = u_[i] - scratch_[i];
    MultiplyBlock(W_inverse_, o, m, scratch_, dz_);
  }
}

// Start (Vandenberghe 2010, §4.4 "initialization", simplified): x0 = argmin ½xᵀQx + cᵀx +
// ½‖Ax + b‖², s = Ax0 + b shifted along e until every cone has margin >= 1, z = e.
void SocpSolver::ColdStart() {
  const int cone_count = static_cast<int>(dim_.size());
  VectorXd& x = result_.x;
  s_.setOnes();
  z_.setOnes();
  for (int k = 0; k < cone_count; ++k) {
    s_.segment(offset_[k], dim_[k]).setZero();
    s_[offset_[k]] = 1.0;
  }
  z_ = s_;
  for (int k = 0; k < cone_count; ++k) {
    weights_.block(offset_[k], 0, dim_[k], dim_[k]).setIdentity();  // Q + AᵀA
  }
  normal_.Assemble(weights_, settings_.kkt_regularization);
  if (normal_.Factorize()) {
    normal_.MultiplyAt(b_, &rhs_);
    rhs_ = -problem_.c - rhs_;
    normal_.Solve(rhs_, &x);
  } else {
    x.setZero();
  }
  if (!x.allFinite()) x.setZero();
  normal_.MultiplyA(x, &Ax_);
  u_ = Ax_ + b_;
  double worst_margin = std::numeric_limits<double>::infinity();
  for (int k = 0; k < cone_count; ++k) {
    worst_margin = std::min(worst_margin, soc::InteriorMargin(u_.segment(offset_[k], dim_[k])));
  }
  const double shift = worst_margin < 1.0 ? 1.0 - worst_margin : 0.0;
  for (int k = 0; k < cone_count; ++k) {
    s_.segment(offset_[k], dim_[k]) = u_.segment(offset_[k], dim_[k]);
    s_[offset_[k]] += shift;
  }
}

// Warm: x the guess, s = A x + b and z the guess (e where none is given), each cone segment
// with a margin below warm_start_min_margin shifted along e to it: the QP's lift of slacks and
// multipliers to a floor (qp.h), for which a cone's margin u0 − ‖u1‖ plays the part of the
// value (e is the cone's centre direction: the shift keeps u1 and adds to u0 only).
void SocpSolver::WarmStart(const SocpWarmStart& warm_start) {
  const int cone_count = static_cast<int>(dim_.size());
  const double floor = settings_.warm_start_min_margin;
  result_.x = warm_start.x;
  normal_.MultiplyA(result_.x, &Ax_);
  s_ = Ax_ + b_;
  if (warm_start.z.size() == z_.size()) {
    z_ = warm_start.z;
  } else {
    z_.setZero();
    for (int k = 0; k < cone_count; ++k) z_[offset_[k]] = 1.0;
  }
  for (int k = 0; k < cone_count; ++k) {
    const int o = offset_[k], m = dim_[k];
    for (VectorXd* v : {&s_, &z_}) {
      const double margin = soc::InteriorMargin(v->segment(o, m));
      if (margin < floor) (*v)[o] += floor - margin;
    }
  }
}

const SocpResult& SocpSolver::Solve(const SocpWarmStart& warm_start) {
  QUASIDYN_CHECK_ARGUMENT(ready_, "SocpSolver::Solve", "call Setup first");
  QUASIDYN_CHECK_ARGUMENT(warm_start.x.size() == 0 || warm_start.x.size() == result_.x.size(),
                          "SocpSolver::Solve", "warm start x must be empty or have size n");
  QUASIDYN_CHECK_ARGUMENT(warm_start.z.size() == 0 || warm_start.z.size() == A_.rows(),
                          "SocpSolver::Solve",
                          "warm start z must be empty or have the stacked rows' size p + sum m_k");
  QUASIDYN_CHECK_ARGUMENT(warm_start.x.allFinite() && warm_start.z.allFinite(), "SocpSolver::Solve",
                          "warm start x and z must be finite");
  const auto start_time = std::chrono::steady_clock::now();
  const SocpProblem& problem = problem_;
  const SocpSettings& settings = settings_;
  const Eigen::Index rows = A_.rows();
  const int cone_count = static_cast<int>(dim_.size());
  SocpResult& result = result_;
  result.status = SolverStatus::kNotRun;
  result.message.clear();
  result.info = SocpInfo();
  result.info.used_sparse_path = normal_.sparse();
  VectorXd& x = result.x;
  VectorXd &Qx = Qx_, &Atz = Atz_, &r_d = r_d_, &Ax = Ax_, &r_p = r_p_, &rc = rc_;
  VectorXd &ds_affine = ds_affine_, &dz_affine = dz_affine_, &product = product_;

  if (warm_start.x.size() == 0) {
    ColdStart();
  } else {
    WarmStart(warm_start);
  }

  const auto scaled_tolerance = [&](double factor, double scale) {
    return factor * (settings.absolute_tolerance + settings.relative_tolerance * scale);
  };
  double primal_scale = 0, dual_scale = 0, gap_scale = 0, gap = 0;
  const auto converged = [&](double factor) {
    return SocpInfNorm(r_p) <= scaled_tolerance(factor, primal_scale) &&
           SocpInfNorm(r_d) <= scaled_tolerance(factor, dual_scale) &&
           gap <= scaled_tolerance(factor, gap_scale);
  };
  const auto max_step = [&](const VectorXd& v, const VectorXd& dv) {
    double alpha = std::numeric_limits<double>::infinity();
    for (int k = 0; k < cone_count; ++k) {
      alpha = std::min(
          alpha, soc::MaxStepToBoundary(v.data() + offset_[k], dv.data() + offset_[k], dim_[k]));
    }
    return alpha;
  };

  SolverStatus status = SolverStatus::kMaxIterations;
  int iteration = 0;
  for (;; ++iteration) {
    normal_.MultiplyQ(x, &Qx);
    // A x is carried along (A x₀ before the loop, then A x += α A Δx with the corrector's
    // A Δx): one product with A fewer per iteration; it differs from a fresh product by
    // rounding only (a few ulps per iteration, far below the stopping tolerances).
    normal_.MultiplyAt(z_, &Atz);
    r_d = Qx + problem.c - Atz;
    r_p = Ax + b_ - s_;
    gap = s_.dot(z_);
    result.objective = 0.5 * x.dot(Qx) + problem.c.dot(x);
    primal_scale = std::max({SocpInfNorm(Ax), SocpInfNorm(s_), SocpInfNorm(b_)});
    dual_scale = std::max({SocpInfNorm(Qx), SocpInfNorm(problem.c), SocpInfNorm(Atz)});
    gap_scale = std::max(1.0, std::abs(result.objective));
    if (!x.allFinite() || !s_.allFinite() || !z_.allFinite()) {
      status = SolverStatus::kNumericalFailure;
      result.message = "non-finite iterate";
      break;
    }
    if (converged(1.0)) {
      status = SolverStatus::kSolved;
      break;
    }
    const double certificate = -b_.dot(z_);
    if (rows > 0 && certificate > 0 &&
        SocpInfNorm(Atz) <= settings.infeasibility_tolerance * certificate) {
      status = SolverStatus::kInfeasible;
      break;
    }
    if (iteration >= settings.max_iterations) break;
    if (!Factor()) {
      status = SolverStatus::kNumericalFailure;
      result.message = "Nesterov–Todd scaling or Cholesky factorisation of Q + Aᵀ W⁻² A failed";
      break;
    }
    // Predictor: rc = −λ ∘ λ.
    for (int k = 0; k < cone_count; ++k) {
      const int o = offset_[k], m = dim_[k];
      soc::JordanProduct(lambda_.data() + o, lambda_.data() + o, m, rc.data() + o);
    }
    rc = -rc;
    Direction(r_d, r_p, rc);
    const double mu = gap / std::max(1, cone_count);
    double alpha = std::min({1.0, max_step(s_, ds_), max_step(z_, dz_)});
    const double mu_affine =
        cone_count > 0 ? (s_ + alpha * ds_).dot(z_ + alpha * dz_) / cone_count : 0.0;
    const double ratio = mu > 0 ? std::max(0.0, mu_affine) / mu : 0.0;
    const double sigma = ratio * ratio * ratio;
    // Corrector (Vandenberghe 2010, eq. (4.20)): rc = −λ∘λ + σμe − (W⁻¹Δs_a) ∘ (W Δz_a).
    ds_affine = ds_;
    dz_affine = dz_;
    for (int k = 0; k < cone_count; ++k) {
      const int o = offset_[k], m = dim_[k];
      MultiplyBlock(W_inverse_, o, m, ds_affine, scratch_);
      MultiplyBlock(W_, o, m, dz_affine, u_);
      soc::JordanProduct(scratch_.data() + o, u_.data() + o, m, product.data() + o);
      for (int i = o; i < o + m; ++i) rc[i] -= product[i];
      rc[o] += sigma * mu;
    }
    Direction(r_d, r_p, rc);
    alpha =
        std::min(1.0, settings.step_to_boundary * std::min(max_step(s_, ds_), max_step(z_, dz_)));
    // The ratio test is exact only up to rounding: near the apex of a cone (s → 0) the
    // step may still land on or outside ∂K, so shorten it until s and z are strictly inside.
    for (int halvings = 0; halvings < 60 && alpha > 1e-14; ++halvings) {
      u_ = s_ + alpha * ds_;
      product = z_ + alpha * dz_;
      if (StrictlyInterior(u_) && StrictlyInterior(product)) break;
      alpha *= 0.5;
    }
    if (!(alpha > 1e-14)) {
      result.message = "step length vanished";
      break;
    }
    x += alpha * dx_;
    Ax += alpha * Adx_;
    s_ += alpha * ds_;
    z_ += alpha * dz_;
  }

  result.info.iterations = iteration;
  result.info.primal_residual = SocpInfNorm(r_p);
  result.info.dual_residual = SocpInfNorm(r_d);
  result.info.complementarity_gap = gap;
  // Stopped early (iteration limit, vanished step, or a scaling / factorisation failure near
  // the boundary of a cone) at a finite point that meets the looser test: report it as such.
  if ((status == SolverStatus::kMaxIterations || status == SolverStatus::kNumericalFailure) &&
      x.allFinite() && s_.allFinite() && z_.allFinite() && converged(settings.inaccurate_factor)) {
    status = SolverStatus::kSolvedInaccurate;
  }
  if (status != SolverStatus::kSolved && cone_count > 0) {
    // Name the constraint most violated at x: margin u0 − ‖u1‖ of u = A_k x + b_k.
    u_ = Ax + b_;
    int worst = 0;
    double worst_value = std::numeric_limits<double>::infinity();
    for (int k = 0; k < cone_count; ++k) {
      const double margin = soc::InteriorMargin(u_.segment(offset_[k], dim_[k]));
      if (margin < worst_value) {
        worst_value = margin;
        worst = k;
      }
    }
    std::ostringstream message;
    if (!result.message.empty()) message << result.message << "; ";
    message << ToString(status) << " after " << iteration << " iterations; most violated: ";
    if (worst < linear_rows_) {
      message << "linear row " << worst;
    } else {
      message << "cone " << worst - linear_rows_;
    }
    message << " (margin t - |z| = " << worst_value << ")";
    result.message = message.str();
  }
  if (Succeeded(status))
    polish_.Polish(problem_.Q, problem.c, b_, settings.polish, &z_, &result, &normal_);
  result.linear_duals = z_.head(linear_rows_);
  result.cone_duals = z_.tail(rows - linear_rows_);
  result.status = status;
  result.info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

SocpResult Solve(const SocpProblem& problem, const SocpSettings& settings) {
  SocpSolver solver;
  solver.Setup(problem, settings);
  return solver.Solve();
}

}  // namespace quasidyn
