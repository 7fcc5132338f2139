#include "quasidyn/gradients/positive_definite_factor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/common/all_finite.h"

namespace quasidyn {

namespace {

// The last i in (j, n) with column[i] != 0.0, or j when there is none: from the bottom, four
// entries per test (their bits without the sign bit OR-ed together are zero exactly when each
// is ±0.0), then the one found. A block-diagonal P's columns are zero below their block, so most
// of each column is read.
int LastNonZeroBelow(const double* column, int j, int n) {
  const auto magnitude_bits = [column](int i) {
    std::uint64_t bits;
    std::memcpy(&bits, column + i, sizeof bits);
    return bits << 1;
  };
  int i = n;
  while (i - 4 > j && (magnitude_bits(i - 1) | magnitude_bits(i - 2) | magnitude_bits(i - 3) |
                       magnitude_bits(i - 4)) == 0)
    i -= 4;
  for (--i; i > j; --i)
    if (column[i] != 0.0) return i;
  return j;
}

}  // namespace

bool PositiveDefiniteFactor::Factor(const Eigen::MatrixXd& P) {
  if (P.rows() != P.cols())
    throw std::invalid_argument("PositiveDefiniteFactor: P is " + std::to_string(P.rows()) + " × " +
                                std::to_string(P.cols()) + ", not square");
  size_ = 0;
  block_count_ = 0;  // blocks_ keeps its elements' storage for the next factorisation
  const int n = static_cast<int>(P.rows());
  if (n == 0 || !AllFinite(P.data(), P.size())) return false;
  // reach[j]: the last row i >= j with P(i, j) != 0 (lower triangle). A block [start, end)
  // closes at the first end where no column of it reaches row end or below.
  reach_.resize(n);
  for (int j = 0; j < n; ++j) reach_[j] = LastNonZeroBelow(P.col(j).data(), j, n);
  const double threshold = 1e-12 * P.diagonal().cwiseAbs().maxCoeff();
  for (int start = 0; start < n;) {
    // The smallest end > start with no column of [start, end) reaching row end or below.
    int end = start;
    for (int last = start; end <= last; ++end) last = std::max(last, reach_[end]);
    const int size = end - start;
    if (size == 1) {
      // L = √P_ii (what a 1 × 1 Cholesky factor computes), into a run of 1 × 1 blocks.
      const double p = P(start, start);
      if (!(p > 0.0)) return false;
      const double l = std::sqrt(p);
      if (!(l * l > threshold)) return false;
      if (block_count_ == 0 || !blocks_[block_count_ - 1].diagonal) {
        Block& run = NextBlock();
        run.start = start;
        run.size = 0;
        run.diagonal = true;
        // Room for the longest run (its first size entries are used): no resize per entry.
        if (run.inverse_diagonal.size() < static_cast<size_t>(n - start))
          run.inverse_diagonal.resize(n - start);
      }
      Block& run = blocks_[block_count_ - 1];
      run.inverse_diagonal[run.size++] = 1.0 / l;
    } else {
      Block& block = NextBlock();
      block.start = start;
      block.size = size;
      block.diagonal = false;
      block.L.Resize(size, size);
      KeptCapacityMatrix::View L = block.L.view();
      L = P.block(start, start, size, size);
      // In place: the lower triangle becomes L (the upper one, never read, keeps P's).
      const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> llt(L);
      if (llt.info() != Eigen::Success) return false;
      if (!(L.diagonal().cwiseAbs2().minCoeff() > threshold)) return false;
      if (block.inverse_diagonal.size() < static_cast<size_t>(size))
        block.inverse_diagonal.resize(size);
      for (int i = 0; i < size; ++i) block.inverse_diagonal[i] = 1.0 / L(i, i);
    }
    start = end;
  }
  size_ = n;
  widest_block_ = 1;
  for (int k = 0; k < block_count_; ++k)
    if (!blocks_[k].diagonal) widest_block_ = std::max(widest_block_, blocks_[k].size);
  block_of_column_.resize(n);
  for (int k = 0; k < block_count_; ++k)
    for (int c = blocks_[k].start; c < blocks_[k].start + blocks_[k].size; ++c)
      block_of_column_[c] = k;
  return true;
}

PositiveDefiniteFactor::Block& PositiveDefiniteFactor::NextBlock() {
  if (block_count_ == static_cast<int>(blocks_.size())) blocks_.emplace_back();
  return blocks_[block_count_++];
}

namespace {

void CheckFactored(const char* function, const char* what, long count, int size) {
  if (size == 0 || count != size)
    throw std::invalid_argument(std::string("PositiveDefiniteFactor::") + function + ": " + what +
                                " " + std::to_string(count) + ", the factor size " +
                                std::to_string(size) + " (0: not factored)");
}

}  // namespace

// x ← L_b⁻¹ x on the block's contiguous segment x (plain loops: the blocks are small, and a
// general triangular solve's set-up per block would cost more than the arithmetic).
void PositiveDefiniteFactor::ForwardSubstitute(const Block& b, double* x) {
  if (b.diagonal) {
    for (int i = 0; i < b.size; ++i) x[i] *= b.inverse_diagonal[i];
    return;
  }
  for (int i = 0; i < b.size; ++i) {
    double sum = x[i];
    for (int k = 0; k < i; ++k) sum -= b.L(i, k) * x[k];
    x[i] = sum * b.inverse_diagonal[i];
  }
}

// x ← L_b⁻ᵀ x on the block's segment.
void PositiveDefiniteFactor::BackSubstitute(const Block& b, double* x) {
  if (b.diagonal) {
    for (int i = 0; i < b.size; ++i) x[i] *= b.inverse_diagonal[i];
    return;
  }
  for (int i = b.size - 1; i >= 0; --i) {
    double sum = x[i];
    for (int k = i + 1; k < b.size; ++k) sum -= b.L(k, i) * x[k];
    x[i] = sum * b.inverse_diagonal[i];
  }
}

Eigen::MatrixXd PositiveDefiniteFactor::SolveTranspose(const Eigen::MatrixXd& B) const {
  Eigen::MatrixXd X = B;
  SolveTransposeInPlace(&X);
  return X;
}

namespace {

// Whether x[0 … size − 1] is all zero (then so is any triangular solve of it).
bool AllZero(const double* x, int size) {
  for (int i = 0; i < size; ++i)
    if (x[i] != 0.0) return false;
  return true;
}

}  // namespace

void PositiveDefiniteFactor::SolveTransposeInPlace(Eigen::MatrixXd* B) const {
  CheckFactored("SolveTranspose", "B has rows:", B->rows(), size_);
  for (int c = 0; c < B->cols(); ++c) {
    double* column = B->col(c).data();
    for (int k = 0; k < block_count_; ++k) {
      const Block& b = blocks_[k];
      if (!AllZero(column + b.start, b.size)) ForwardSubstitute(b, column + b.start);
    }
  }
}

Eigen::VectorXd PositiveDefiniteFactor::InverseQuadraticForms(const Eigen::MatrixXd& G) const {
  CheckFactored("InverseQuadraticForms", "G has columns:", G.cols(), size_);
  SparseRows rows;
  WhitenRows(G, &rows);
  Eigen::VectorXd forms(G.rows());
  for (int j = 0; j < G.rows(); ++j) forms[j] = rows.SquaredNorm(j);
  return forms;
}

void PositiveDefiniteFactor::WhitenRows(Eigen::Ref<const Eigen::MatrixXd> G,
                                        SparseRows* out) const {
  CheckFactored("WhitenRows", "G has columns:", G.cols(), size_);
  const int m = static_cast<int>(G.rows());
  // Which blocks each row touches, column by column (G is stored by columns).
  std::vector<char>& touches = out->touches;  // [k · m + j]
  touches.assign(static_cast<size_t>(block_count_) * m, 0);
  for (int k = 0; k < block_count_; ++k) {
    const Block& b = blocks_[k];
    char* touched = touches.data() + static_cast<size_t>(k) * m;
    for (int c = b.start; c < b.start + b.size; ++c) {
      const double* column = G.col(c).data();
      for (int j = 0; j < m; ++j)
        if (column[j] != 0.0) touched[j] = 1;
    }
  }
  out->start.assign(1, 0);
  out->index.clear();
  out->value.clear();
  for (int j = 0; j < m; ++j) {
    for (int k = 0; k < block_count_; ++k) {
      if (!touches[static_cast<size_t>(k) * m + j]) continue;
      const Block& b = blocks_[k];
      if (b.diagonal) {
        // The row's non-zeros of the run, scaled (as the sparse form below).
        for (int i = 0; i < b.size; ++i) {
          const double g = G(j, b.start + i);
          if (g == 0.0) continue;
          out->index.push_back(b.start + i);
          out->value.push_back(g * b.inverse_diagonal[i]);
        }
        continue;
      }
      const size_t first = out->value.size();
      for (int i = 0; i < b.size; ++i) {
        out->index.push_back(b.start + i);
        out->value.push_back(G(j, b.start + i));
      }
      ForwardSubstitute(b, out->value.data() + first);
    }
    out->start.push_back(static_cast<int>(out->value.size()));
  }
}

void PositiveDefiniteFactor::WhitenRows(const SparseRowMatrix& G, SparseRows* out) const {
  CheckFactored("WhitenRows", "G has columns:", G.cols(), size_);
  const int m = G.rows();
  out->start.resize(static_cast<size_t>(m) + 1);
  out->start[0] = 0;
  // The entries are written through pointers into index and value, sized (up to their
  // capacity, so that a call with the sizes of an earlier one does not allocate) for the
  // row's worst case before each row: each of its entries in a diagonal run gives one entry,
  // a dense block's segment at most widest_block_ for each of its entries.
  size_t used = 0;
  for (int j = 0; j < m; ++j) {
    const int row_end = G.row_start(j + 1);
    const size_t bound = used + static_cast<size_t>(row_end - G.row_start(j)) * widest_block_;
    if (out->value.size() < bound) {
      const size_t capacity = out->value.capacity();
      const size_t size = bound <= capacity ? capacity : std::max(bound, 2 * capacity);
      out->index.resize(size);
      out->value.resize(size);
    }
    int* index = out->index.data();
    double* value = out->value.data();
    // The blocks of the row's columns (increasing, so each block's entries are consecutive).
    for (int e = G.row_start(j); e < row_end;) {
      const Block& b = blocks_[block_of_column_[G.column(e)]];
      const int block_end = b.start + b.size;
      if (b.diagonal) {
        // L⁻¹ = diag(1/L_ii) on a run: the row's own entries, scaled (the run's other entries
        // of w_j are zero and are not stored).
        for (; e < row_end && G.column(e) < block_end; ++e) {
          const int c = G.column(e);
          index[used] = c;
          value[used] = G.value(e) * b.inverse_diagonal[c - b.start];
          ++used;
        }
        continue;
      }
      // A dense block: its segment, zero but for the row's entries, then L_b⁻¹ on it.
      for (int i = 0; i < b.size; ++i) {
        index[used + i] = b.start + i;
        value[used + i] = 0.0;
      }
      for (; e < row_end && G.column(e) < block_end; ++e)
        value[used + (G.column(e) - b.start)] = G.value(e);
      ForwardSubstitute(b, value + used);
      used += b.size;
    }
    out->start[j + 1] = static_cast<int>(used);
  }
  out->index.resize(used);
  out->value.resize(used);
}

double PositiveDefiniteFactor::SparseRows::SquaredNorm(int row) const {
  double sum = 0.0;
  for (int k = start[row]; k < start[row + 1]; ++k) sum += value[k] * value[k];
  return sum;
}

Eigen::MatrixXd PositiveDefiniteFactor::Solve(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd Y = X;
  SolveInPlace(&Y);
  return Y;
}

void PositiveDefiniteFactor::SolveInPlace(Eigen::MatrixXd* X) const {
  CheckFactored("Solve", "X has rows:", X->rows(), size_);
  for (int c = 0; c < X->cols(); ++c) {
    double* column = X->col(c).data();
    for (int k = 0; k < block_count_; ++k) {
      const Block& b = blocks_[k];
      if (!AllZero(column + b.start, b.size)) BackSubstitute(b, column + b.start);
    }
  }
}

Eigen::VectorXd RegularizedInverseQuadraticForms(const Eigen::MatrixXd& P,
                                                 const Eigen::MatrixXd& G) {
  const int n = static_cast<int>(P.rows());
  const double delta = 1e-12 * std::max(1.0, P.diagonal().maxCoeff());
  const Eigen::LDLT<Eigen::MatrixXd> factor(P + delta * Eigen::MatrixXd::Identity(n, n));
  const Eigen::MatrixXd P_inverse_Gt = factor.solve(G.transpose());
  return (G.transpose().array() * P_inverse_Gt.array()).colwise().sum().transpose();
}

}  // namespace quasidyn
