#include "quasidyn/solvers/active_set_polish.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
// A polished answer with sliding cones is kept when its KKT residual is at most this many ε of
// the scale of its terms (ActiveSetPolisher::sliding_scale_). Ours.
constexpr double kSlidingAcceptance = 1e3;

double InfNorm(const Eigen::VectorXd& v) {
  return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0;
}

// t − ‖s‖ of a block (t for a half line): >= 0 inside the cone.
double ConeMargin(const Eigen::Ref<const Eigen::VectorXd>& v) {
  return v.size() == 1 ? v[0] : v[0] - v.tail(v.size() - 1).norm();
}

// ‖u ∘ z‖∞ of one block, the Jordan product u ∘ z = (uᵀz, u₀ z₁ + z₀ u₁) whose zero is the
// complementarity of the second-order cone (Alizadeh & Goldfarb, "Second-order cone
// programming", Math. Program. 2003, §4): its second part is first order in the angle between
// the slip and the friction's opposite, which uᵀz (second order there) does not see. |u z| for a
// half line.
double JordanProductNorm(const Eigen::Ref<const Eigen::VectorXd>& u,
                         const Eigen::Ref<const Eigen::VectorXd>& z) {
  double norm = std::abs(u.dot(z));
  for (Eigen::Index r = 1; r < u.size(); ++r)
    norm = std::max(norm, std::abs(u[0] * z[r] + z[0] * u[r]));
  return norm;
}

}  // namespace

void ValidatePolishSettings(const char* where, const PolishSettings& s) {
  CheckPositive(where, "polish.delta", s.delta);
  CheckNonNegative(where, "polish.primal_regularization", s.primal_regularization);
  QUASIDYN_CHECK_ARGUMENT(s.max_refinements >= 0, where, "polish.max_refinements must be >= 0");
  CheckNonNegative(where, "polish.rounding_floor", s.rounding_floor);
  QUASIDYN_CHECK_ARGUMENT(s.max_rounds >= 1, where, "polish.max_rounds must be >= 1");
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
  for (Eigen::MatrixXd* M : {&projections_, &weights_, &softs_}) {
    storage_.Resize(M, rows, max_dim);
    M->setZero();
  }
  kinds_.assign(dim_.size(), BlockKind::kInactive);
  for (Eigen::VectorXd* v : {&z_, &dz_, &u_, &e2_, &rows_, &best_z_, &best_u_, &full_z_}) {
    storage_.Resize(v, rows);
    v->setZero();
  }
  for (Eigen::VectorXd* v : {&x_, &dx_, &e1_, &columns_, &rhs_, &qx_, &best_x_, &best_qx_}) {
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
    switch (kinds_[k]) {
      case BlockKind::kInactive:  // P_k = 0
        out->segment(o, m).setZero();
        break;
      case BlockKind::kBinding:  // P_k = I
        out->segment(o, m) = in.segment(o, m);
        break;
      case BlockKind::kSliding:  // P_k = ½ a aᵀ: a t, t = ½ aᵀ in (header, step 2)
        SetAlongSlidingRay(k, SlidingComponent(k, in), out);
        break;
    }
  }
}

double ActiveSetPolisher::SlidingComponent(size_t k, const Eigen::VectorXd& v) const {
  const int o = offset_[k], m = dim_[k];
  double t = 0.0;  // P's first row is ½ aᵀ (a₀ = 1)
  for (int c = 0; c < m; ++c) t += projections_(o, c) * v[o + c];
  return t;
}

void ActiveSetPolisher::SetAlongSlidingRay(size_t k, double t, Eigen::VectorXd* out) const {
  const int o = offset_[k], m = dim_[k];
  (*out)[o] = t;  // a₀ t, a₀ = 1
  for (int r = 1; r < m; ++r) (*out)[o + r] = 2.0 * projections_(o, r) * t;
}

void ActiveSetPolisher::MultiplierStep(const Eigen::VectorXd& a_dx, double delta) {
  Project(a_dx, &dz_);
  dz_ = (e2_ - dz_) / delta;
  // A sliding block's difference taken again of the two scalars along a (header, step 2).
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (kinds_[k] != BlockKind::kSliding) continue;
    SetAlongSlidingRay(k, (e2_[offset_[k]] - SlidingComponent(k, a_dx)) / delta, &dz_);
  }
}

int ActiveSetPolisher::Classify(const Eigen::VectorXd& z, double delta, PolishInfo* info) {
  info->binding_blocks = info->sliding_blocks = 0;
  int changed = 0;
  const auto record = [&](size_t k, BlockKind kind) {
    changed += kinds_[k] != kind;
    kinds_[k] = kind;
  };
  if (single_rows_) {  // half lines: P_k = 1 when z_k − u_k > 0 (the loop below with radius 0)
    for (Eigen::Index k = 0; k < z.size(); ++k) {
      const bool binding = z[k] - u_[k] > 0;
      projections_(k, 0) = binding ? 1.0 : 0.0;
      info->binding_blocks += binding;
      record(k, binding ? BlockKind::kBinding : BlockKind::kInactive);
    }
    return changed;
  }
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    auto P = projections_.block(o, 0, m, m);
    P.setZero();
    softs_.block(o, 0, m, m).setZero();
    // w = z − u: σ₁ = w₀ − ‖w₁‖, σ₂ = w₀ + ‖w₁‖ (header, step 1).
    const double w0 = z[o] - u_[o];
    double radius = 0.0;
    for (int r = 1; r < m; ++r) radius += (z[o + r] - u_[o + r]) * (z[o + r] - u_[o + r]);
    radius = std::sqrt(radius);
    if (w0 - radius > 0) {
      P.setIdentity();
      ++info->binding_blocks;
      record(k, BlockKind::kBinding);
    } else if (w0 + radius > 0 && m > 1) {
      // Sliding (header, step 1): u_k ⟂ l̂ = (1, ŵ)/√2 exactly (P_k = l̂ l̂ᵀ, z_k's free
      // part along l̂), and across the slip, along the directions e ⟂ ŵ of the tangent plane,
      // the linearised turn of ŵ: z_e = −κ u_e with κ = α/β, z ≈ α (1, ŵ) and u ≈ β (1, −ŵ)
      // at the point of the guess (S_k = κ (I − r̂ r̂ᵀ − l̂ l̂ᵀ), r̂ = (1, −ŵ)/√2). Fixing ŵ
      // instead (P_k = I − r̂ r̂ᵀ) over-determines redundant sliding contacts (a face's points
      // on one body) and the polish's residual grew from the interior point's 3e-11 to 1e-9.
      const double alpha = z[o], beta = u_[o];
      const double kappa = alpha > 0 && beta > 0 ? std::min(alpha / beta, 1.0 / delta)
                                                 : 1.0 / delta;  // no turn: ŵ held
      auto S = softs_.block(o, 0, m, m);
      for (int r = 0; r < m; ++r) {
        const double wr = r == 0 ? 0.0 : (z[o + r] - u_[o + r]) / radius;
        for (int c = 0; c < m; ++c) {
          const double wc = c == 0 ? 0.0 : (z[o + c] - u_[o + c]) / radius;
          // l̂ l̂ᵀ = ½ (1, ŵ)(1, ŵ)ᵀ; I − r̂ r̂ᵀ − l̂ l̂ᵀ = (0 ⊕ (I − ŵ ŵᵀ)).
          P(r, c) = 0.5 * (r == 0 ? 1.0 : wr) * (c == 0 ? 1.0 : wc);
          S(r, c) = r == 0 || c == 0 ? 0.0 : kappa * ((r == c ? 1.0 : 0.0) - wr * wc);
        }
      }
      ++info->sliding_blocks;
      record(k, BlockKind::kSliding);
    } else {
      record(k, BlockKind::kInactive);
    }
  }
  return changed;
}

void ActiveSetPolisher::FullMultipliers() {
  full_z_ = z_;
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (kinds_[k] != BlockKind::kSliding) continue;
    const int o = offset_[k], m = dim_[k];
    full_z_.segment(o, m).noalias() -= softs_.block(o, 0, m, m) * u_.segment(o, m);
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
  stationarity_ = residual;
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
                         JordanProductNorm(u.segment(o, m), z.segment(o, m))});
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
  const double stationarity_before = stationarity_;
  double best = std::numeric_limits<double>::infinity();
  double best_stationarity = best, stationarity_floor = 0.0;
  PolishInfo guess;
  // x_, z_, u_, qx_ hold the best round's answer but while a later round runs: its answer is
  // then kept in best_x_ … (copied only when a later round runs).
  bool best_in_place = false;
  for (int round = 0; round < settings.max_rounds; ++round) {
    // The guess from the interior point's answer, then from the last round's (u_ = A x + b
    // of either, from Residual or SolveActiveSet).
    const int changed = Classify(round == 0 ? *z : z_, settings.delta, &guess);
    if (round > 0 && changed == 0 && guess.sliding_blocks == 0) break;  // the same problem
    if (best_in_place) {
      best_x_ = x_;
      best_z_ = z_;
      best_u_ = u_;
      best_qx_ = qx_;
      best_in_place = false;
    }
    weights_ = projections_ / settings.delta;
    if (guess.sliding_blocks > 0) weights_ += softs_;
    soft_ = guess.sliding_blocks > 0;
    system_->Assemble(weights_, settings.primal_regularization);
    if (!system_->Factorize()) break;
    ++info->rounds;
    const double residual = SolveActiveSet(c, b, settings);
    if (!(residual < best)) break;
    const bool falling = residual < 0.5 * best;
    best = residual;
    best_in_place = true;
    best_stationarity = stationarity_;
    sliding_scale_ = std::max({dual_term_, InfNorm(u_), InfNorm(z_), InfNorm(u_) * InfNorm(z_)});
    stationarity_floor = settings.rounding_floor * kEpsilon * dual_term_;
    info->binding_blocks = guess.binding_blocks;
    info->sliding_blocks = guess.sliding_blocks;
    if (!falling || residual <= stationarity_floor) break;
  }
  info->residual_after = std::isfinite(best) ? best : 0.0;
  // Kept when its whole KKT residual is smaller and its stationarity no worse than the interior
  // point's (or at rounding): an answer without any impulse, exact to 2e-17, is not traded
  // for one that is more complementary but less stationary (the door, docs/formulations.md).
  if (!(best < info->residual_before) ||
      !(best_stationarity <= std::max(stationarity_before, stationarity_floor)))
    return false;
  // A sliding cone's answer only at rounding: its rounds can stall at a complementarity of
  // 1e-11 (open: a box sliding on four corners), whose slip direction is then off by its square
  // root, worse than a tight interior point's (anitescu_cone_sliding_test.cc).
  if (info->sliding_blocks > 0 && !(best <= kSlidingAcceptance * kEpsilon * sliding_scale_))
    return false;
  if (!best_in_place) {
    x_ = best_x_;
    z_ = best_z_;
    u_ = best_u_;
    qx_ = best_qx_;
  }
  *x = x_;
  *z = z_;
  info->succeeded = true;
  return true;
}

double ActiveSetPolisher::SolveActiveSet(const Eigen::VectorXd& c, const Eigen::VectorXd& b,
                                         const PolishSettings& settings) {
  // Iterative refinement from (0, 0) on the exact equality KKT system (header, step 2):
  //   e1 = −(Q x + c − Aᵀ z),  e2 = −P (A x + b),
  //   (Q + Aᵀ (P/δ) A) dx = e1 + Aᵀ e2/δ,  dz = (e2 − P A dx)/δ.
  // From (0, 0), not from the interior point's answer: where the active rows outnumber the
  // velocities they bind (a box on a box, four corners), the multipliers are not unique, and
  // the refinement keeps the start's component in the null space of the active rows' Aᵀ
  // (started from the interior point's z, the arm's polished impulses moved by up to 58 % of
  // their largest: docs/performance.md, "The polish at the rounding floor").
  // The refinement stops at rounding when each error is at the floor of its own terms: the
  // dual error's ‖Q x‖, ‖c‖, ‖Aᵀ z‖ (an open contact's φ/h, large, is no term of it: as the
  // only floor, it stopped the door's refinement at a stationarity of 1e-11), the primal
  // error's ‖A x‖, ‖b‖.
  x_.setZero();
  z_.setZero();
  double previous = std::numeric_limits<double>::infinity();
  // At the end of each pass e1 = Aᵀz − (Q x + c), u = A x + b and qx = Q x are those of (x, z):
  // the residual of the answer and QpPolish's slacks and objective without more products.
  bool products_current = true;
  at_rounding_ = false;
  for (int pass = 0; pass <= settings.max_refinements + 1; ++pass) {
    double primal_term = 0.0;
    if (pass == 0) {  // (x, z) = (0, 0): the products are zeros (the data are finite)
      qx_.setZero();
      u_.setZero();
      u_ += b;
      primal_term = InfNorm(b);
    } else {
      system_->MultiplyQ(x_, &qx_);
      system_->MultiplyA(x_, &u_);
      primal_term = std::max(InfNorm(u_), InfNorm(b));
      u_ += b;
    }
    dual_term_ = std::max(InfNorm(qx_), InfNorm(c));
    e1_ = qx_ + c;
    if (soft_) {  // the whole multipliers z − S u (S_k of sliding cones, Classify)
      FullMultipliers();
      system_->MultiplyAt(full_z_, &rhs_);
    } else if (pass > 0) {
      system_->MultiplyAt(z_, &rhs_);
    } else {
      rhs_.setZero();
    }
    dual_term_ = std::max(dual_term_, InfNorm(rhs_));
    e1_ = rhs_ - e1_;
    Project(u_, &e2_);
    e2_ = -e2_;
    const double dual_error = InfNorm(e1_), primal_error = InfNorm(e2_);
    // Each error counts only above its own rounding floor: an error at its floor moves by an
    // ulp from pass to pass, and compared as it is, such a move (the primal error 2.2e-16 ->
    // 4.4e-16 against a floor of 5e-15) undid a pass that took the dual error from 3e-16, 130
    // ε of its terms, to 3e-19: the answer then kept the dual error of the pass before, by
    // chance (the talk's planar hand: polished at u + du, not at u − du). With rounding_floor 0
    // the error is max(dual, primal) as before. The primal error's floor is of its own terms,
    // ‖A x‖ and ‖b‖ (PolishSettings::rounding_floor): measured against the dual terms as well,
    // it stopped qsim's Allegro step (qp_factorisation_stall_test.cc, on the sparse path) with
    // rows 1e-14 m/s infeasible, 196 ε of their own terms.
    const double floor = settings.rounding_floor * kEpsilon;
    const double error =
        std::max({0.0, dual_error - floor * dual_term_, primal_error - floor * primal_term});
    if (!(error < previous)) {  // the last correction did not help: undo it
      if (pass > 0) {
        x_ -= dx_;
        z_ -= dz_;
        products_current = false;
      }
      break;
    }
    previous = error;
    at_rounding_ = error == 0.0;
    if (at_rounding_ || pass > settings.max_refinements) break;
    system_->MultiplyAt(e2_, &rhs_);
    rhs_ = e1_ + rhs_ / settings.delta;
    system_->Solve(rhs_, &dx_);
    system_->MultiplyA(dx_, &rows_);
    MultiplierStep(rows_, settings.delta);
    x_ += dx_;
    z_ += dz_;
  }
  if (!x_.allFinite() || !z_.allFinite()) return std::numeric_limits<double>::infinity();
  if (soft_) {  // the answer's multipliers are the whole ones; its products made afresh
    system_->MultiplyA(x_, &u_);
    u_ += b;
    FullMultipliers();
    z_ = full_z_;
    return Residual(c, b, x_, z_);
  }
  // Residual's value from the last pass's products when they are (x, z)'s: its dual part
  // (Q x + c) − Aᵀz is −e1 exactly, its u the same.
  if (!products_current) return Residual(c, b, x_, z_);
  stationarity_ = InfNorm(e1_);
  return std::max(stationarity_, BlockResidual(u_, z_));
}

}  // namespace quasidyn
