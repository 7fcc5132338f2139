#include "quasidyn/solvers/schur_lu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/partial_pivot.h"

namespace quasidyn {

namespace {

// y −= a x over n entries (y and x do not overlap).
inline void SubtractScaled(double* __restrict y, const double* __restrict x, double a, int n) {
  for (int i = 0; i < n; ++i) y[i] -= x[i] * a;
}

bool PivotsAccepted(double lo, double hi, double ratio) {
  return hi > 0.0 && hi < std::numeric_limits<double>::infinity() && lo > ratio * hi;
}

using BodyMatrix = Eigen::Matrix<double, SchurLu::kBodyBlock, SchurLu::kBodyBlock>;
using BodyVector = Eigen::Matrix<double, SchurLu::kBodyBlock, 1>;

// Whether the k × k matrix at `a` (column-major) is zero outside its diagonal blocks of
// SchurLu::kBodyBlock (k a multiple of it).
bool BlockDiagonal(const double* a, int k) {
  constexpr int kB = SchurLu::kBodyBlock;
  for (int j = 0; j < k; ++j) {
    const int first = j / kB * kB;
    const double* column = a + static_cast<std::ptrdiff_t>(j) * k;
    for (int i = 0; i < first; ++i) {
      if (column[i] != 0.0) return false;
    }
    for (int i = first + kB; i < k; ++i) {
      if (column[i] != 0.0) return false;
    }
  }
  return true;
}

// Whether the block's first half of rows is [I 0] exactly (the ECP step: a body's linear momentum
// rows, divided by its mass, do not depend on its angular velocity).
bool UnitLeadingRows(const double (*a)[SchurLu::kBodyBlock]) {
  constexpr int kB = SchurLu::kBodyBlock;
  for (int i = 0; i < kB / 2; ++i) {
    for (int j = 0; j < kB; ++j) {
      if (a[i][j] != (i == j ? 1.0 : 0.0)) return false;
    }
  }
  return true;
}

}  // namespace

void SchurLu::Resize(int n, int k) {
  QUASIDYN_CHECK_ARGUMENT(n >= 0 && k >= 0 && k <= n, "SchurLu::Resize",
                          "the sizes must satisfy 0 <= k <= n");
  n_ = n;
  k_ = k;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  a_.assign(static_cast<std::size_t>(k) * k, 0.0);
  inverse_.assign(static_cast<std::size_t>(k) * kBodyBlock, 0.0);
  x_.assign(static_cast<std::size_t>(k) * (n - k), 0.0);
  c_.assign(x_.size(), 0.0);
  s_.assign(static_cast<std::size_t>(n - k) * (n - k), 0.0);
  whole_.assign(nn, 0.0);
  perm_a_.assign(k, 0);
  perm_s_.assign(n - k, 0);
  perm_whole_.assign(n, 0);
  nonzero_.assign(n - k, 0);
  c_padded_.assign(static_cast<std::size_t>(k) * kPaddedRows, 0.0);
  s_padded_.assign(static_cast<std::size_t>(kPaddedRows) * kPaddedRows, 0.0);
  lower_padded_.assign(s_padded_.size(), 0.0);
  work_.assign(n - k, 0.0);
  leading_.assign(k, 0.0);
  order_size_ = -1;
}

// Outer-product LU (Golub & Van Loan, Alg. 3.4.1): at step p, the row of the largest |a_ip|,
// i >= p, is swapped into p, column p below the pivot becomes the multipliers, and every column
// j > p with a_pj != 0 is updated by −a_pj times them.
void SchurLu::Factorise(double* a, int m, int* perm, double* lo, double* hi) {
  for (int p = 0; p < m; ++p) {
    double* column_p = a + static_cast<std::ptrdiff_t>(p) * m;
    double largest = 0.0;
    const int pivot = PartialPivotRow(column_p, p, m, &largest);
    perm[p] = pivot;
    if (pivot != p) {
      for (int j = 0; j < m; ++j) std::swap(a[j * m + p], a[j * m + pivot]);
    }
    *lo = std::min(*lo, largest);
    *hi = std::max(*hi, largest);
    if (!(largest > 0.0) || !std::isfinite(largest)) continue;  // the test rejects it
    const double inverse = 1.0 / column_p[p];
    for (int i = p + 1; i < m; ++i) column_p[i] *= inverse;
    for (int j = p + 1; j < m; ++j) {
      double* column_j = a + static_cast<std::ptrdiff_t>(j) * m;
      const double u = column_j[p];
      if (u == 0.0) continue;
      SubtractScaled(column_j + p + 1, column_p + p + 1, u, m - p - 1);
    }
  }
}

void SchurLu::InvertBlocks(double* lo, double* hi) {
  constexpr int kB = kBodyBlock;
  const int k = k_;
  for (int b = 0; b < k; b += kB) {
    double a[kB][kB];  // row-major
    for (int i = 0; i < kB; ++i) {
      for (int j = 0; j < kB; ++j) a[i][j] = a_[static_cast<std::size_t>(b + j) * k + b + i];
    }
    double* out = inverse_.data() + b * kB;  // column-major
    if (UnitLeadingRows(a)) {
      if (!InvertUnitLeadingBlock(a, out, lo, hi)) return;
      continue;
    }
    if (!InvertBlockGaussJordan(a, out, lo, hi)) return;
  }
}

// [[I, 0], [X, Y]]⁻¹ = [[I, 0], [−Y⁻¹X, Y⁻¹]] (block elimination, Golub & Van Loan §3.2.10):
// Y⁻¹ by Gauss–Jordan with partial pivoting; the pivots are Y's and the unit diagonal's.
bool SchurLu::InvertUnitLeadingBlock(const double (*a)[kBodyBlock], double* out, double* lo,
                                     double* hi) {
  constexpr int kH = kBodyBlock / 2;
  double y[kH][kH], inverse[kH][kH];  // row-major
  for (int i = 0; i < kH; ++i) {
    for (int j = 0; j < kH; ++j) {
      y[i][j] = a[kH + i][kH + j];
      inverse[i][j] = i == j ? 1.0 : 0.0;
    }
  }
  *lo = std::min(*lo, 1.0);
  *hi = std::max(*hi, 1.0);
  for (int p = 0; p < kH; ++p) {
    int pivot = p;
    for (int i = p + 1; i < kH; ++i) {
      if (std::abs(y[i][p]) > std::abs(y[pivot][p])) pivot = i;
    }
    const double largest = std::abs(y[pivot][p]);
    *lo = std::min(*lo, largest);
    *hi = std::max(*hi, largest);
    if (!(largest > 0.0) || !std::isfinite(largest)) {  // zero, infinite or NaN: rejected
      *lo = 0.0;
      return false;
    }
    if (pivot != p) {
      for (int j = 0; j < kH; ++j) {
        std::swap(y[p][j], y[pivot][j]);
        std::swap(inverse[p][j], inverse[pivot][j]);
      }
    }
    const double scale = 1.0 / y[p][p];
    for (int j = 0; j < kH; ++j) {
      y[p][j] *= scale;
      inverse[p][j] *= scale;
    }
    for (int i = 0; i < kH; ++i) {
      if (i == p) continue;
      const double f = y[i][p];
      for (int j = 0; j < kH; ++j) {
        y[i][j] -= f * y[p][j];
        inverse[i][j] -= f * inverse[p][j];
      }
    }
  }
  // Column-major 6 × 6: the leading columns [e_j; −Y⁻¹X e_j], the trailing [0; Y⁻¹ e_j].
  for (int j = 0; j < kH; ++j) {
    double* column = out + j * kBodyBlock;
    for (int i = 0; i < kH; ++i) column[i] = i == j ? 1.0 : 0.0;
    for (int i = 0; i < kH; ++i) {
      double sum = 0.0;
      for (int t = 0; t < kH; ++t) sum += inverse[i][t] * a[kH + t][j];
      column[kH + i] = -sum;
    }
    double* trailing = out + (kH + j) * kBodyBlock;
    for (int i = 0; i < kH; ++i) trailing[i] = 0.0;
    for (int i = 0; i < kH; ++i) trailing[kH + i] = inverse[i][j];
  }
  return true;
}

// Gauss–Jordan elimination with partial pivoting on [A_b | I] (Golub & Van Loan §3.2, §3.4):
// its pivots are those of A_b's LU with partial pivoting (the same Schur complements).
bool SchurLu::InvertBlockGaussJordan(double (*a)[kBodyBlock], double* out, double* lo, double* hi) {
  constexpr int kB = kBodyBlock;
  double inverse[kB][kB];  // row-major
  for (int i = 0; i < kB; ++i) {
    for (int j = 0; j < kB; ++j) inverse[i][j] = i == j ? 1.0 : 0.0;
  }
  for (int p = 0; p < kB; ++p) {
    int pivot = p;
    for (int i = p + 1; i < kB; ++i) {
      if (std::abs(a[i][p]) > std::abs(a[pivot][p])) pivot = i;
    }
    const double largest = std::abs(a[pivot][p]);
    *lo = std::min(*lo, largest);
    *hi = std::max(*hi, largest);
    if (!(largest > 0.0) || !std::isfinite(largest)) {  // zero, infinite or NaN: rejected
      *lo = 0.0;
      return false;
    }
    if (pivot != p) {
      for (int j = 0; j < kB; ++j) {
        std::swap(a[p][j], a[pivot][j]);
        std::swap(inverse[p][j], inverse[pivot][j]);
      }
    }
    const double scale = 1.0 / a[p][p];
    for (int j = 0; j < kB; ++j) {
      a[p][j] *= scale;
      inverse[p][j] *= scale;
    }
    for (int i = 0; i < kB; ++i) {
      if (i == p) continue;
      const double f = a[i][p];
      for (int j = 0; j < kB; ++j) {
        a[i][j] -= f * a[p][j];
        inverse[i][j] -= f * inverse[p][j];
      }
    }
  }
  for (int j = 0; j < kB; ++j) {
    for (int i = 0; i < kB; ++i) out[j * kB + i] = inverse[i][j];
  }
  return true;
}

void SchurLu::SolveLeading(double* x) const {
  if (!blocks_) {
    Substitute(a_.data(), k_, perm_a_.data(), x);
    return;
  }
  constexpr int kB = kBodyBlock;
  for (int b = 0; b < k_; b += kB) {
    Eigen::Map<BodyVector> part(x + b);
    if (part.isZero(0.0)) continue;
    const BodyVector y = Eigen::Map<const BodyMatrix>(inverse_.data() + b * kB) * part;
    part = y;
  }
}

void SchurLu::Substitute(const double* lu, int m, const int* perm, double* x) {
  for (int p = 0; p < m; ++p) {
    if (perm[p] != p) std::swap(x[p], x[perm[p]]);
  }
  for (int p = 0; p < m; ++p) {  // L y = P x, L unit lower triangular, by columns
    const double xp = x[p];
    if (xp == 0.0) continue;
    const double* column = lu + static_cast<std::ptrdiff_t>(p) * m;
    SubtractScaled(x + p + 1, column + p + 1, xp, m - p - 1);
  }
  for (int p = m - 1; p >= 0; --p) {  // U x = y, by columns
    const double* column = lu + static_cast<std::ptrdiff_t>(p) * m;
    const double xp = x[p] / column[p];
    x[p] = xp;
    if (xp == 0.0) continue;
    SubtractScaled(x, column, xp, p);
  }
}

void SchurLu::Gather(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                     const int* K, int count, int column, int at, double* out) {
  const double* g = G.col(column).data();
  if (row_scale != nullptr) {
    for (int i = 0; i < count; ++i) out[i] = row_scale[K[i]] * g[K[i]];
  } else {
    for (int i = 0; i < count; ++i) out[i] = g[K[i]];
  }
  if (diagonal != nullptr && at >= 0) out[at] += diagonal[column];
}

bool SchurLu::FactorGeneral(const Eigen::MatrixXd& G, const double* row_scale,
                            const double* diagonal, const int* K, int m,
                            double singular_pivot_ratio, double* lo, double* hi) {
  const int k = k_;
  for (int j = 0; j < k; ++j) Gather(G, row_scale, diagonal, K + k, m, j, -1, c_.data() + j * m);
  if (blocks_) {
    InvertBlocks(lo, hi);
  } else {
    Factorise(a_.data(), k, perm_a_.data(), lo, hi);
  }
  if (!PivotsAccepted(*lo, *hi, singular_pivot_ratio)) return false;
  for (int j = 0; j < m; ++j) {
    double* s = s_.data() + j * m;
    Gather(G, row_scale, diagonal, K + k, m, K[k + j], j, s);
    double* x = x_.data() + j * k;
    Gather(G, row_scale, diagonal, K, k, K[k + j], -1, x);
    bool any = false;
    for (int i = 0; i < k; ++i) any = any || x[i] != 0.0;
    nonzero_[j] = any;
    if (!any) continue;
    SolveLeading(x);
    for (int t = 0; t < k; ++t) {  // S(:, j) −= C X(:, j)
      if (x[t] != 0.0) SubtractScaled(s, c_.data() + t * m, x[t], m);
    }
  }
  Factorise(s_.data(), m, perm_s_.data(), lo, hi);
  return PivotsAccepted(*lo, *hi, singular_pivot_ratio);
}

bool SchurLu::FactorPadded(const Eigen::MatrixXd& G, const double* row_scale,
                           const double* diagonal, const int* K, int m, double singular_pivot_ratio,
                           double* lo, double* hi, double* x_solve) {
  constexpr int kP = kPaddedRows;
  const int k = k_;
  InvertBlocks(lo, hi);
  if (!PivotsAccepted(*lo, *hi, singular_pivot_ratio)) return false;
  const int* Kc = K + k;  // the kept contact unknowns
  // S's rows in the order the last factorisation of the same kept unknowns ended with (its pivot
  // rows' order; else Kc's): partial pivoting then picks the same pivot rows (the largest |entry|
  // of a column does not depend on where its row is stored; only which of exactly equal entries
  // comes first does) and finds them in place, without interchanges.
  if (m == order_size_ && std::equal(Kc, Kc + m, order_rows_.begin())) {
    order_ = next_order_;
  } else {
    order_size_ = m;
    std::copy(Kc, Kc + m, order_rows_.begin());
    for (int i = 0; i < m; ++i) order_[i] = i;
  }
  // S's row i is M's row Kc[order_[i]] (row[i]), and M's row Kc[j] is S's row place[j]; the
  // padding rows i >= m read M's row 0 with the scale 0 and are then set to 0 (a select: every
  // gather below has the fixed length kP, with no loop on m and no second pass for the padding).
  int row[kP];
  int place[kP];
  double scale[kP];
  for (int i = 0; i < kP; ++i) {
    row[i] = 0;
    scale[i] = 0.0;
  }
  for (int i = 0; i < m; ++i) {
    row[i] = Kc[order_[i]];
    place[order_[i]] = i;
    scale[i] = row_scale != nullptr ? row_scale[row[i]] : 1.0;
  }
  const auto gather = [&](const double* g, double* out) {
    for (int i = 0; i < kP; ++i) {
      const double value = scale[i] * g[row[i]];
      out[i] = i < m ? value : 0.0;
    }
  };
  for (int j = 0; j < k; ++j) gather(G.col(j).data(), c_padded_.data() + j * kP);  // C, padded
  for (int j = 0; j < m; ++j) {
    const int column = Kc[j];
    const double* g = G.col(column).data();
    double* s = s_padded_.data() + j * kP;  // S(:, j) = D(:, j) − C X(:, j)
    gather(g, s);
    if (diagonal != nullptr) s[place[j]] += diagonal[column];
    double* x = x_.data() + j * k;  // X(:, j) = A⁻¹ B(:, j); K's first k are 0, …, k − 1
    bool any = false;
    for (int b = 0; b < k; b += kBodyBlock) {  // A⁻¹'s blocks (SolveLeading, without its calls)
      Eigen::Map<BodyVector> part(x + b);
      if (Eigen::Map<const BodyVector>(g + b).isZero(0.0)) {  // B's block zero: X's too
        part.setZero();
        continue;
      }
      if (row_scale != nullptr) {
        part = Eigen::Map<const BodyVector>(row_scale + b)
                   .cwiseProduct(Eigen::Map<const BodyVector>(g + b));
      } else {
        part = Eigen::Map<const BodyVector>(g + b);
      }
      any = true;
      const BodyVector y = Eigen::Map<const BodyMatrix>(inverse_.data() + b * kBodyBlock) * part;
      part = y;
    }
    nonzero_[j] = any;
    if (any) SubtractPaddedColumns(s, c_padded_.data(), x, k);
  }
  // The right side, when solving here: x_1 = A⁻¹ b_1 and w = b_2 − C x_1 in S's row order, as
  // Solve forms them, as S's column m (padding zero), eliminated with S.
  const bool solve = x_solve != nullptr && m < kP;
  double* w = s_padded_.data() + m * kP;
  // x_1 in leading_, so that x keeps b when the pivots fail (Factor's fallback then solves).
  double* x1 = leading_.data();
  if (solve) {
    std::copy(x_solve, x_solve + k, x1);
    SolveLeading(x1);
    for (int i = 0; i < m; ++i) w[i] = x_solve[k + order_[i]];
    for (int i = m; i < kP; ++i) w[i] = 0.0;
    SubtractPaddedColumns(w, c_padded_.data(), x1, k);
  }
  FactorisePadded(s_padded_.data(), lower_padded_.data(), m, solve ? m + 1 : m, perm_s_.data(), lo,
                  hi);
  if (!PivotsAccepted(*lo, *hi, singular_pivot_ratio)) {
    order_size_ = -1;  // perm_s_ may be incomplete: the next factorisation starts from Kc's order
    return false;
  }
  next_order_ = order_;  // the order this one ended with
  for (int p = 0; p < m; ++p) std::swap(next_order_[p], next_order_[perm_s_[p]]);
  if (solve) {
    std::copy(x1, x1 + k, x_solve);
    BackSubstitutePadded(s_padded_.data(), m, w);
    FinishPadded(w, x_solve);
  }
  return true;
}

void SchurLu::FinishPadded(const double* w, double* x) const {
  const int k = k_, m = r_ - k_;
  if (k == kBodyBlock) {  // x_1 −= X x_2, x_1 held in registers (the same operations in order)
    BodyVector x1 = Eigen::Map<const BodyVector>(x);
    for (int j = 0; j < m; ++j) {
      if (nonzero_[j] && w[j] != 0.0) x1 -= Eigen::Map<const BodyVector>(x_.data() + j * k) * w[j];
    }
    Eigen::Map<BodyVector> out(x);
    out = x1;
  } else {
    for (int j = 0; j < m; ++j) {
      if (nonzero_[j] && w[j] != 0.0) SubtractScaled(x, x_.data() + j * k, w[j], k);
    }
  }
  for (int i = 0; i < m; ++i) x[k + i] = w[i];
}

bool SchurLu::Factor(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                     const std::vector<int>& keep, double singular_pivot_ratio, double pivot_lo,
                     double pivot_hi) {
  bool solved = false;
  return FactorWith(G, row_scale, diagonal, keep, singular_pivot_ratio, pivot_lo, pivot_hi, nullptr,
                    &solved);
}

bool SchurLu::FactorSolve(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                          const std::vector<int>& keep, double singular_pivot_ratio,
                          double pivot_lo, double pivot_hi, const double* b, double* x) {
  const int r = static_cast<int>(keep.size());
  if (x != b) std::copy(b, b + r, x);
  bool solved = false;
  if (!FactorWith(G, row_scale, diagonal, keep, singular_pivot_ratio, pivot_lo, pivot_hi, x,
                  &solved)) {
    return false;
  }
  if (!solved) Solve(x, x);
  return true;
}

bool SchurLu::FactorWith(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                         const std::vector<int>& keep, double singular_pivot_ratio, double pivot_lo,
                         double pivot_hi, double* x, bool* solved) {
  QUASIDYN_CHECK_ARGUMENT(G.rows() == n_ && G.cols() == n_, "SchurLu::Factor",
                          "the matrix must be " + std::to_string(n_) + " × " + std::to_string(n_));
  const int r = static_cast<int>(keep.size());
  QUASIDYN_CHECK_ARGUMENT(r >= k_ && r <= n_, "SchurLu::Factor",
                          "keep must hold the leading unknowns and at most n indices");
  r_ = r;
  const int k = k_, m = r - k_;
  const int* K = keep.data();
  full_ = false;
  padded_ = false;
  if (k > 0) {
    double lo = pivot_lo, hi = pivot_hi;
    for (int j = 0; j < k; ++j) {  // A = M(0:k, 0:k): K's first k are 0, …, k − 1
      const double* g = G.col(j).data();
      double* a = a_.data() + j * k;
      if (row_scale != nullptr) {
        for (int i = 0; i < k; ++i) a[i] = row_scale[i] * g[i];
      } else {
        std::copy(g, g + k, a);
      }
      if (diagonal != nullptr) a[j] += diagonal[j];
    }
    blocks_ = k % kBodyBlock == 0 && BlockDiagonal(a_.data(), k);
    if (blocks_ && m <= kPaddedRows) {
      padded_ = FactorPadded(G, row_scale, diagonal, K, m, singular_pivot_ratio, &lo, &hi, x);
      *solved = padded_ && x != nullptr && m < kPaddedRows;
      if (padded_) return true;
    } else if (FactorGeneral(G, row_scale, diagonal, K, m, singular_pivot_ratio, &lo, &hi)) {
      return true;
    }
  }
  full_ = true;
  double lo = pivot_lo, hi = pivot_hi;
  for (int j = 0; j < r; ++j) Gather(G, row_scale, diagonal, K, r, K[j], j, whole_.data() + j * r);
  Factorise(whole_.data(), r, perm_whole_.data(), &lo, &hi);
  return r == 0 && pivot_hi == 0.0 ? true : PivotsAccepted(lo, hi, singular_pivot_ratio);
}

void SchurLu::Solve(const double* b, double* x) const {
  const int r = r_;
  if (x != b) std::copy(b, b + r, x);
  if (full_) {
    Substitute(whole_.data(), r, perm_whole_.data(), x);
    return;
  }
  const int k = k_, m = r - k_;
  SolveLeading(x);  // x_1 = A⁻¹ b_1
  if (padded_) {
    constexpr int kP = kPaddedRows;
    double w[kP];  // the right side in S's row order
    for (int i = 0; i < m; ++i) w[i] = x[k + order_[i]];
    for (int i = m; i < kP; ++i) w[i] = 0.0;
    SubtractPaddedColumns(w, c_padded_.data(), x, k);  // w = b_2 − C x_1
    SubstitutePadded(s_padded_.data(), lower_padded_.data(), m, perm_s_.data(), w);
    FinishPadded(w, x);
    return;
  }
  double* w = work_.data();
  for (int i = 0; i < m; ++i) w[i] = x[k + i];
  for (int t = 0; t < k; ++t) {  // w = b_2 − C x_1
    if (x[t] != 0.0) SubtractScaled(w, c_.data() + t * m, x[t], m);
  }
  Substitute(s_.data(), m, perm_s_.data(), w);  // x_2 = S⁻¹ w
  for (int j = 0; j < m; ++j) {                 // x_1 −= X x_2
    if (nonzero_[j] && w[j] != 0.0) SubtractScaled(x, x_.data() + j * k, w[j], k);
  }
  for (int i = 0; i < m; ++i) x[k + i] = w[i];
}

}  // namespace quasidyn
