#pragma once
// A warm start for a sequence of LCPs(M, q) whose solutions keep their complementary basis
// from one problem to the next (a time-stepping scheme whose contacts keep their mode: sticking,
// sliding, separating): the guess of which z_i are basic, e.g. the previous solution's
// {i : z_i > w_i}, is tried before Lemke's method (lemke.h).
//
// For the basic set S, the complementary basis matrix C has column i = −M e_i when i ∈ S (z_i
// basic) and e_i otherwise (w_i basic), so that w − M z = q reads C x = q with x_i = z_i on S
// and x_i = w_i off S (Cottle, Pang & Stone 1992, §4.1). When C is regular and x >= 0 within
// the tolerance below, z (x on S, 0 elsewhere, negative rounding clamped to 0) and w = Mz + q
// solve the LCP: no pivot is needed.
//
// Acceptance (units of w, scale = ‖q‖∞ + ‖M‖∞‖z‖∞ as Lemke's final check): after the clamp,
// −min w <= residual_tolerance · scale and max_i |w_i z_i| / ‖z‖∞ <= residual_tolerance · scale.
// Dense inverse of C by Gauss–Jordan elimination with partial pivoting (gauss_jordan_inverse.h;
// Eigen's blocked LU takes its blocking buffers from the heap beyond 128 KB, a 318-variable LCP
// of arm_cubes): O(n³) per try, no allocation after Setup. A basis whose smallest pivot is below
// 1e-12 of its largest (the pivots of LU with partial pivoting) counts as singular.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/solvers/lemke.h"

namespace quasidyn {

class LcpBasisGuess {
 public:
  // Sizes the workspace for LCPs of size n >= 0; residual_tolerance in (0, 1e-3] (LemkeSettings'
  // meaning). std::invalid_argument on a bad argument.
  void Setup(int n, double residual_tolerance);
  int size() const { return n_; }

  // Tries the basis `z_basic` (size n: true where z_i is basic). On success writes z, w (and
  // status kSolved, 0 pivots, the residuals) into *result and returns true; otherwise returns
  // false and leaves *result's status kNotRun. std::invalid_argument on wrong sizes.
  bool Solve(const LcpView& problem, const std::vector<char>& z_basic, LcpResult* result);

 private:
  int n_ = -1;
  double tolerance_ = 1e-10;
  Eigen::MatrixXd basis_;  // C, then its inverse (leading n × n block)
  Eigen::VectorXi row_of_pivot_;
  Eigen::VectorXd column_, pivots_;
  Eigen::VectorXd x_;
};

}  // namespace quasidyn
