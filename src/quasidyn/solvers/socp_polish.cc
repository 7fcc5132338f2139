#include "quasidyn/solvers/socp_polish.h"

#include "quasidyn/solvers/socp.h"

namespace quasidyn {

void SocpPolish::Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A,
                       const std::vector<int>& offset, const std::vector<int>& dim,
                       const SparsePathRule& rule) {
  polisher_.Setup(Q, A, offset, dim, rule);
  product_.resize(Q.rows());
}

void SocpPolish::SetupLent(int n, int rows, const std::vector<int>& offset,
                           const std::vector<int>& dim) {
  polisher_.SetupLent(n, rows, offset, dim);
  product_.resize(n);
}

void SocpPolish::UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A) {
  polisher_.UpdateValues(Q, A);
}

void SocpPolish::Polish(const SparseRowMatrix& Q, const Eigen::VectorXd& c,
                        const Eigen::VectorXd& b, const PolishSettings& settings,
                        Eigen::VectorXd* z, SocpResult* result, PolishNormalSystem* lent) {
  if (!polisher_.Polish(c, b, settings, &result->x, z, &result->info.polish, lent)) return;
  Q.Multiply(result->x, &product_);
  result->objective = 0.5 * result->x.dot(product_) + c.dot(result->x);
}

}  // namespace quasidyn
