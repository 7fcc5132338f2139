#include "quasidyn/solvers/preordered_ldlt.h"

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
