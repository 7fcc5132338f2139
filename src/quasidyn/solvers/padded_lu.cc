#include "quasidyn/solvers/padded_lu.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/solvers/partial_pivot.h"

// The kernels' two builds (padded_lu.h); elsewhere (other compilers, other processors) one, and
// one under ThreadSanitizer: the loader calls a target_clones resolver while relocating the
// program, before the sanitizer's runtime is set up, and GCC instruments the resolver too (the
// program crashed before main).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define QUASIDYN_PADDED_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define QUASIDYN_PADDED_KERNEL
#endif

namespace quasidyn {

namespace {

// Four doubles and a four-lane mask (GCC's and Clang's vector extensions: two SSE2 or one AVX2
// register, by the kernel's build).
using Lanes = double __attribute__((vector_size(32)));
using LaneMask = long long __attribute__((vector_size(32)));

// l = column · inverse in rows > p and +0.0 in rows <= p, over the whole padded column: the rows
// <= p are cleared by a bitwise AND (no select, no memset call), so the kept rows are the same
// products and the cleared ones the same zeros as element by element.
inline void ScaledBelow(const double* __restrict column, double inverse, int p,
                        double* __restrict l) {
  for (int i = 0; i < kPaddedRows; i += 4) {
    Lanes c;
    __builtin_memcpy(&c, column + i, sizeof c);
    const LaneMask rows = {i, i + 1, i + 2, i + 3};
    const LaneMask below = rows > p;  // all ones where kept
    const Lanes v = c * inverse;
    const Lanes kept = reinterpret_cast<Lanes>(reinterpret_cast<LaneMask>(v) & below);
    __builtin_memcpy(l + i, &kept, sizeof kept);
  }
}

// y −= x a over the rows [kBegin, kEnd) of padded columns, both multiples of 4: whole four-row
// blocks, the same products and subtractions as SubtractPaddedColumn in those rows, with trip
// counts fixed at compile time (unrolled; one dispatch per elimination step, not per column).
template <int kBegin, int kEnd>
inline void SubtractPaddedBlocks(double* __restrict y, const double* __restrict x, double a) {
  for (int i = kBegin; i < kEnd; i += 4) {
    Lanes u, v;
    __builtin_memcpy(&u, y + i, sizeof u);
    __builtin_memcpy(&v, x + i, sizeof v);
    u -= v * a;
    __builtin_memcpy(y + i, &u, sizeof u);
  }
}

// y −= x a from the block that holds row `first` on (L's columns: zero above it).
inline void SubtractPaddedFrom(double* __restrict y, const double* __restrict x, double a,
                               int first) {
  switch (first >> 2) {
    case 0:
      SubtractPaddedBlocks<0, kPaddedRows>(y, x, a);
      break;
    case 1:
      SubtractPaddedBlocks<4, kPaddedRows>(y, x, a);
      break;
    case 2:
      SubtractPaddedBlocks<8, kPaddedRows>(y, x, a);
      break;
    default:
      SubtractPaddedBlocks<12, kPaddedRows>(y, x, a);
      break;
  }
}

// y −= x a over the blocks before the one that holds row `end` (rows < end, rounded up to a block).
inline void SubtractPaddedBefore(double* __restrict y, const double* __restrict x, double a,
                                 int end) {
  switch ((end + 3) >> 2) {
    case 0:
      break;
    case 1:
      SubtractPaddedBlocks<0, 4>(y, x, a);
      break;
    case 2:
      SubtractPaddedBlocks<0, 8>(y, x, a);
      break;
    case 3:
      SubtractPaddedBlocks<0, 12>(y, x, a);
      break;
    default:
      SubtractPaddedBlocks<0, kPaddedRows>(y, x, a);
      break;
  }
}

// x := U⁻¹ x by columns (U: the upper triangle of a padded factor, m × m): after step p, rows
// >= p of the residual are not read again, so the blocks up to the one holding row p − 1 suffice
// (below the diagonal: the eliminated entries, finite, subtracted from rows that are not read
// again).
inline void BackSubstitute(const double* __restrict a, int m, double* __restrict x) {
  double solution[kPaddedRows];
  for (int p = m - 1; p >= 0; --p) {
    const double* column = a + p * kPaddedRows;
    const double xp = x[p] * column[p];  // column[p] = 1/u_pp (PivotStep)
    solution[p] = xp;
    if (xp != 0.0) SubtractPaddedBefore(x, column, xp, p);
  }
  std::copy(solution, solution + m, x);
}

}  // namespace

namespace {

// Whether a row p < i < m of the padded column holds |a_ip| > |a_pp|, i.e. whether partial
// pivoting's row differs from p (PartialPivotRow keeps p unless an entry is strictly larger; a
// NaN compares false in both): whole four-row blocks, masked compares, no chain over the rows.
// With the kept row order (schur_lu.h) the pivot is nearly always in place, and the scalar search
// runs only when this says it is not.
inline bool LargerBelow(const double* __restrict column, int p, int m) {
  const double pivot = std::abs(column[p]);
  LaneMask larger = {0, 0, 0, 0};
  const LaneMask magnitude_bits = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                                   0x7fffffffffffffffLL};
  for (int i = 0; i < kPaddedRows; i += 4) {
    Lanes c;
    __builtin_memcpy(&c, column + i, sizeof c);
    const Lanes magnitude = reinterpret_cast<Lanes>(reinterpret_cast<LaneMask>(c) & magnitude_bits);
    const LaneMask rows = {i, i + 1, i + 2, i + 3};
    larger |= (magnitude > pivot) & (rows > p) & (rows < m);
  }
  return (larger[0] | larger[1] | larger[2] | larger[3]) != 0;
}

// Step p's pivot (partial pivoting), its row interchange and L's column p (rows > p). False when
// the pivot is zero or not finite (*lo is then 0).
inline bool PivotStep(double* __restrict a, double* __restrict lower, int m, int columns, int p,
                      int* perm, double* lo, double* hi) {
  double* column_p = a + p * kPaddedRows;
  double largest = std::abs(column_p[p]);
  const int pivot = LargerBelow(column_p, p, m) ? PartialPivotRow(column_p, p, m, &largest) : p;
  perm[p] = pivot;
  *lo = std::min(*lo, largest);
  *hi = std::max(*hi, largest);
  if (!(largest > 0.0) || !std::isfinite(largest)) {  // zero, infinite or NaN: rejected
    *lo = 0.0;
    return false;
  }
  if (pivot != p) {
    // Rows p and `pivot` of the columns j < p lie below U's diagonal: what the elimination
    // left there is never read (SubstitutePadded subtracts it only from finished rows), so
    // only the columns j >= p of `a` (the right side's included) and L's columns j < p are
    // interchanged.
    for (int j = p; j < columns; ++j) std::swap(a[j * kPaddedRows + p], a[j * kPaddedRows + pivot]);
    for (int j = 0; j < p; ++j)
      std::swap(lower[j * kPaddedRows + p], lower[j * kPaddedRows + pivot]);
  }
  const double inverse = 1.0 / column_p[p];
  ScaledBelow(column_p, inverse, p, lower + p * kPaddedRows);  // zero in rows <= p
  // U's diagonal is kept as its reciprocal: the back substitution multiplies by it (no division
  // on its chain of dependent steps); nothing else reads it (column p is finished).
  column_p[p] = inverse;
  return true;
}

// Steps p and p + 1's updates of the columns j > p + 1, each column loaded and stored once:
// a(:, j) −= a(p, j) L(:, p), then −= a(p + 1, j) L(:, p + 1) with a(p + 1, j) as step p left it
// (the same products and differences, in the same order, as two rank-one steps), from the block
// kFirst that holds row p + 1 on (L(:, p + 1) is zero in rows <= p + 1: it subtracts zero there).
// Both interchanges are already applied to these columns and to L(:, p): an interchange moves
// whole rows, and the step-p update of a row uses that row's own multiplier, so the order of the
// interchange and the update does not change any entry.
template <int kFirst>
inline void UpdateTrailingColumnsTwice(double* __restrict a, const double* __restrict lp,
                                       const double* __restrict lq, int p, int columns) {
  for (int j = p + 2; j < columns; ++j) {
    double* column_j = a + j * kPaddedRows;
    const double u = column_j[p];
    double v = column_j[p + 1];
    if (u != 0.0) v -= lp[p + 1] * u;
    if (u != 0.0 && v != 0.0) {
      for (int i = kFirst; i < kPaddedRows; i += 4) {
        Lanes y, x0, x1;
        __builtin_memcpy(&y, column_j + i, sizeof y);
        __builtin_memcpy(&x0, lp + i, sizeof x0);
        __builtin_memcpy(&x1, lq + i, sizeof x1);
        y -= x0 * u;
        y -= x1 * v;
        __builtin_memcpy(column_j + i, &y, sizeof y);
      }
    } else if (u != 0.0) {
      SubtractPaddedBlocks<kFirst, kPaddedRows>(column_j, lp, u);
    } else if (v != 0.0) {
      SubtractPaddedBlocks<kFirst, kPaddedRows>(column_j, lq, v);
    }
  }
}

}  // namespace

QUASIDYN_PADDED_KERNEL void FactorisePadded(double* __restrict a, double* __restrict lower, int m,
                                            int columns, int* perm, double* lo, double* hi) {
  // Two elimination steps at a time (right-looking, Golub & Van Loan Alg. 3.4.1, with step p's
  // update of the trailing columns deferred to step p + 1's): column p + 1 is updated by step p
  // alone first, as its pivot search needs it.
  for (int p = 0; p < m; p += 2) {
    // The last step alone (m odd) updates nothing: L's column m − 1 is zero in every row.
    if (!PivotStep(a, lower, m, columns, p, perm, lo, hi)) return;
    if (p + 1 == m) return;
    const double* lp = lower + p * kPaddedRows;
    // Only the blocks from the one holding row p + 1 on: the rows above are U's, finished, and
    // L's columns are zero there (they would subtract zero).
    double* column_q = a + (p + 1) * kPaddedRows;
    const double u = column_q[p];
    if (u != 0.0) SubtractPaddedFrom(column_q, lp, u, p + 1);
    if (!PivotStep(a, lower, m, columns, p + 1, perm, lo, hi)) return;
    const double* lq = lower + (p + 1) * kPaddedRows;
    switch ((p + 1) >> 2) {
      case 0:
        UpdateTrailingColumnsTwice<0>(a, lp, lq, p, columns);
        break;
      case 1:
        UpdateTrailingColumnsTwice<4>(a, lp, lq, p, columns);
        break;
      case 2:
        UpdateTrailingColumnsTwice<8>(a, lp, lq, p, columns);
        break;
      default:
        UpdateTrailingColumnsTwice<12>(a, lp, lq, p, columns);
        break;
    }
  }
}

QUASIDYN_PADDED_KERNEL void SubtractPaddedColumns(double* __restrict y,
                                                  const double* __restrict columns,
                                                  const double* __restrict x, int count) {
  static_assert(kPaddedRows == 16, "four blocks of four rows");
  // y is held in registers over the count columns (four blocks of four): loaded and stored once,
  // the same subtractions in the same order as one SubtractPaddedColumn per column.
  Lanes y0, y1, y2, y3;
  __builtin_memcpy(&y0, y, sizeof y0);
  __builtin_memcpy(&y1, y + 4, sizeof y1);
  __builtin_memcpy(&y2, y + 8, sizeof y2);
  __builtin_memcpy(&y3, y + 12, sizeof y3);
  for (int t = 0; t < count; ++t) {
    const double a = x[t];
    if (a == 0.0) continue;
    const double* c = columns + t * kPaddedRows;
    Lanes c0, c1, c2, c3;
    __builtin_memcpy(&c0, c, sizeof c0);
    __builtin_memcpy(&c1, c + 4, sizeof c1);
    __builtin_memcpy(&c2, c + 8, sizeof c2);
    __builtin_memcpy(&c3, c + 12, sizeof c3);
    y0 -= c0 * a;
    y1 -= c1 * a;
    y2 -= c2 * a;
    y3 -= c3 * a;
  }
  __builtin_memcpy(y, &y0, sizeof y0);
  __builtin_memcpy(y + 4, &y1, sizeof y1);
  __builtin_memcpy(y + 8, &y2, sizeof y2);
  __builtin_memcpy(y + 12, &y3, sizeof y3);
}

QUASIDYN_PADDED_KERNEL void SubstitutePadded(const double* __restrict a,
                                             const double* __restrict lower, int m, const int* perm,
                                             double* __restrict x) {
  for (int p = 0; p < m; ++p) {
    if (perm[p] != p) std::swap(x[p], x[perm[p]]);
  }
  for (int i = 0; i < kPaddedRows; ++i) x[i] = i < m ? x[i] : 0.0;  // a select, no memset call
  for (int p = 0; p < m; ++p) {  // L y = P x: L's column p is zero in rows <= p
    const double xp = x[p];
    if (xp != 0.0) SubtractPaddedFrom(x, lower + p * kPaddedRows, xp, p + 1);
  }
  BackSubstitute(a, m, x);
}

QUASIDYN_PADDED_KERNEL void BackSubstitutePadded(const double* __restrict a, int m,
                                                 double* __restrict x) {
  BackSubstitute(a, m, x);
}

}  // namespace quasidyn
