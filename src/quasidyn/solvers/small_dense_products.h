#pragma once
// The products of the QP's small dense path (qp.h: n, m <= kSmallDenseSize, a planar hand's
// step has n = 7 velocities and 4 to 12 rows) in plain loops with the column count known to the
// compiler for n <= 10 (the loops over the columns unrolled), as dense_cholesky.h does for the
// factor: at these sizes the set-up of Eigen's general kernels (its packet reductions, its
// lazy product's strides) costs more than the arithmetic.
//
//   SmallMultiply:            out = M x,  out_i = Σ_j M_ij x_j summed in column order
//                             (the order of Eigen's coefficient-based product);
//   SmallMultiplyTransposed:  out = Mᵀ y, out_j = Σ_i M_ij y_i summed in row order;
//   SmallWeightedGram:        the lower triangle of N = Q + Gᵀ diag(w) G + δ I, N_ij = Q_ij +
//                             Σ_r G_ri (w_r G_rj) summed in row order, then + δ on the diagonal
//                             (Nocedal & Wright, "Numerical Optimization", 2nd ed., eq. (16.62):
//                             the interior point's reduced matrix).
//
// No allocation: every output has its size (checked by the caller, not here).

#include <Eigen/Core>

namespace quasidyn {

// out (M.rows()) = M x (x of size M.cols()); out must not be x.
void SmallMultiply(const Eigen::MatrixXd& M, const Eigen::VectorXd& x, Eigen::VectorXd* out);

// out (M.cols()) = Mᵀ y (y of size M.rows()); out must not be y.
void SmallMultiplyTransposed(const Eigen::MatrixXd& M, const Eigen::VectorXd& y,
                             Eigen::VectorXd* out);

// The lower triangle of N = Q + Gᵀ diag(w) G + δ I into *N (n × n, its strict upper triangle
// left as it was), with scaled (m × n) = diag(w) G on return. Q is n × n (its lower triangle
// read), G is m × n, w has m entries, δ = regularization.
void SmallWeightedGram(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& G, const double* w,
                       double regularization, Eigen::MatrixXd* scaled, Eigen::MatrixXd* N);

}  // namespace quasidyn
