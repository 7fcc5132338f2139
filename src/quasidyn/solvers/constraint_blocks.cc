#include "quasidyn/solvers/constraint_blocks.h"

#include <algorithm>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

int StackConstraintBlocks(const SparseRowMatrix& G, const Eigen::VectorXd& h,
                          const SparseRowMatrix& A, const Eigen::VectorXd& b,
                          const std::vector<int>& cone_dims, int n, SparseRowMatrix* stacked,
                          Eigen::VectorXd* stacked_offset, std::vector<int>* offset,
                          std::vector<int>* dim, SizedStoragePool* storage) {
  const int linear_rows = G.rows();
  offset->clear();
  dim->clear();
  int rows = 0, max_dim = 1;
  for (int i = 0; i < linear_rows; ++i) {
    offset->push_back(rows++);
    dim->push_back(1);
  }
  for (const int m : cone_dims) {
    offset->push_back(rows);
    dim->push_back(m);
    rows += m;
    max_dim = std::max(max_dim, m);
  }
  stacked->Reset(n);
  if (G.rows() > 0) stacked->AppendRows(G);
  if (A.rows() > 0) stacked->AppendRows(A);
  ResizeThrough(storage, stacked_offset, rows);
  stacked_offset->head(linear_rows) = -h;
  stacked_offset->tail(rows - linear_rows) = b;
  return max_dim;
}

void CheckConeDims(const char* where, const std::vector<int>& cone_dims, int rows) {
  int total = 0;
  for (size_t k = 0; k < cone_dims.size(); ++k) {
    QUASIDYN_CHECK_ARGUMENT(cone_dims[k] >= 1, where,
                            "cone_dims[" + std::to_string(k) +
                                "] = " + std::to_string(cone_dims[k]) + ", expected >= 1");
    total += cone_dims[k];
  }
  QUASIDYN_CHECK_ARGUMENT(total == rows, where,
                          "the cone sizes sum to " + std::to_string(total) + " but A has " +
                              std::to_string(rows) + " rows");
}

}  // namespace quasidyn
