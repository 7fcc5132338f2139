#include "quasidyn/solvers/preordered_ldlt.h"

#include <cstdio>
#include <cstdlib>

namespace quasidyn {

void PreorderedLdlt::Analyze(const Matrix& lower) {
  analyzePattern(lower);
  // The permuted matrix as Eigen's factorize builds it, once, from a copy of `lower` whose
  // values are the entries' own indices (exact in double): each value of the result then says
  // which entry of `lower` it is a copy of.
  Matrix indices = lower;
  for (Eigen::Index k = 0; k < indices.nonZeros(); ++k)
    indices.valuePtr()[k] = static_cast<double>(k);
  permuted_.resize(lower.rows(), lower.cols());
  permuted_.selfadjointView<Eigen::Upper>() =
      indices.selfadjointView<Eigen::Lower>().twistedBy(permutationP());
  source_index_.resize(permuted_.nonZeros());
  const Eigen::Index size = lower.rows();
  y_.resize(size);
  sign_.resize(size);
  pattern_.resize(size);
  tags_.resize(size);
  m_diag.resize(size);
  for (Eigen::Index k = 0; k < permuted_.nonZeros(); ++k)
    source_index_[k] = static_cast<int>(permuted_.valuePtr()[k]);
  work_.resize(lower.rows());
}

bool PreorderedLdlt::Factorize(const Matrix& lower) {
  const double* values = lower.valuePtr();
  double* target = permuted_.valuePtr();
  for (size_t k = 0; k < source_index_.size(); ++k) target[k] = values[source_index_[k]];
  factorize_preordered<true>(permuted_);
  // m_diag, not vectorD(): the accessor returns a copy.
  return info() == Eigen::Success && m_diag.minCoeff() > 0.0;
}

int PreorderedLdlt::FactorizeQuasiDefinite(const Matrix& lower, int positive, double threshold,
                                           double replacement) {
  const double* values = lower.valuePtr();
  double* target = permuted_.valuePtr();
  for (size_t k = 0; k < source_index_.size(); ++k) target[k] = values[source_index_[k]];
  // Up-looking LDLᵀ (Davis 2005, "Algorithm 849", §2) on the pattern Eigen's analysis found:
  // row k of L is the sparse triangular solve L(0:k−1, 0:k−1) D l = A(0:k−1, k) along the
  // elimination tree, then d_k = a_kk − Σ l_ki² d_i. A pivot whose sign is not its row's
  // (+ for the first `positive` original rows, − after) or whose magnitude is below threshold
  // becomes ±replacement (dynamic regularisation).
  const int size = static_cast<int>(permuted_.rows());
  const int* Lp = m_matrix.outerIndexPtr();
  int* Li = m_matrix.innerIndexPtr();
  double* Lx = m_matrix.valuePtr();
  const bool has_permutation = permutationP().size() > 0;
  for (int k = 0; k < size; ++k)
    sign_[has_permutation ? permutationP().indices()[k] : k] = k < positive ? 1.0 : -1.0;
  int replaced = 0;
  for (int k = 0; k < size; ++k) {
    y_[k] = 0.0;
    int top = size;
    tags_[k] = k;
    m_nonZerosPerCol[k] = 0;
    for (Matrix::InnerIterator it(permuted_, k); it; ++it) {
      int i = static_cast<int>(it.index());
      if (i > k) continue;
      y_[i] += it.value();
      int length = 0;
      for (; tags_[i] != k; i = m_parent[i]) {
        pattern_[length++] = i;
        tags_[i] = k;
      }
      while (length > 0) pattern_[--top] = pattern_[--length];
    }
    double d = y_[k];
    y_[k] = 0.0;
    for (; top < size; ++top) {
      const int i = pattern_[top];
      const double yi = y_[i];
      y_[i] = 0.0;
      const double l_ki = yi / m_diag[i];
      const int end = Lp[i] + m_nonZerosPerCol[i];
      for (int p = Lp[i]; p < end; ++p) y_[Li[p]] -= Lx[p] * yi;
      d -= l_ki * yi;
      Li[end] = k;
      Lx[end] = l_ki;
      ++m_nonZerosPerCol[i];
    }
    if (!(sign_[k] * d > threshold)) {
      if (!std::isfinite(d)) return -1;
      d = sign_[k] * replacement;
      ++replaced;
    }
    m_diag[k] = d;
  }
  m_info = Eigen::Success;
  m_factorizationIsOk = true;
  return replaced;
}

void PreorderedLdlt::SolveInto(const Eigen::VectorXd& rhs, Eigen::VectorXd* out) {
  // SimplicialCholeskyBase::_solve_impl's steps, the last one out of place.
  if (permutationP().size() > 0) {
    work_.noalias() = permutationP() * rhs;
  } else {
    work_ = rhs;
  }
  if (matrixL().nestedExpression().nonZeros() > 0) matrixL().solveInPlace(work_);
  if (m_diag.size() > 0) work_ = m_diag.asDiagonal().inverse() * work_;
  if (matrixL().nestedExpression().nonZeros() > 0) matrixU().solveInPlace(work_);
  if (permutationP().size() > 0) {
    out->noalias() = permutationPinv() * work_;
  } else {
    *out = work_;
  }
}

}  // namespace quasidyn
