#include "quasidyn/solvers/small_dense_products.h"

#include <type_traits>

namespace quasidyn {
namespace {

// The column counts with loops of their own (a planar hand's step has 7 velocities, a
// gripper's 4 to 9); larger ones take the run-time loops (kColumns = 0).
constexpr int kUnrolledColumns = 10;

// Calls kernel(std::integral_constant<int, n>) for 1 <= n <= kUnrolledColumns, else with 0.
template <int kColumns = 1, typename Kernel>
void WithColumnCount(int n, const Kernel& kernel) {
  if constexpr (kColumns > kUnrolledColumns) {
    kernel(std::integral_constant<int, 0>());
  } else {
    if (n == kColumns) return kernel(std::integral_constant<int, kColumns>());
    WithColumnCount<kColumns + 1>(n, kernel);
  }
}

// out_i = M_i0 x_0 + M_i1 x_1 + … (left to right); M column-major, rows × n.
template <int kColumns>
void MultiplyLoops(int rows, int columns, const double* M, const double* x, double* out) {
  const int n = kColumns > 0 ? kColumns : columns;
  if (n == 0) {
    for (int i = 0; i < rows; ++i) out[i] = 0.0;
    return;
  }
  for (int i = 0; i < rows; ++i) {
    double sum = M[i] * x[0];
#pragma GCC unroll 16
    for (int j = 1; j < n; ++j) sum += M[j * rows + i] * x[j];
    out[i] = sum;
  }
}

// out_j = M_0j y_0 + M_1j y_1 + … (top to bottom), the n sums side by side (in registers when
// n is known to the compiler).
template <int kColumns>
void TransposedLoops(int rows, int columns, const double* M, const double* y, double* out) {
  const int n = kColumns > 0 ? kColumns : columns;
  if (rows == 0) {
    for (int j = 0; j < n; ++j) out[j] = 0.0;
    return;
  }
  double local[kColumns > 0 ? kColumns : 1];
  double* sum = kColumns > 0 ? local : out;
#pragma GCC unroll 16
  for (int j = 0; j < n; ++j) sum[j] = M[j * rows] * y[0];
  for (int i = 1; i < rows; ++i) {
    const double yi = y[i];
#pragma GCC unroll 16
    for (int j = 0; j < n; ++j) sum[j] += M[j * rows + i] * yi;
  }
  if (kColumns > 0)
    for (int j = 0; j < n; ++j) out[j] = sum[j];
}

// N_ij = Q_ij + (G_0i S_0j + G_1i S_1j + …) for i >= j, S = diag(w) G; then + δ on the diagonal.
// Column j's sums side by side (in registers when n is known to the compiler), Q added in front.
template <int kColumns>
void GramLoops(int rows, int columns, const double* Q, const double* G, const double* w,
               double regularization, double* S, double* N) {
  const int n = kColumns > 0 ? kColumns : columns;
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < rows; ++r) S[j * rows + r] = w[r] * G[j * rows + r];
  double local[kColumns > 0 ? kColumns : 1];
#pragma GCC unroll 16
  for (int j = 0; j < n; ++j) {
    const double* s_j = S + j * rows;
    double* column = N + j * n;
    double* sum = kColumns > 0 ? local : column;
#pragma GCC unroll 16
    for (int i = j; i < n; ++i) sum[i] = 0.0;
    for (int r = 0; r < rows; ++r) {
      const double a = s_j[r];
#pragma GCC unroll 16
      for (int i = j; i < n; ++i) sum[i] += G[i * rows + r] * a;
    }
#pragma GCC unroll 16
    for (int i = j; i < n; ++i) column[i] = Q[j * n + i] + sum[i];
    column[j] += regularization;
  }
}

}  // namespace

void SmallMultiply(const Eigen::MatrixXd& M, const Eigen::VectorXd& x, Eigen::VectorXd* out) {
  const int rows = static_cast<int>(M.rows()), columns = static_cast<int>(M.cols());
  WithColumnCount(columns, [&](auto size) {
    MultiplyLoops<decltype(size)::value>(rows, columns, M.data(), x.data(), out->data());
  });
}

void SmallMultiplyTransposed(const Eigen::MatrixXd& M, const Eigen::VectorXd& y,
                             Eigen::VectorXd* out) {
  const int rows = static_cast<int>(M.rows()), columns = static_cast<int>(M.cols());
  WithColumnCount(columns, [&](auto size) {
    TransposedLoops<decltype(size)::value>(rows, columns, M.data(), y.data(), out->data());
  });
}

void SmallWeightedGram(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& G, const double* w,
                       double regularization, Eigen::MatrixXd* scaled, Eigen::MatrixXd* N) {
  const int rows = static_cast<int>(G.rows()), columns = static_cast<int>(G.cols());
  WithColumnCount(columns, [&](auto size) {
    GramLoops<decltype(size)::value>(rows, columns, Q.data(), G.data(), w, regularization,
                                     scaled->data(), N->data());
  });
}

}  // namespace quasidyn
