#include "quasidyn/solvers/qp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "quasidyn/solvers/sparse_pattern.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

double InfNorm(const VectorXd& v) { return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0; }

// Largest α >= 0 with v + α·dv >= 0 (infinity when no entry decreases).
double MaxStepToBoundary(const VectorXd& v, const VectorXd& dv) {
  double alpha = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (dv[i] < 0.0) alpha = std::min(alpha, -v[i] / dv[i]);
  }
  return alpha;
}

void Require(bool condition, const std::string& what) {
  if (!condition) throw std::invalid_argument("QP: " + what);
}

void Validate(const QpProblem& p, const QpSettings& s, const QpWarmStart& w) {
  const Eigen::Index n = p.Q.rows();
  Require(p.Q.cols() == n, "Q must be square (got " + std::to_string(p.Q.rows()) + "x" +
                               std::to_string(p.Q.cols()) + ")");
  Require(p.c.size() == n, "c must have size n = " + std::to_string(n));
  Require(p.G.cols() == n || p.G.rows() == 0, "G must have n = " + std::to_string(n) + " columns");
  Require(p.h.size() == p.G.rows(), "h must have one entry per row of G");
  Require(p.Q.allFinite() && p.c.allFinite() && p.G.allFinite() && p.h.allFinite(),
          "Q, c, G and h must be finite");
  Require(s.absolute_tolerance > 0 && s.relative_tolerance > 0, "tolerances must be > 0");
  Require(s.inaccurate_factor >= 1, "inaccurate_factor must be >= 1");
  Require(s.infeasibility_tolerance > 0, "infeasibility_tolerance must be > 0");
  Require(s.max_iterations > 0, "max_iterations must be > 0");
  Require(s.step_to_boundary > 0 && s.step_to_boundary < 1, "step_to_boundary must be in (0,1)");
  Require(s.kkt_regularization >= 0, "kkt_regularization must be >= 0");
  Require(s.sparse_max_density >= 0 && s.sparse_max_density <= 1,
          "sparse_max_density must be in [0,1]");
  Require(s.warm_start_min_value > 0, "warm_start_min_value must be > 0");
  Require(w.x.size() == 0 || w.x.size() == n, "warm start x must have size n");
  Require(w.z.size() == 0 || w.z.size() == p.G.rows(), "warm start z must have size m");
}

}  // namespace

void QpSolver::Allocate(const QpProblem& problem, bool sparse) {
  const Eigen::Index n = problem.Q.rows();
  const Eigen::Index m = problem.G.rows();
  sparse_ = sparse;
  weights_.resize(m);
  correction_.resize(n);
  residual_.resize(n);
  product_m_.resize(m);
  if (sparse) {
    BuildSparsePattern(problem);
  } else {
    scaled_G_.resize(m, n);
    reduced_.resize(n, n);
  }
}

// The pattern of Q + Gᵀ diag(w) G (lower triangle), where each stored value of Q and each
// product G_ij G_ik lands in it, and its symbolic factorisation. When G and Q have the same
// sparsity pattern as in the previous solve (e.g. consecutive steps with the same contact
// pairs), only the values are refreshed and the symbolic factorisation is reused.
void QpSolver::BuildSparsePattern(const QpProblem& problem) {
  const int n = static_cast<int>(problem.Q.rows());
  Eigen::SparseMatrix<double, Eigen::RowMajor> G = problem.G.sparseView();
  Eigen::SparseMatrix<double> Q = problem.Q.sparseView();
  G.makeCompressed();
  Q.makeCompressed();
  const bool same_pattern =
      pattern_ready_ && SameSparsityPattern(G, sparse_G_) && SameSparsityPattern(Q, sparse_Q_);
  sparse_G_ = std::move(G);
  sparse_Q_ = std::move(Q);
  using RowIterator = Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator;
  q_value_.clear();
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) q_value_.push_back(it.value());
    }
  }
  gram_value_.clear();
  for (int i = 0; i < sparse_G_.outerSize(); ++i) {
    for (RowIterator a(sparse_G_, i); a; ++a) {
      for (RowIterator b(sparse_G_, i); b; ++b) {
        if (a.col() >= b.col()) gram_value_.push_back(a.value() * b.value());
      }
    }
  }
  if (same_pattern) return;

  std::vector<Eigen::Triplet<double>> pattern;
  for (int j = 0; j < n; ++j) pattern.emplace_back(j, j, 0.0);
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) pattern.emplace_back(static_cast<int>(it.row()), col, 0.0);
    }
  }
  for (int i = 0; i < sparse_G_.outerSize(); ++i) {
    for (RowIterator a(sparse_G_, i); a; ++a) {
      for (RowIterator b(sparse_G_, i); b; ++b) {
        if (a.col() >= b.col()) {
          pattern.emplace_back(static_cast<int>(a.col()), static_cast<int>(b.col()), 0.0);
        }
      }
    }
  }
  sparse_reduced_.resize(n, n);
  sparse_reduced_.setFromTriplets(pattern.begin(), pattern.end());
  sparse_reduced_.makeCompressed();
  const auto position = [this](Eigen::Index row, Eigen::Index col) {
    const int* inner = sparse_reduced_.innerIndexPtr();
    const int* begin = inner + sparse_reduced_.outerIndexPtr()[col];
    const int* end = inner + sparse_reduced_.outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, static_cast<int>(row)) - inner);
  };
  diagonal_index_.resize(n);
  for (int j = 0; j < n; ++j) diagonal_index_[j] = position(j, j);
  q_value_index_.clear();
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) q_value_index_.push_back(position(it.row(), col));
    }
  }
  gram_value_index_.clear();
  gram_row_.clear();
  for (int i = 0; i < sparse_G_.outerSize(); ++i) {
    for (RowIterator a(sparse_G_, i); a; ++a) {
      for (RowIterator b(sparse_G_, i); b; ++b) {
        if (a.col() >= b.col()) {
          gram_value_index_.push_back(position(a.col(), b.col()));
          gram_row_.push_back(i);
        }
      }
    }
  }
  sparse_factor_.analyzePattern(sparse_reduced_);
  pattern_ready_ = true;
}

// Factorises Q + Gᵀ diag(weights_) G + δI (Nocedal & Wright, eq. (16.62) after eliminating
// the slack and multiplier steps).
bool QpSolver::FactorReduced(const QpProblem& problem, const QpSettings& settings) {
  const double delta = settings.kkt_regularization;
  if (!sparse_) {
    scaled_G_.noalias() = weights_.asDiagonal() * problem.G;
    reduced_ = problem.Q;
    reduced_.noalias() += problem.G.transpose() * scaled_G_;
    reduced_.diagonal().array() += delta;
    dense_factor_.compute(reduced_);
    return dense_factor_.info() == Eigen::Success;
  }
  double* values = sparse_reduced_.valuePtr();
  std::fill(values, values + sparse_reduced_.nonZeros(), 0.0);
  for (size_t k = 0; k < q_value_index_.size(); ++k) values[q_value_index_[k]] += q_value_[k];
  for (size_t k = 0; k < gram_value_index_.size(); ++k) {
    values[gram_value_index_[k]] += weights_[gram_row_[k]] * gram_value_[k];
  }
  for (const int index : diagonal_index_) values[index] += delta;
  sparse_factor_.factorize(sparse_reduced_);
  return sparse_factor_.info() == Eigen::Success && sparse_factor_.vectorD().minCoeff() > 0.0;
}

// Solves the reduced system, then one step of iterative refinement against the matrix
// without the regularisation δI.
void QpSolver::SolveReduced(const QpProblem& problem, const VectorXd& rhs, VectorXd& out) {
  for (int pass = 0; pass < 2; ++pass) {
    const VectorXd& target = pass == 0 ? rhs : residual_;
    if (sparse_) {
      correction_ = sparse_factor_.solve(target);
    } else {
      correction_ = dense_factor_.solve(target);
    }
    if (pass == 0) {
      out = correction_;
    } else {
      out += correction_;
      break;
    }
    if (sparse_) {
      product_m_.noalias() = sparse_G_ * out;
      product_m_.array() *= weights_.array();
      residual_.noalias() = sparse_Q_ * out;
      residual_.noalias() += sparse_G_.transpose() * product_m_;
    } else {
      product_m_.noalias() = problem.G * out;
      product_m_.array() *= weights_.array();
      residual_.noalias() = problem.Q * out;
      residual_.noalias() += problem.G.transpose() * product_m_;
    }
    residual_ = rhs - residual_;
  }
}

QpResult QpSolver::Solve(const QpProblem& problem, const QpSettings& settings,
                         const QpWarmStart& warm_start) {
  const auto start_time = std::chrono::steady_clock::now();
  Validate(problem, settings, warm_start);
  const Eigen::Index n = problem.Q.rows();
  const Eigen::Index m = problem.G.rows();
  const auto nonzeros = [](const MatrixXd& a) { return (a.array() != 0.0).count(); };
  const double density = static_cast<double>(nonzeros(problem.G) + nonzeros(problem.Q)) /
                         std::max<double>(1.0, static_cast<double>(m * n + n * n));
  Allocate(problem, n >= settings.sparse_min_variables && density <= settings.sparse_max_density);

  QpResult result;
  result.used_sparse_path = sparse_;
  VectorXd& x = result.x;
  VectorXd& s = result.s;
  VectorXd& z = result.z;
  x.resize(n);
  s.resize(m);
  z.resize(m);
  VectorXd Qx(n), Gtz(n), r_d(n), rhs(n), dx(n);
  VectorXd Gx(m), r_p(m), ds(m), dz(m), ds_affine(m), dz_affine(m), rc(m), scratch(m);
  const auto elapsed = [&start_time] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  };

  // Products with G on the path chosen above: on the sparse path they touch only the
  // non-zeros of G (a contact row couples at most two bodies).
  const auto multiply_G = [&](const VectorXd& in, VectorXd& out) {
    if (sparse_) {
      out.noalias() = sparse_G_ * in;
    } else {
      out.noalias() = problem.G * in;
    }
  };
  const auto multiply_Gt = [&](const VectorXd& in, VectorXd& out) {
    if (sparse_) {
      out.noalias() = sparse_G_.transpose() * in;
    } else {
      out.noalias() = problem.G.transpose() * in;
    }
  };

  // Starting point. Cold: x0 = argmin ½xᵀQx + cᵀx + ½‖Gx − h‖² (a least-squares guess in the
  // spirit of Nocedal & Wright §16.6 "starting point"), s = max(|Gx0 − h|, 1), z = 1.
  const bool warm = warm_start.x.size() == n && n > 0;
  if (warm || n == 0) {
    x = warm ? warm_start.x : VectorXd::Zero(n);
  } else {
    weights_.setOnes();
    if (FactorReduced(problem, settings)) {
      rhs.noalias() = problem.G.transpose() * problem.h;
      rhs -= problem.c;
      SolveReduced(problem, rhs, x);
    } else {
      x.setZero();
    }
    if (!x.allFinite()) x.setZero();
  }
  Gx.noalias() = problem.G * x;
  if (warm) {
    s = (Gx - problem.h).cwiseMax(settings.warm_start_min_value);
    if (warm_start.z.size() == m) {
      z = warm_start.z.cwiseMax(settings.warm_start_min_value);
    } else {
      z.setOnes();
    }
  } else {
    s = (Gx - problem.h).cwiseAbs().cwiseMax(1.0);
    z.setOnes();
  }

  // Newton direction for right-hand side rc of the complementarity row Z Δs + S Δz = rc:
  //   (Q + Gᵀ Z S⁻¹ G) Δx = −r_d + Gᵀ S⁻¹ (rc − Z r_p),  Δs = G Δx + r_p,  Δz = S⁻¹(rc − Z Δs).
  const auto direction = [&]() {
    scratch = (rc.array() - z.array() * r_p.array()) / s.array();
    multiply_Gt(scratch, rhs);
    rhs -= r_d;
    SolveReduced(problem, rhs, dx);
    multiply_G(dx, ds);
    ds += r_p;
    dz = (rc.array() - z.array() * ds.array()) / s.array();
  };

  const auto scaled_tolerance = [&](double factor, double scale) {
    return factor * (settings.absolute_tolerance + settings.relative_tolerance * scale);
  };
  double primal_scale = 0, dual_scale = 0, gap_scale = 0, gap = 0;
  const auto converged = [&](double factor) {
    return InfNorm(r_p) <= scaled_tolerance(factor, primal_scale) &&
           InfNorm(r_d) <= scaled_tolerance(factor, dual_scale) &&
           gap <= scaled_tolerance(factor, gap_scale);
  };

  SolverStatus status = SolverStatus::kMaxIterations;
  int iteration = 0;
  for (;; ++iteration) {
    if (sparse_) {
      Qx.noalias() = sparse_Q_ * x;
    } else {
      Qx.noalias() = problem.Q * x;
    }
    multiply_G(x, Gx);
    multiply_Gt(z, Gtz);
    r_d = Qx + problem.c - Gtz;
    r_p = Gx - s - problem.h;
    gap = s.dot(z);
    result.objective = 0.5 * x.dot(Qx) + problem.c.dot(x);
    primal_scale = std::max({InfNorm(Gx), InfNorm(s), InfNorm(problem.h)});
    dual_scale = std::max({InfNorm(Qx), InfNorm(problem.c), InfNorm(Gtz)});
    gap_scale = std::max(1.0, std::abs(result.objective));
    if (!x.allFinite() || !s.allFinite() || !z.allFinite()) {
      status = SolverStatus::kNumericalFailure;
      result.message = "non-finite iterate";
      break;
    }
    if (converged(1.0)) {
      status = SolverStatus::kSolved;
      break;
    }
    const double hz = problem.h.dot(z);
    if (m > 0 && hz > 0 && InfNorm(Gtz) <= settings.infeasibility_tolerance * hz) {
      status = SolverStatus::kInfeasible;
      break;
    }
    if (iteration >= settings.max_iterations) break;

    weights_ = z.cwiseQuotient(s);
    if (!FactorReduced(problem, settings)) {
      status = SolverStatus::kNumericalFailure;
      result.message =
          "Cholesky factorisation of Q + Gᵀ diag(z/s) G failed (Q not PSD, or "
          "directions unbounded by the constraints)";
      break;
    }
    // Mehrotra predictor (affine-scaling) step: rc = −S Z 1.
    rc = -s.cwiseProduct(z);
    direction();
    const double mu = m > 0 ? gap / static_cast<double>(m) : 0.0;
    double alpha = std::min({1.0, MaxStepToBoundary(s, ds), MaxStepToBoundary(z, dz)});
    const double mu_affine =
        m > 0 ? (s + alpha * ds).dot(z + alpha * dz) / static_cast<double>(m) : 0.0;
    const double sigma = mu > 0 ? std::pow(mu_affine / mu, 3) : 0.0;
    // Corrector: rc = −S Z 1 + σμ1 − ΔS_aff ΔZ_aff 1 (Nocedal & Wright, eq. (16.67)).
    ds_affine = ds;
    dz_affine = dz;
    rc.array() += sigma * mu - ds_affine.array() * dz_affine.array();
    direction();
    alpha = std::min(1.0, settings.step_to_boundary *
                              std::min(MaxStepToBoundary(s, ds), MaxStepToBoundary(z, dz)));
    if (!(alpha > 1e-14)) {
      status = SolverStatus::kMaxIterations;
      result.message = "step length vanished";
      break;
    }
    x += alpha * dx;
    s += alpha * ds;
    z += alpha * dz;
  }

  result.info.iterations = iteration;
  result.info.primal_residual = InfNorm(r_p);
  result.info.dual_residual = InfNorm(r_d);
  result.info.complementarity_gap = gap;
  if (status == SolverStatus::kMaxIterations && converged(settings.inaccurate_factor)) {
    status = SolverStatus::kSolvedInaccurate;
  }
  if (status != SolverStatus::kSolved && m > 0 && result.message.empty()) {
    Eigen::Index row = 0;
    const double violation = (problem.h - Gx).maxCoeff(&row);
    std::ostringstream message;
    if (status == SolverStatus::kInfeasible) {
      message << "constraints G x >= h are infeasible (Farkas certificate hᵀz = "
              << problem.h.dot(z) << " > 0 with Gᵀz ≈ 0); most violated: row " << row;
    } else {
      message << ToString(status) << " after " << iteration
              << " iterations; largest violation h - Gx at row " << row;
    }
    message << " (h - Gx = " << violation << ")";
    result.message = message.str();
  }
  result.status = status;
  result.info.solve_time_seconds = elapsed();
  return result;
}

QpResult Solve(const QpProblem& problem, const QpSettings& settings,
               const QpWarmStart& warm_start) {
  QpSolver solver;
  return solver.Solve(problem, settings, warm_start);
}

}  // namespace quasidyn
