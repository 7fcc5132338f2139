#include "quasidyn/solvers/preordered_ldlt.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace quasidyn {

bool PreorderedLdlt::IsAnalyzedPattern(const Matrix& lower) const {
  if (!analyzed_ || lower.rows() != size_ || lower.cols() != size_ || !lower.isCompressed() ||
      lower.nonZeros() != permuted_.nonZeros())
    return false;
  // Entry k = (i, j), i >= j, of `lower` lands at (P i, P j) of P A Pᵀ, whose upper triangle
  // permuted_ stores (its columns unsorted, as Eigen's permutation leaves them); the analysis
  // read entry source_index_[e] there. With as many entries on
  // both sides, every k found at a slot that reads k makes the two patterns the same, entry by
  // entry (source_index_ is one to one).
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  const int* permuted_outer = permuted_.outerIndexPtr();
  const int* permuted_inner = permuted_.innerIndexPtr();
  for (int j = 0; j < size_; ++j) {
    for (int k = outer[j]; k < outer[j + 1]; ++k) {
      const int i = inner[k];
      if (i < j) return false;
      const int a = permutation_[i], b = permutation_[j];
      const int row = std::min(a, b), column = std::max(a, b);
      const int* begin = permuted_inner + permuted_outer[column];
      const int* end = permuted_inner + permuted_outer[column + 1];
      const int* found = std::find(begin, end, row);  // permuted_'s columns are not sorted
      if (found == end || source_index_[found - permuted_inner] != k) return false;
    }
  }
  return true;
}

void PreorderedLdlt::Analyze(const Matrix& lower) {
  if (IsAnalyzedPattern(lower)) return;
  analyzed_ = false;
  analyzePattern(lower);
  size_ = static_cast<int>(lower.rows());
  // The permuted matrix as Eigen's factorize builds it, once, from a copy of `lower` whose
  // values are the entries' own indices (exact in double): each value of the result then says
  // which entry of `lower` it is a copy of.
  Matrix indices = lower;
  for (Eigen::Index k = 0; k < indices.nonZeros(); ++k)
    indices.valuePtr()[k] = static_cast<double>(k);
  permuted_.resize(lower.rows(), lower.cols());
  permuted_.selfadjointView<Eigen::Upper>() =
      indices.selfadjointView<Eigen::Lower>().twistedBy(permutationP());
  permuted_.makeCompressed();
  source_index_.resize(permuted_.nonZeros());
  for (Eigen::Index k = 0; k < permuted_.nonZeros(); ++k)
    source_index_[k] = static_cast<int>(permuted_.valuePtr()[k]);
  permutation_.resize(size_);
  for (int i = 0; i < size_; ++i)
    permutation_[i] = permutationP().size() > 0 ? permutationP().indices()[i] : i;
  // The symbolic part of Eigen's factorize_preordered: row k's pattern is the set of nodes on
  // the elimination-tree paths from the column indices of A(0:k, k) up to k, pushed on a stack
  // path by path (the order the numeric loop must follow).
  const int* Lp = m_matrix.outerIndexPtr();
  int* Li = m_matrix.innerIndexPtr();
  std::vector<int> tags(size_), pattern(size_), filled(size_, 0);
  row_begin_.assign(1, 0);
  row_entry_.clear();
  row_slot_.clear();
  for (int k = 0; k < size_; ++k) {
    int top = size_;
    tags[k] = k;
    for (Matrix::InnerIterator it(permuted_, k); it; ++it) {
      int i = static_cast<int>(it.index());
      if (i > k) continue;
      int length = 0;
      for (; tags[i] != k; i = m_parent[i]) {
        pattern[length++] = i;
        tags[i] = k;
      }
      while (length > 0) pattern[--top] = pattern[--length];
    }
    for (; top < size_; ++top) {
      const int i = pattern[top];
      const int slot = Lp[i] + filled[i]++;
      Li[slot] = k;
      row_entry_.push_back(i);
      row_slot_.push_back(slot);
    }
    row_begin_.push_back(static_cast<int>(row_entry_.size()));
  }
  for (int i = 0; i < size_; ++i) m_nonZerosPerCol[i] = filled[i];
  diagonal_.resize(size_);
  inverse_diagonal_.resize(size_);
  y_.setZero(size_);
  work_.resize(size_);
  sign_.resize(size_);
  analyzed_ = true;
}

// Eigen's numeric loop (SimplicialCholeskyBase::factorize_preordered with DoLDLT) on the row
// patterns of Analyze: row k of L solves L(0:k−1, 0:k−1) D l = A(0:k−1, k) by scattering
// A(:, k) into the dense row y and eliminating along the pattern, then d_k = a_kk − Σ l_ki y_i.
template <typename Pivot>
bool PreorderedLdlt::FactorizeWith(const Matrix& lower, const Pivot& pivot) {
  const double* values = lower.valuePtr();
  const int* outer = permuted_.outerIndexPtr();
  const int* inner = permuted_.innerIndexPtr();
  const int* Lp = m_matrix.outerIndexPtr();
  const int* Li = m_matrix.innerIndexPtr();
  double* Lx = m_matrix.valuePtr();
  double* y = y_.data();
  for (int k = 0; k < size_; ++k) {
    for (int e = outer[k]; e < outer[k + 1]; ++e) y[inner[e]] += values[source_index_[e]];
    double d = y[k];
    y[k] = 0.0;
    for (int t = row_begin_[k]; t < row_begin_[k + 1]; ++t) {
      const int i = row_entry_[t], slot = row_slot_[t];
      const double yi = y[i];
      y[i] = 0.0;
      const double l_ki = yi / diagonal_[i];
      for (int p = Lp[i]; p < slot; ++p) y[Li[p]] -= Lx[p] * yi;
      d -= l_ki * yi;
      Lx[slot] = l_ki;
    }
    d = pivot(k, d);
    if (std::isnan(d)) {
      y_.setZero();  // the next factorisation starts from a clean row
      return false;
    }
    diagonal_[k] = d;
    inverse_diagonal_[k] = 1.0 / d;
  }
  m_info = Eigen::Success;
  m_factorizationIsOk = true;
  return true;
}

bool PreorderedLdlt::Factorize(const Matrix& lower) {
  return FactorizeWith(
      lower, [](int, double d) { return d > 0.0 ? d : std::numeric_limits<double>::quiet_NaN(); });
}

int PreorderedLdlt::FactorizeQuasiDefinite(const Matrix& lower, int positive, double threshold,
                                           double replacement) {
  for (int k = 0; k < size_; ++k) sign_[permutation_[k]] = k < positive ? 1.0 : -1.0;
  int replaced = 0;
  const bool ok = FactorizeWith(lower, [&](int k, double d) {
    if (sign_[k] * d > threshold) return d;
    if (!std::isfinite(d)) return std::numeric_limits<double>::quiet_NaN();
    ++replaced;
    return sign_[k] * replacement;
  });
  return ok ? replaced : -1;
}

void PreorderedLdlt::SolveInto(const Eigen::VectorXd& rhs, Eigen::VectorXd* out) {
  // SimplicialCholeskyBase::_solve_impl's steps in its order of operations: the column sweep
  // of L (skipping zero entries as Eigen's sparse triangular solve does), the reciprocals of
  // D, the row sweep of Lᵀ.
  const int* Lp = m_matrix.outerIndexPtr();
  const int* Li = m_matrix.innerIndexPtr();
  const double* Lx = m_matrix.valuePtr();
  double* w = work_.data();
  for (int i = 0; i < size_; ++i) w[permutation_[i]] = rhs[i];
  for (int j = 0; j < size_; ++j) {
    const double wj = w[j];
    if (wj == 0.0) continue;
    for (int p = Lp[j]; p < Lp[j + 1]; ++p) w[Li[p]] -= wj * Lx[p];
  }
  for (int i = 0; i < size_; ++i) w[i] = inverse_diagonal_[i] * w[i];
  for (int i = size_ - 1; i >= 0; --i) {
    double sum = w[i];
    for (int p = Lp[i]; p < Lp[i + 1]; ++p) sum -= Lx[p] * w[Li[p]];
    w[i] = sum;
  }
  if (out->size() != size_) out->resize(size_);
  for (int i = 0; i < size_; ++i) (*out)[i] = w[permutation_[i]];
}

}  // namespace quasidyn
