#include "quasidyn/formulations/programs/barrier_hessian_factor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// out −= l · in over `count` entries; the two never overlap (distinct rows of one matrix), which
// __restrict tells the compiler so that it vectorises the loop without a run-time check.
inline void SubtractScaledRow(double* __restrict out, const double* __restrict in, double l,
                              int count) {
  for (int t = 0; t < count; ++t) out[t] -= l * in[t];
}

}  // namespace

void BarrierHessianFactor::LowerEntries(const Eigen::MatrixXd& H) {
  const int n = static_cast<int>(H.rows());
  int count = 0;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) count += H(i, j) != 0.0 ? 1 : 0;
  entries_.resize(n, n);
  entries_.resizeNonZeros(count);
  int* outer = entries_.outerIndexPtr();
  int* inner = entries_.innerIndexPtr();
  double* value = entries_.valuePtr();
  int p = 0;
  for (int j = 0; j < n; ++j) {
    outer[j] = p;
    const double* column = H.col(j).data();
    for (int i = j; i < n; ++i)
      if (column[i] != 0.0) {
        inner[p] = i;
        value[p++] = column[i];
      }
  }
  outer[n] = p;
}

bool BarrierHessianFactor::Compute(const Eigen::MatrixXd& H, bool require_positive) {
  QUASIDYN_CHECK_ARGUMENT(H.rows() == H.cols(), "BarrierHessianFactor::Compute",
                          "H must be square");
  sparse_ = false;
  reused_pattern_ = false;
  if (H.rows() >= kSparseBarrierHessianSize) {
    LowerEntries(H);  // exact zeros dropped; the factor reads the lower triangle
    const int n = static_cast<int>(H.rows());
    const int* outer = entries_.outerIndexPtr();
    const int* inner = entries_.innerIndexPtr();
    const int count = outer[n];
    reused_pattern_ = static_cast<int>(analysed_outer_.size()) == n + 1 &&
                      static_cast<int>(analysed_inner_.size()) == count &&
                      std::equal(outer, outer + n + 1, analysed_outer_.begin()) &&
                      std::equal(inner, inner + count, analysed_inner_.begin());
    if (!reused_pattern_) {
      sparse_factor_.analyzePattern(entries_);
      analysed_outer_.assign(outer, outer + n + 1);
      analysed_inner_.assign(inner, inner + count);
    }
    sparse_factor_.factorize(entries_);
    sparse_ = sparse_factor_.info() == Eigen::Success;
    if (sparse_) {
      inverse_pivots_ = sparse_factor_.vectorD();
      sparse_ = (inverse_pivots_.array() > 0.0).all();
      inverse_pivots_ = inverse_pivots_.cwiseInverse();  // D⁻¹ as Eigen's solve applies it
    }
    if (sparse_) return true;
  }
  dense_factor_.compute(H);
  return dense_factor_.info() == Eigen::Success &&
         (!require_positive || (dense_factor_.vectorD().array() > 0.0).all());
}

// x = P⁻¹ L⁻ᵀ D⁻¹ L⁻¹ P b (Eigen's SimplicialLDLT: P the fill-reducing permutation, L unit lower
// with its strictly lower entries stored by column), on all columns of b at once: rows_ holds
// P b by row, so each step x_i −= L_ij x_j is one contiguous row update.
void BarrierHessianFactor::SolveSparseInPlace(Eigen::MatrixXd* rhs) const {
  Eigen::MatrixXd& x = *rhs;
  const int n = static_cast<int>(x.rows()), columns = static_cast<int>(x.cols());
  const int* permutation = sparse_factor_.permutationP().indices().data();
  rows_.resize(n, columns);
  for (int t = 0; t < columns; ++t) {
    const double* column = x.col(t).data();
    for (int i = 0; i < n; ++i) rows_(permutation[i], t) = column[i];
  }
  const auto& L = sparse_factor_.matrixL().nestedExpression();
  const int* start = L.outerIndexPtr();
  const int* row = L.innerIndexPtr();
  const double* value = L.valuePtr();
  double* const y = rows_.data();  // row i at y + i·columns (i <= j never aliases row[p] > j)
  for (int j = 0; j < n; ++j) {    // L y = P b, column by column
    const double* const y_j = y + static_cast<size_t>(j) * columns;
    for (int p = start[j]; p < start[j + 1]; ++p) {
      SubtractScaledRow(y + static_cast<size_t>(row[p]) * columns, y_j, value[p], columns);
    }
  }
  for (int j = 0; j < n; ++j) {
    double* const y_j = y + static_cast<size_t>(j) * columns;
    const double d = inverse_pivots_[j];
    for (int t = 0; t < columns; ++t) y_j[t] *= d;
  }
  for (int j = n - 1; j >= 0; --j) {  // Lᵀ z = D⁻¹ y, row j of Lᵀ is column j of L
    double* const z_j = y + static_cast<size_t>(j) * columns;
    for (int p = start[j]; p < start[j + 1]; ++p) {
      SubtractScaledRow(z_j, y + static_cast<size_t>(row[p]) * columns, value[p], columns);
    }
  }
  for (int t = 0; t < columns; ++t) {
    double* column = x.col(t).data();
    for (int i = 0; i < n; ++i) column[i] = rows_(permutation[i], t);
  }
}

Eigen::MatrixXd BarrierHessianFactor::Solve(const Eigen::MatrixXd& rhs) const {
  Eigen::MatrixXd x = rhs;
  SolveInPlace(&x);
  return x;
}

void BarrierHessianFactor::SolveInPlace(Eigen::MatrixXd* rhs) const {
  Eigen::MatrixXd& x = *rhs;
  if (sparse_) {
    SolveSparseInPlace(rhs);
    return;
  }
  const int n = static_cast<int>(dense_factor_.rows());
  if (n > kSmallBarrierHessianSize) {
    dense_factor_.solveInPlace(x);
    return;
  }
  // Eigen::LDLT::solve's steps, column by column without its blocked kernels:
  // x = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π b, D⁺ zero where |D_i| is not above the smallest normal double.
  // Π and Πᵀ apply the transpositions in order and in reverse order, column by column.
  const int* transposition = dense_factor_.transpositionsP().indices().data();
  const double* L = dense_factor_.matrixLDLT().data();  // column-major: L(i, j) = L[i + j·n]
  const auto D = dense_factor_.vectorD();
  const double tolerance = std::numeric_limits<double>::min();
  for (int t = 0; t < static_cast<int>(x.cols()); ++t) {
    double* column = x.col(t).data();
    for (int i = 0; i < n; ++i) std::swap(column[i], column[transposition[i]]);
    for (int i = 1; i < n; ++i) {
      double sum = column[i];
      for (int j = 0; j < i; ++j) sum -= L[i + j * n] * column[j];
      column[i] = sum;
    }
    for (int i = 0; i < n; ++i) column[i] = std::abs(D[i]) > tolerance ? column[i] / D[i] : 0.0;
    for (int i = n - 2; i >= 0; --i) {
      double sum = column[i];
      for (int j = i + 1; j < n; ++j) sum -= L[j + i * n] * column[j];
      column[i] = sum;
    }
    for (int i = n - 1; i >= 0; --i) std::swap(column[i], column[transposition[i]]);
  }
}

}  // namespace quasidyn
