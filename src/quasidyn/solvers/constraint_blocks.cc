#include "quasidyn/solvers/constraint_blocks.h"

#include <algorithm>

namespace quasidyn {

int StackConstraintBlocks(const Eigen::MatrixXd& G, const Eigen::VectorXd& h, double linear_sign,
                          const std::vector<SecondOrderConeConstraint>& cones, Eigen::Index n,
                          Eigen::MatrixXd* A, Eigen::VectorXd* b, std::vector<int>* offset,
                          std::vector<int>* dim) {
  const int linear_rows = static_cast<int>(G.rows());
  offset->clear();
  dim->clear();
  int rows = 0, max_dim = 1;
  for (int i = 0; i < linear_rows; ++i) {
    offset->push_back(rows++);
    dim->push_back(1);
  }
  for (const SecondOrderConeConstraint& cone : cones) {
    const int m = static_cast<int>(cone.A.rows());
    offset->push_back(rows);
    dim->push_back(m);
    rows += m;
    max_dim = std::max(max_dim, m);
  }
  A->resize(rows, n);
  b->resize(rows);
  if (linear_rows > 0) {
    A->topRows(linear_rows) = G;
    b->head(linear_rows) = linear_sign * h;
  }
  for (size_t k = 0; k < cones.size(); ++k) {
    const int block = linear_rows + static_cast<int>(k);
    A->middleRows((*offset)[block], (*dim)[block]) = cones[k].A;
    b->segment((*offset)[block], (*dim)[block]) = cones[k].b;
  }
  return max_dim;
}

}  // namespace quasidyn
