#pragma once
// Whether two compressed sparse matrices have the same sparsity pattern (sizes, outer
// starts and inner indices; values ignored), so a symbolic factorisation made for one serves
// the other (qp.cc, block_normal_matrix.cc).

#include <Eigen/SparseCore>
#include <algorithm>

namespace quasidyn {

template <typename Sparse>
bool SameSparsityPattern(const Sparse& a, const Sparse& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  const Eigen::Index outer = a.outerSize();
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + outer + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}

}  // namespace quasidyn
