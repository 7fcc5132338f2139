#pragma once
// Polishing of the interior-point QP answer (qp.h) on its active rows: active_set_polish.h with
// every row of G x >= h a one-row block (u = G x − h, z the row's multiplier). Owned by
// QpSolver, set up with it, called at the end of a successful Solve when
// QpSettings::polish.enabled; keeps the answer consistent: x, z, s = G x − h and the objective
// are replaced together, and QpInfo::polish says what happened.

#include <vector>

#include "quasidyn/solvers/active_set_polish.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct QpProblem;
struct QpResult;

class QpPolish {
 public:
  // Sizes the polish for Q (n × n) and G (m × n); may allocate.
  void Setup(const SparseRowMatrix& Q, const SparseRowMatrix& G, const SparsePathRule& rule);
  void UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& G);
  // Polishes *result (a successful answer of `problem`); no allocation.
  void Polish(const QpProblem& problem, const PolishSettings& settings, QpResult* result);

 private:
  ActiveSetPolisher polisher_;
  std::vector<int> offset_, dim_;
  Eigen::VectorXd b_, product_;
};

}  // namespace quasidyn
