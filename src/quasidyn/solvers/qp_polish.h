#pragma once
// Polishing of the interior-point QP answer (qp.h) on its active rows: active_set_polish.h with
// every row of G x >= h a one-row block (u = G x − h, z the row's multiplier). Owned by
// QpSolver, set up with it, called at the end of a successful Solve when
// QpSettings::polish.enabled; keeps the answer consistent: x, z, s = G x − h and the objective
// are replaced together, and QpInfo::polish says what happened.

#include <vector>

#include "quasidyn/solvers/active_set_polish.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct QpProblem;
struct QpResult;

class QpPolish {
 public:
  // Sizes the polish for Q (n × n) and G (m × n) with a normal matrix of its own; may allocate.
  void Setup(const SparseRowMatrix& Q, const SparseRowMatrix& G, const SparsePathRule& rule);
  // Sizes the polish for n variables and m rows, its normal matrix lent at each Polish (the
  // solver's Q + Gᵀ diag(w) G, qp.h); may allocate.
  void SetupLent(int n, int m);
  void UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& G);
  // Polishes *result (a successful answer of `problem`), with `lent` after SetupLent (null
  // after Setup); dual_residual as ActiveSetPolisher::Polish's. No allocation.
  void Polish(const QpProblem& problem, const PolishSettings& settings, QpResult* result,
              PolishNormalSystem* lent = nullptr, const Eigen::VectorXd* dual_residual = nullptr);

 private:
  void SizeBlocks(int m);

  ActiveSetPolisher polisher_;
  std::vector<int> offset_, dim_;
  Eigen::VectorXd b_;
  SizedStoragePool storage_;  // b_'s storage for other row counts (sized_storage_pool.h)
};

}  // namespace quasidyn
