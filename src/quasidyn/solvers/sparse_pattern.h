#pragma once
// Whether two compressed sparse matrices have the same sparsity pattern (sizes, outer
// starts and inner indices; values ignored), so a symbolic factorisation made for one serves
// the other; and where each entry of a pattern is stored (qp.cc, block_normal_matrix.cc).

#include <Eigen/SparseCore>
#include <algorithm>
#include <vector>

namespace quasidyn {

template <typename Sparse>
bool SameSparsityPattern(const Sparse& a, const Sparse& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  const Eigen::Index outer = a.outerSize();
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + outer + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}

// Where entry (row, col) of a compressed column-major sparse matrix is stored (its index into
// the values), for the pattern builds that look up every entry they will fill: from a table of
// n × n indices when n <= kTableSize (one load per lookup; 1 MiB of int at the bound, kept
// between builds), by binary search in the column otherwise. operator() may be asked only for
// entries of the pattern; Find for any (it answers −1 for the others). Index may allocate; the
// lookups do not. The matrix must outlive the lookups and keep its pattern.
class SparsePositions {
 public:
  static constexpr int kTableSize = 512;

  void Index(const Eigen::SparseMatrix<double>& matrix) {
    matrix_ = &matrix;
    n_ = matrix.rows() == matrix.cols() && matrix.rows() <= kTableSize
             ? static_cast<int>(matrix.rows())
             : -1;
    if (n_ < 0) return;
    table_.resize(static_cast<size_t>(n_) * n_);  // only stored entries are read back
    const int* outer = matrix.outerIndexPtr();
    const int* inner = matrix.innerIndexPtr();
    for (int col = 0; col < n_; ++col)
      for (int e = outer[col]; e < outer[col + 1]; ++e)
        table_[static_cast<size_t>(col) * n_ + inner[e]] = e;
  }

  // Where (row, col) is stored, or −1 when the pattern has no such entry (any row and col in
  // range may be asked: a stored index is checked against the pattern, not trusted).
  int Find(int row, int col) const {
    const int* outer = matrix_->outerIndexPtr();
    const int* inner = matrix_->innerIndexPtr();
    if (n_ >= 0) {
      const int e = table_[static_cast<size_t>(col) * n_ + row];
      return e >= outer[col] && e < outer[col + 1] && inner[e] == row ? e : -1;
    }
    const int* end = inner + outer[col + 1];
    const int* found = std::lower_bound(inner + outer[col], end, row);
    return found != end && *found == row ? static_cast<int>(found - inner) : -1;
  }

  int operator()(int row, int col) const {
    if (n_ >= 0) return table_[static_cast<size_t>(col) * n_ + row];
    const int* inner = matrix_->innerIndexPtr();
    const int* begin = inner + matrix_->outerIndexPtr()[col];
    const int* end = inner + matrix_->outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, row) - inner);
  }

 private:
  const Eigen::SparseMatrix<double>* matrix_ = nullptr;
  int n_ = -1;  // the table's size, or −1 for binary search
  std::vector<int> table_;
};

}  // namespace quasidyn
