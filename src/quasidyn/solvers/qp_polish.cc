#include "quasidyn/solvers/qp_polish.h"

#include <numeric>

#include "quasidyn/solvers/qp.h"

namespace quasidyn {

void QpPolish::SizeBlocks(int n, int m) {
  offset_.resize(m);
  std::iota(offset_.begin(), offset_.end(), 0);
  dim_.assign(m, 1);
  storage_.Resize(&b_, m);
  storage_.Resize(&product_, n);
}

void QpPolish::Setup(const SparseRowMatrix& Q, const SparseRowMatrix& G,
                     const SparsePathRule& rule) {
  SizeBlocks(Q.rows(), G.rows());
  polisher_.Setup(Q, G, offset_, dim_, rule);
}

void QpPolish::SetupLent(int n, int m) {
  SizeBlocks(n, m);
  polisher_.SetupLent(n, m, offset_, dim_);
}

void QpPolish::UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& G) {
  polisher_.UpdateValues(Q, G);
}

void QpPolish::Polish(const QpProblem& problem, const PolishSettings& settings, QpResult* result,
                      PolishNormalSystem* lent) {
  b_ = -problem.h;  // u = G x − h
  PolishInfo& info = result->info.polish;
  if (!polisher_.Polish(problem.c, b_, settings, &result->x, &result->z, &info, lent)) return;
  problem.G.Multiply(result->x, &result->s);
  result->s -= problem.h;
  problem.Q.Multiply(result->x, &product_);
  result->objective = 0.5 * result->x.dot(product_) + problem.c.dot(result->x);
}

}  // namespace quasidyn
