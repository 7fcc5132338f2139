#pragma once
// What the active-set polish (active_set_polish.h) needs of its normal matrix
//
//   N = Q + Aᵀ blockdiag(M_k) A + δ I   (the blocks and weights of block_normal_matrix.h):
//
// assemble it for weights M_k, factorise it, solve with it, and the products with A and Q.
// BlockNormalMatrix is the polish's own; the QP solver (qp.h) lends its interior point's
// reduced matrix instead when that has the polish's pattern (every row of G a block: the same
// Q + Gᵀ diag(w) G), so the polish keeps no pattern or analysis of its own there.

#include <Eigen/Core>

namespace quasidyn {

class PolishNormalSystem {
 public:
  virtual ~PolishNormalSystem() = default;
  // N with M_k = weights.block(offset[k], 0, dim[k], dim[k]) and δ = regularization >= 0.
  virtual void Assemble(const Eigen::MatrixXd& weights, double regularization) = 0;
  // False when N is not numerically positive definite or not finite.
  virtual bool Factorize() = 0;
  // *out = N⁻¹ rhs with the last factorisation (out must not be rhs).
  virtual void Solve(const Eigen::VectorXd& rhs, Eigen::VectorXd* out) = 0;
  // out = A x, out = Aᵀ y, out = Q x.
  virtual void MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd* out) const = 0;
  virtual void MultiplyAt(const Eigen::VectorXd& y, Eigen::VectorXd* out) const = 0;
  virtual void MultiplyQ(const Eigen::VectorXd& x, Eigen::VectorXd* out) const = 0;
};

}  // namespace quasidyn
