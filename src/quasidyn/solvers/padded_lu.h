#pragma once
// LU with partial pivoting of a small m × m matrix (m <= kPaddedRows) stored with every column
// padded to kPaddedRows entries, and its substitutions, written so that every inner loop has a
// length fixed at compile time (whole columns, or whole four-row blocks): no data-dependent trip
// counts (Golub & Van Loan, "Matrix Computations", 4th ed., Alg. 3.4.1, the outer-product form;
// Alg. 3.1.3/3.1.4 for the triangular solves, column by column).
//
// At step p the multipliers are written into a separate column L(:, p) that is zero in rows
// <= p (and in the padding), so the update of column j > p, a(:, j) −= a(p, j) L(:, p), may run
// over whole four-row blocks: it starts at the block holding row p + 1 (the blocks above are U's,
// finished; rows <= p of that block and the padding subtract zero), a start chosen once per step
// among four unrolled variants; the steps go two at a time, each trailing column loaded and
// stored once for both (step p + 1's row interchange moves whole rows, L's included, so applying
// it before step p's update changes no entry). The triangular solves use the same trick: the
// forward substitution subtracts L's columns from row p + 1's block on, and the backward one
// accumulates into a residual whose rows >= p are not read again after step p (the blocks below row
// p's are skipped).
//
// This is the Schur complement's factorisation in SchurLu (schur_lu.h), where m is the contact
// unknowns of a few pairs (14 for one pair of the ECP step with its inactive rows taken out).
//
// The three kernels below are compiled twice, for the baseline x86-64 (SSE2: two doubles per
// instruction) and for AVX2 (four), and the one the processor supports is chosen when the
// program is loaded (GCC's target_clones). Both do the same multiplications and subtractions in
// the same order (no fused multiply–add), so their results are bitwise the same.

namespace quasidyn {

inline constexpr int kPaddedRows = 16;

// y −= a x over a whole padded column (y and x do not overlap).
inline void SubtractPaddedColumn(double* __restrict y, const double* __restrict x, double a) {
  for (int i = 0; i < kPaddedRows; ++i) y[i] -= x[i] * a;
}

// Factorises the m × m matrix at `a` (column-major, leading dimension kPaddedRows, rows m..
// kPaddedRows − 1 of its first m columns zero) in place: on return its upper triangle holds U
// with the reciprocals 1/u_pp on its diagonal (the back substitution multiplies by them; below it
// what the elimination left, which SubstitutePadded subtracts only from rows it has finished),
// `lower` (same layout, m columns) the multipliers of L below the diagonal and zeros elsewhere,
// `perm` the row interchanges. Updates *lo, *hi with the smallest and largest |pivot|; a zero or
// non-finite pivot sets *lo to 0 and stops (the factor is unusable). `columns` (m, or m + 1 when m
// < kPaddedRows) is how many columns of `a` take the row interchanges and updates: a column m, when
// there, is a right side b (padded with zeros) that is eliminated with the matrix, so on return it
// holds L⁻¹ P b, the forward substitution of SubstitutePadded by the same operations in the same
// order (then BackSubstitutePadded).
void FactorisePadded(double* a, double* lower, int m, int columns, int* perm, double* lo,
                     double* hi);
inline void FactorisePadded(double* a, double* lower, int m, int* perm, double* lo, double* hi) {
  FactorisePadded(a, lower, m, m, perm, lo, hi);
}

// y −= Σ_t columns(:, t) x[t] over t < count with x[t] != 0 (y and columns: padded columns).
void SubtractPaddedColumns(double* y, const double* columns, const double* x, int count);

// x := (P L U)⁻¹ x for a factor of FactorisePadded; x has kPaddedRows entries of which the first
// m are the right side (the padding may hold anything and is overwritten).
void SubstitutePadded(const double* a, const double* lower, int m, const int* perm, double* x);

// x := U⁻¹ x, U the upper triangle of a factor of FactorisePadded (the second half of
// SubstitutePadded: for a right side already eliminated with the factor); the first m entries of
// x are read and written.
void BackSubstitutePadded(const double* a, int m, double* x);

}  // namespace quasidyn
