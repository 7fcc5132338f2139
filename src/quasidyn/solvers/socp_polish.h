#pragma once
// Polishing of the interior-point SOCP answer (socp.h) on its identified active set:
// active_set_polish.h on the solver's stacked blocks (linear rows first, then the cones):
// open cones get exactly zero duals, sticking cones exactly u_k = 0, sliding cones u_k and z_k
// on the cone's boundary, their slip direction iterated from the interior point's. Owned by
// SocpSolver, set up with it, called at the end of a successful Solve when
// SocpSettings::polish.enabled; SocpInfo::polish says what happened.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/solvers/active_set_polish.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct SocpResult;

class SocpPolish {
 public:
  // Q (n × n) and the stacked blocks A (offset, dim); may allocate.
  void Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A, const std::vector<int>& offset,
             const std::vector<int>& dim, const SparsePathRule& rule);
  // As Setup, the normal matrix lent at each Polish: the solver's own, which is set up on the
  // same Q, blocks and rule (n variables, `rows` stacked rows); may allocate.
  void SetupLent(int n, int rows, const std::vector<int>& offset, const std::vector<int>& dim);
  void UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A);
  // Polishes the successful answer (*x, *z stacked like A) of the problem with linear cost c
  // and offsets b; on success replaces them and result->objective, and fills
  // result->info.polish. `lent` after SetupLent (null after Setup). No allocation.
  void Polish(const SparseRowMatrix& Q, const Eigen::VectorXd& c, const Eigen::VectorXd& b,
              const PolishSettings& settings, Eigen::VectorXd* z, SocpResult* result,
              PolishNormalSystem* lent = nullptr);

 private:
  ActiveSetPolisher polisher_;
  Eigen::VectorXd product_;
};

}  // namespace quasidyn
