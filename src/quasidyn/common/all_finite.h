#pragma once
// Whether every one of `count` doubles is finite, in one pass without a branch per value: v − v
// is 0 for a finite v and NaN for ±inf and NaN, and a NaN stays in the sums (four of them, side
// by side, which the compiler keeps in vector registers). The checks of problem data and
// Jacobians before a solve (solvers/qp.cc, solvers/sparse_row_matrix.h,
// contact/contact_set.h, solvers/mixed_ncp_newton.cc).

#include <cstddef>

namespace quasidyn {

inline bool AllFinite(const double* v, std::ptrdiff_t count) {
  double sum[4] = {0.0, 0.0, 0.0, 0.0};
  std::ptrdiff_t i = 0;
  for (; i + 4 <= count; i += 4) {
    for (int k = 0; k < 4; ++k) sum[k] += v[i + k] - v[i + k];
  }
  for (; i < count; ++i) sum[0] += v[i] - v[i];
  return sum[0] + sum[1] + sum[2] + sum[3] == 0.0;
}

}  // namespace quasidyn
