#include "quasidyn/solvers/qp_polish.h"

#include <numeric>

#include "quasidyn/solvers/qp.h"

namespace quasidyn {

void QpPolish::SizeBlocks(int m) {
  offset_.resize(m);
  std::iota(offset_.begin(), offset_.end(), 0);
  dim_.assign(m, 1);
  storage_.Resize(&b_, m);
}

void QpPolish::Setup(const SparseRowMatrix& Q, const SparseRowMatrix& G,
                     const SparsePathRule& rule) {
  SizeBlocks(G.rows());
  polisher_.Setup(Q, G, offset_, dim_, rule);
}

void QpPolish::SetupLent(int n, int m) {
  SizeBlocks(m);
  polisher_.SetupLent(n, m, offset_, dim_);
}

void QpPolish::UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& G) {
  polisher_.UpdateValues(Q, G);
}

void QpPolish::Polish(const QpProblem& problem, const PolishSettings& settings, QpResult* result,
                      PolishNormalSystem* lent, const Eigen::VectorXd* dual_residual) {
  b_ = -problem.h;  // u = G x − h
  PolishInfo& info = result->info.polish;
  if (!polisher_.Polish(problem.c, b_, settings, &result->x, &result->z, &info, lent,
                        dual_residual))
    return;
  // s = G x − h is the polish's u = G x + b (b = −h: the same values), Q x its own product.
  result->s = polisher_.polished_rows();
  result->objective =
      0.5 * result->x.dot(polisher_.polished_cost_product()) + problem.c.dot(result->x);
}

}  // namespace quasidyn
