#include "quasidyn/solvers/active_set_polish.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

double InfNorm(const Eigen::VectorXd& v) {
  return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0;
}

// t − ‖s‖ of a block (t for a half line): >= 0 inside the cone.
double ConeMargin(const Eigen::Ref<const Eigen::VectorXd>& v) {
  return v.size() == 1 ? v[0] : v[0] - v.tail(v.size() - 1).norm();
}

}  // namespace

void ValidatePolishSettings(const char* where, const PolishSettings& s) {
  CheckPositive(where, "polish.delta", s.delta);
  CheckNonNegative(where, "polish.primal_regularization", s.primal_regularization);
  QUASIDYN_CHECK_ARGUMENT(s.max_refinements >= 0, where, "polish.max_refinements must be >= 0");
  CheckNonNegative(where, "polish.rounding_floor", s.rounding_floor);
}

void ActiveSetPolisher::Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A,
                              const std::vector<int>& offset, const std::vector<int>& dim,
                              const SparsePathRule& rule) {
  if (!normal_) normal_ = std::make_unique<BlockNormalMatrix>();
  normal_->Setup(Q, A, offset, dim, rule);
  lent_ = false;
  offset_ = offset;
  dim_ = dim;
  SizeWorkspace(Q.rows(), A.rows());
}

void ActiveSetPolisher::SetupLent(int n, int rows, const std::vector<int>& offset,
                                  const std::vector<int>& dim) {
  normal_.reset();  // its storage is not needed any more
  lent_ = true;
  offset_ = offset;
  dim_ = dim;
  SizeWorkspace(n, rows);
}

void ActiveSetPolisher::SizeWorkspace(int n, int rows) {
  int max_dim = 1;
  for (int d : dim_) max_dim = std::max(max_dim, d);
  single_rows_ = max_dim == 1;
  for (Eigen::MatrixXd* M : {&projections_, &weights_}) {
    storage_.Resize(M, rows, max_dim);
    M->setZero();
  }
  for (Eigen::VectorXd* v : {&z_, &dz_, &u_, &e2_, &rows_}) {
    storage_.Resize(v, rows);
    v->setZero();
  }
  for (Eigen::VectorXd* v : {&x_, &dx_, &e1_, &columns_, &rhs_, &qx_}) {
    storage_.Resize(v, n);
    v->setZero();
  }
}

void ActiveSetPolisher::UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A) {
  if (!lent_) normal_->UpdateValues(Q, A);
}

void ActiveSetPolisher::Project(const Eigen::VectorXd& in, Eigen::VectorXd* out) const {
  if (single_rows_) {  // P diagonal: P_kk in_k (the loop below adds it to 0.0: the same value)
    *out = projections_.col(0).cwiseProduct(in);
    return;
  }
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    for (int r = 0; r < m; ++r) {
      double sum = 0.0;
      for (int c = 0; c < m; ++c) sum += projections_(o + r, c) * in[o + c];
      (*out)[o + r] = sum;
    }
  }
}

void ActiveSetPolisher::Classify(const Eigen::VectorXd& z, PolishInfo* info) {
  info->binding_blocks = info->sliding_blocks = 0;
  if (single_rows_) {  // half lines: P_k = 1 when z_k − u_k > 0 (the loop below with radius 0)
    for (Eigen::Index k = 0; k < z.size(); ++k) {
      const bool binding = z[k] - u_[k] > 0;
      projections_(k, 0) = binding ? 1.0 : 0.0;
      info->binding_blocks += binding;
    }
    return;
  }
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    auto P = projections_.block(o, 0, m, m);
    P.setZero();
    // w = z − u: σ₁ = w₀ − ‖w₁‖, σ₂ = w₀ + ‖w₁‖ (header, step 1).
    const double w0 = z[o] - u_[o];
    double radius = 0.0;
    for (int r = 1; r < m; ++r) radius += (z[o + r] - u_[o + r]) * (z[o + r] - u_[o + r]);
    radius = std::sqrt(radius);
    if (w0 - radius > 0) {
      P.setIdentity();
      ++info->binding_blocks;
    } else if (w0 + radius > 0 && m > 1) {
      // Sliding: u along r̂ = (1, −ŵ)/√2; P = I − r̂ r̂ᵀ.
      P.setIdentity();
      for (int r = 0; r < m; ++r) {
        const double rr = r == 0 ? 1.0 : -(z[o + r] - u_[o + r]) / radius;
        for (int c = 0; c < m; ++c) {
          const double rc = c == 0 ? 1.0 : -(z[o + c] - u_[o + c]) / radius;
          P(r, c) -= 0.5 * rr * rc;
        }
      }
      ++info->sliding_blocks;
    }
  }
}

double ActiveSetPolisher::Residual(const Eigen::VectorXd& c, const Eigen::VectorXd& b,
                                   const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                   const Eigen::VectorXd* dual_residual) {
  double residual = 0.0;
  if (dual_residual != nullptr) {
    residual = InfNorm(*dual_residual);
  } else {
    system_->MultiplyQ(x, &qx_);
    columns_ = qx_ + c;
    system_->MultiplyAt(z, &rhs_);
    columns_ -= rhs_;
    residual = InfNorm(columns_);
  }
  system_->MultiplyA(x, &u_);
  u_ += b;
  return std::max(residual, BlockResidual(u_, z));
}

double ActiveSetPolisher::BlockResidual(const Eigen::VectorXd& u, const Eigen::VectorXd& z) const {
  double residual = 0.0;
  if (single_rows_) {  // half lines: max(−u_k, −z_k, |u_k z_k|), coefficient-wise
    if (u.size() == 0) return residual;
    return std::max(
        {residual, (-u).maxCoeff(), (-z).maxCoeff(), u.cwiseProduct(z).cwiseAbs().maxCoeff()});
  }
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    residual = std::max({residual, -ConeMargin(u.segment(o, m)), -ConeMargin(z.segment(o, m)),
                         std::abs(u.segment(o, m).dot(z.segment(o, m)))});
  }
  return residual;
}

bool ActiveSetPolisher::Polish(const Eigen::VectorXd& c, const Eigen::VectorXd& b,
                               const PolishSettings& settings, Eigen::VectorXd* x,
                               Eigen::VectorXd* z, PolishInfo* info, PolishNormalSystem* lent,
                               const Eigen::VectorXd* dual_residual) {
  *info = PolishInfo();
  if (!settings.enabled || dim_.empty()) return false;
  QUASIDYN_CHECK_ARGUMENT(lent_ == (lent != nullptr), "ActiveSetPolisher::Polish",
                          "a lent normal matrix is required after SetupLent and only then");
  system_ = lent_ ? lent : normal_.get();
  info->attempted = true;
  info->residual_before = Residual(c, b, *x, *z, dual_residual);
  Classify(*z, info);  // from Residual's u = A x + b
  weights_ = projections_ / settings.delta;
  system_->Assemble(weights_, settings.primal_regularization);
  if (!system_->Factorize()) return false;
  // Iterative refinement from (0, 0) on the exact equality KKT system (header, step 2):
  //   e1 = −(Q x + c − Aᵀ z),  e2 = −P (A x + b),
  //   (Q + Aᵀ (P/δ) A) dx = e1 + Aᵀ e2/δ,  dz = (e2 − P A dx)/δ.
  // From (0, 0), not from the interior point's answer: where the active rows outnumber the
  // velocities they bind (a box on a box, four corners), the multipliers are not unique, and
  // the refinement keeps the start's component in the null space of the active rows' Aᵀ
  // (started from the interior point's z, the arm's polished impulses moved by up to 58 % of
  // their largest: docs/performance.md, "The polish at the rounding floor").
  x_.setZero();
  z_.setZero();
  const double epsilon = std::numeric_limits<double>::epsilon();
  double previous = std::numeric_limits<double>::infinity();
  // At the end of each pass e1 = Aᵀz − (Q x + c), u = A x + b and qx = Q x are those of (x, z):
  // the residual of the answer and QpPolish's slacks and objective without more products.
  bool products_current = true;
  for (int pass = 0; pass <= settings.max_refinements + 1; ++pass) {
    double largest_term = 0.0;
    if (pass == 0) {  // (x, z) = (0, 0): the products are zeros (the data are finite)
      qx_.setZero();
      e1_.setZero();
      e1_ -= c;
      u_.setZero();
      u_ += b;
      largest_term = std::max(InfNorm(c), InfNorm(b));
    } else {
      system_->MultiplyQ(x_, &qx_);
      largest_term = std::max(InfNorm(qx_), InfNorm(c));
      e1_ = qx_ + c;
      system_->MultiplyAt(z_, &rhs_);
      largest_term = std::max(largest_term, InfNorm(rhs_));
      e1_ = rhs_ - e1_;
      system_->MultiplyA(x_, &u_);
      largest_term = std::max({largest_term, InfNorm(u_), InfNorm(b)});
      u_ += b;
    }
    Project(u_, &e2_);
    e2_ = -e2_;
    const double error = std::max(InfNorm(e1_), InfNorm(e2_));
    if (!(error < previous)) {  // the last correction did not help: undo it
      if (pass > 0) {
        x_ -= dx_;
        z_ -= dz_;
        products_current = false;
      }
      break;
    }
    previous = error;
    if (error <= settings.rounding_floor * epsilon * largest_term ||
        pass > settings.max_refinements)
      break;
    system_->MultiplyAt(e2_, &rhs_);
    rhs_ = e1_ + rhs_ / settings.delta;
    system_->Solve(rhs_, &dx_);
    system_->MultiplyA(dx_, &rows_);
    Project(rows_, &dz_);
    dz_ = (e2_ - dz_) / settings.delta;
    x_ += dx_;
    z_ += dz_;
  }
  if (!x_.allFinite() || !z_.allFinite()) return false;
  // Residual's value from the last pass's products when they are (x, z)'s: its dual part
  // (Q x + c) − Aᵀz is −e1 exactly, its u the same.
  info->residual_after =
      products_current ? std::max(InfNorm(e1_), BlockResidual(u_, z_)) : Residual(c, b, x_, z_);
  if (!(info->residual_after < info->residual_before)) return false;
  *x = x_;
  *z = z_;
  info->succeeded = true;
  return true;
}

}  // namespace quasidyn
