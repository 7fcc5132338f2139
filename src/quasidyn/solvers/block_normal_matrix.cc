#include "quasidyn/solvers/block_normal_matrix.h"

#include <algorithm>
#include <cmath>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

constexpr int kMinBlockVariables = 16;

}  // namespace

void BlockNormalMatrix::Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A,
                              const std::vector<int>& offset, const std::vector<int>& dim,
                              const SparsePathRule& rule) {
  n_ = Q.rows();
  offset_ = offset;
  dim_ = dim;
  Q_ = Q;
  A_ = A;
  const double entries = static_cast<double>(n_ * n_ + A.rows() * n_);
  small_ = false;
  dense_blocks_ = false;
  sparse_ = n_ >= rule.min_variables && static_cast<double>(A.nonZeros() + Q.nonZeros()) <=
                                            rule.max_density * std::max(1.0, entries);
  if (!sparse_) {
    Q_.ToDense(&dense_Q_);
    dense_normal_.resize(n_, n_);
    small_ = n_ <= kSmallDenseSize;
    small_factor_.Resize(small_ ? static_cast<int>(n_) : 0);
    pattern_ready_ = false;  // the block layout below replaces the sparse path's
    ChooseDenseAssembly();
    if (!dense_blocks_) {
      A_.ToDense(&dense_A_);
      scaled_A_.resize(A.rows(), n_);
    }
    return;
  }
  const bool same_pattern = pattern_ready_ && dim_ == pattern_dim_ && Q.SamePattern(pattern_Q_) &&
                            A.SamePattern(pattern_A_);
  if (!same_pattern && !(pattern_ready_ && IndexIntoKeptPattern())) BuildSparsePattern();
  CopySparseValues();
}

bool BlockNormalMatrix::SamePattern(const SparseRowMatrix& Q, const SparseRowMatrix& A,
                                    const std::vector<int>& dim) const {
  return dim == dim_ && Q.SamePattern(Q_) && A.SamePattern(A_);
}

void BlockNormalMatrix::UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A) {
  QUASIDYN_CHECK_ARGUMENT(Q.SamePattern(Q_) && A.SamePattern(A_), "BlockNormalMatrix::UpdateValues",
                          "Q or A has another sparsity pattern than at Setup; call Setup");
  Q_ = Q;  // same sizes: the storage is reused
  A_ = A;
  if (!sparse_) {
    Q_.ToDense(&dense_Q_);
    if (dense_blocks_) {
      CopyBlockValues();
    } else {
      A_.ToDense(&dense_A_);
    }
    return;
  }
  CopySparseValues();
}

// Per block: the sorted union of the columns its rows touch, and where each entry of A goes
// in the compact column-major copy A_k (m_k × c_k) of its block.
void BlockNormalMatrix::BuildBlockLayout() {
  block_column_begin_.assign(1, 0);
  block_value_begin_.assign(1, 0);
  block_columns_.clear();
  int max_dim = 1, max_columns = 1, values = 0;
  same_row_columns_.assign(dim_.size(), 0);
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int begin = static_cast<int>(block_columns_.size());
    if (RowsShareIncreasingColumns(static_cast<int>(k))) {  // a contact's rows: one list
      same_row_columns_[k] = 1;
      for (int e = A_.row_start(offset_[k]); e < A_.row_start(offset_[k] + 1); ++e)
        block_columns_.push_back(A_.column(e));
    } else {
      for (int r = offset_[k]; r < offset_[k] + dim_[k]; ++r)
        for (int e = A_.row_start(r); e < A_.row_start(r + 1); ++e)
          block_columns_.push_back(A_.column(e));
    }
    if (dim_[k] > 1 && !same_row_columns_[k]) {
      std::sort(block_columns_.begin() + begin, block_columns_.end());
      block_columns_.erase(std::unique(block_columns_.begin() + begin, block_columns_.end()),
                           block_columns_.end());
    }
    const int columns = static_cast<int>(block_columns_.size()) - begin;
    block_column_begin_.push_back(static_cast<int>(block_columns_.size()));
    values += columns * dim_[k];
    block_value_begin_.push_back(values);
    max_dim = std::max(max_dim, dim_[k]);
    max_columns = std::max(max_columns, columns);
  }
  block_values_.assign(values, 0.0);
  a_value_position_.resize(A_.nonZeros());
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int* columns = block_columns_.data() + block_column_begin_[k];
    const int count = block_column_begin_[k + 1] - block_column_begin_[k];
    if (same_row_columns_[k]) {  // entry e of row r is the row's (e − start)-th column
      for (int r = offset_[k]; r < offset_[k] + dim_[k]; ++r) {
        for (int e = A_.row_start(r); e < A_.row_start(r + 1); ++e)
          a_value_position_[e] =
              block_value_begin_[k] + (r - offset_[k]) + dim_[k] * (e - A_.row_start(r));
      }
      continue;
    }
    for (int r = offset_[k]; r < offset_[k] + dim_[k]; ++r) {
      for (int e = A_.row_start(r); e < A_.row_start(r + 1); ++e) {
        const int j =
            static_cast<int>(std::lower_bound(columns, columns + count, A_.column(e)) - columns);
        a_value_position_[e] = block_value_begin_[k] + (r - offset_[k]) + dim_[k] * j;
      }
    }
  }
  weighted_block_.resize(static_cast<size_t>(max_dim) * max_columns);
}

// True when every row of block k stores the same columns, in increasing order (the rows of a
// contact's cone, built from one list of the contact's columns): then the block's columns are
// its first row's, without a sort or a search.
bool BlockNormalMatrix::RowsShareIncreasingColumns(int k) const {
  const int first = offset_[k];
  const int begin = A_.row_start(first), count = A_.row_start(first + 1) - begin;
  for (int e = begin + 1; e < begin + count; ++e)
    if (!(A_.column(e - 1) < A_.column(e))) return false;
  for (int r = first + 1; r < first + dim_[k]; ++r) {
    const int start = A_.row_start(r);
    if (A_.row_start(r + 1) - start != count) return false;
    for (int i = 0; i < count; ++i)
      if (A_.column(start + i) != A_.column(begin + i)) return false;
  }
  return true;
}

// The dense path forms N by blocks when that is the cheaper count: block k costs
// m_k² c_k (M_k A_k) plus m_k c_k (c_k + 1) / 2 (the lower triangle of A_kᵀ (M_k A_k))
// multiply–adds on its c_k columns, against rows · n² for the dense product Aᵀ (M A). Eigen's
// general kernel (n > kSmallDenseSize) does several of its multiply–adds per cycle, the plain loops
// of the block form about one, hence the factor (not measured; ours: 4, from SSE2's two lanes
// and the kernel's blocking). Below kMinBlockVariables the layout's set-up, redone at every Setup,
// costs more than the products save (the planar hand's QP polish, n = 7: 4 % more instructions per
// step).
void BlockNormalMatrix::ChooseDenseAssembly() {
  BuildBlockLayout();
  double block_work = 0.0;
  for (size_t k = 0; k < dim_.size(); ++k) {
    const double m = dim_[k], c = block_column_begin_[k + 1] - block_column_begin_[k];
    block_work += m * m * c + m * c * (c + 1) / 2;
  }
  const double dense_work = static_cast<double>(A_.rows()) * static_cast<double>(n_ * n_);
  const double kernel_speed = small_ ? 1.0 : kDenseKernelSpeedup;
  dense_blocks_ =
      n_ >= kMinBlockVariables && A_.rows() > 0 && kernel_speed * block_work < dense_work;
  if (!dense_blocks_) return;
  dense_A_.resize(0, 0);  // the products read A_ (sparse rows)
  scaled_A_.resize(0, 0);
  // Block k's pair (i, j), i >= j of its columns, lands in the lower triangle of the
  // column-major n × n storage.
  dense_pair_position_.clear();
  const int n = static_cast<int>(n_);
  for (size_t k = 0; k < dim_.size(); ++k) {
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        const int row = std::max(block_columns_[i], block_columns_[j]);
        const int column = std::min(block_columns_[i], block_columns_[j]);
        dense_pair_position_.push_back(row + n * column);
      }
    }
  }
  CopyBlockValues();
}

void BlockNormalMatrix::CopyBlockValues() {
  for (int e = 0; e < A_.nonZeros(); ++e) block_values_[a_value_position_[e]] = A_.value(e);
}

// The pattern of the lower triangle of N, where every contribution lands in it, the compact
// blocks A_k and the symbolic analysis of the factorisation.
void BlockNormalMatrix::BuildSparsePattern() {
  const int n = static_cast<int>(n_);
  q_entry_.clear();
  std::vector<int>& q_row = q_row_;
  q_row.clear();
  for (int r = 0; r < Q_.rows(); ++r) {
    for (int e = Q_.row_start(r); e < Q_.row_start(r + 1); ++e) {
      if (Q_.column(e) > r) continue;
      q_entry_.push_back(e);
      q_row.push_back(r);
    }
  }
  BuildBlockLayout();
  MarkBlocksThatRepeatTheirPredecessor();
  const std::vector<char>& repeats = repeats_previous_columns_;
  std::vector<Eigen::Triplet<double>>& pattern = triplets_;
  pattern.clear();
  for (int j = 0; j < n; ++j) pattern.emplace_back(j, j, 0.0);
  for (size_t i = 0; i < q_entry_.size(); ++i)
    pattern.emplace_back(q_row[i], Q_.column(q_entry_[i]), 0.0);
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (repeats[k]) continue;
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        pattern.emplace_back(block_columns_[i], block_columns_[j], 0.0);
      }
    }
  }
  sparse_normal_.resize(n, n);
  sparse_normal_.setFromTriplets(pattern.begin(), pattern.end());
  sparse_normal_.makeCompressed();
  positions_.Index(sparse_normal_);
  const SparsePositions& position = positions_;
  diagonal_position_.resize(n);
  for (int j = 0; j < n; ++j) diagonal_position_[j] = position(j, j);
  q_position_.clear();
  for (size_t i = 0; i < q_entry_.size(); ++i)
    q_position_.push_back(position(q_row[i], Q_.column(q_entry_[i])));
  q_value_.resize(q_entry_.size());
  pair_position_.clear();
  size_t previous_pairs = 0;  // where the previous block's pairs start in pair_position_
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (AppendPairsIfRepeated(k, &previous_pairs)) continue;
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        pair_position_.push_back(position(block_columns_[i], block_columns_[j]));
      }
    }
  }
  sparse_factor_.Analyze(sparse_normal_);
  pattern_Q_ = Q_;
  pattern_A_ = A_;
  pattern_dim_ = dim_;
  pattern_ready_ = true;
  ++pattern_builds_;
}

// A block whose columns are those of the block before it (a contact's rows, one block each
// in the QP's polish; the cones of a pair's manifold points) adds no new entries: its pairs are
// the same positions.
void BlockNormalMatrix::MarkBlocksThatRepeatTheirPredecessor() {
  std::vector<char>& repeats = repeats_previous_columns_;
  repeats.assign(dim_.size(), 0);
  for (size_t k = 1; k < dim_.size(); ++k) {
    const int begin = block_column_begin_[k], end = block_column_begin_[k + 1];
    const int previous = block_column_begin_[k - 1];
    repeats[k] = end - begin == begin - previous &&
                 std::equal(block_columns_.begin() + begin, block_columns_.begin() + end,
                            block_columns_.begin() + previous);
  }
}

// When block k repeats its predecessor's columns, appends the predecessor's pair positions to
// pair_position_ and returns true; false otherwise. *previous_pairs is where the predecessor's
// pairs start in pair_position_, and is moved to block k's.
bool BlockNormalMatrix::AppendPairsIfRepeated(size_t k, size_t* previous_pairs) {
  const size_t first_pair = pair_position_.size();
  const size_t from = *previous_pairs;
  *previous_pairs = first_pair;
  if (!repeats_previous_columns_[k]) return false;
  for (size_t e = from; e < first_pair; ++e) {
    const int same = pair_position_[e];  // a copy: push_back may move the storage
    pair_position_.push_back(same);
  }
  return true;
}

// A new pattern of Q or A on the sparse path, with N's pattern kept from the last build: N's
// pattern depends only on which columns the blocks couple (for contacts, the coupled body
// pairs) and on Q's, not on the blocks' count or order. Every entry of Q and every column pair
// of every block is looked up in the kept N (SparsePositions::Find); when all are found and
// together they reach every entry of N, N, its positions and its analysis stay (a fresh build
// would make the same pattern, so the factors are bitwise those of a fresh Setup); otherwise
// false, and BuildSparsePattern builds it anew.
bool BlockNormalMatrix::IndexIntoKeptPattern() {
  if (sparse_normal_.rows() != n_) return false;
  q_entry_.clear();
  q_row_.clear();
  for (int r = 0; r < Q_.rows(); ++r) {
    for (int e = Q_.row_start(r); e < Q_.row_start(r + 1); ++e) {
      if (Q_.column(e) > r) continue;
      q_entry_.push_back(e);
      q_row_.push_back(r);
    }
  }
  BuildBlockLayout();
  reached_.assign(sparse_normal_.nonZeros(), 0);
  for (const int index : diagonal_position_) reached_[index] = 1;
  q_position_.clear();
  for (size_t i = 0; i < q_entry_.size(); ++i) {
    const int position = positions_.Find(q_row_[i], Q_.column(q_entry_[i]));
    if (position < 0) return false;
    q_position_.push_back(position);
    reached_[position] = 1;
  }
  q_value_.resize(q_entry_.size());
  MarkBlocksThatRepeatTheirPredecessor();
  pair_position_.clear();
  size_t previous_pairs = 0;  // where the previous block's pairs start in pair_position_
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (AppendPairsIfRepeated(k, &previous_pairs)) continue;  // positions reached already
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        const int position = positions_.Find(std::max(block_columns_[i], block_columns_[j]),
                                             std::min(block_columns_[i], block_columns_[j]));
        if (position < 0) return false;
        pair_position_.push_back(position);
        reached_[position] = 1;
      }
    }
  }
  if (std::find(reached_.begin(), reached_.end(), 0) != reached_.end()) return false;
  pattern_Q_ = Q_;
  pattern_A_ = A_;
  pattern_dim_ = dim_;
  return true;
}

void BlockNormalMatrix::CopySparseValues() {
  for (size_t i = 0; i < q_entry_.size(); ++i) q_value_[i] = Q_.value(q_entry_[i]);
  CopyBlockValues();
}

namespace {

// values[pair…] += A_kᵀ M_k A_k for one block (A_k: m × columns, column-major in `block`; M_k:
// weights.block(o, 0, m, m)); kFixed = m when the compiler may unroll by it, 0 otherwise.
// Advances `pair` past the block's column pairs.
template <int kFixed>
void AddBlockProduct(const Eigen::MatrixXd& weights, int o, int m_runtime, int columns,
                     const double* block, double* weighted, double* values, const int*& pair) {
  const int m = kFixed > 0 ? kFixed : m_runtime;
  for (int j = 0; j < columns; ++j) {
    for (int r = 0; r < m; ++r) {
      double sum = 0.0;
      for (int c = 0; c < m; ++c) sum += weights(o + r, c) * block[c + m * j];
      weighted[r + m * j] = sum;
    }
  }
  for (int j = 0; j < columns; ++j) {
    for (int i = j; i < columns; ++i) {
      double sum = 0.0;
      for (int r = 0; r < m; ++r) sum += block[r + m * i] * weighted[r + m * j];
      values[*pair++] += sum;
    }
  }
}

}  // namespace

void BlockNormalMatrix::Assemble(const Eigen::MatrixXd& weights, double regularization) {
  if (!sparse_ && !dense_blocks_) {
    for (size_t k = 0; k < dim_.size(); ++k) {
      const int o = offset_[k], m = dim_[k];
      if (m == 1) {
        scaled_A_.row(o) = weights(o, 0) * dense_A_.row(o);
      } else {
        scaled_A_.middleRows(o, m).noalias() =
            weights.block(o, 0, m, m) * dense_A_.middleRows(o, m);
      }
    }
    dense_normal_ = dense_Q_;
    if (small_)
      dense_normal_.noalias() += dense_A_.transpose().lazyProduct(scaled_A_);
    else
      dense_normal_.noalias() += dense_A_.transpose() * scaled_A_;
    dense_normal_.diagonal().array() += regularization;
    return;
  }
  if (!sparse_) {  // dense by blocks: Q whole, the blocks' products into the lower triangle
    dense_normal_ = dense_Q_;
    dense_normal_.diagonal().array() += regularization;
    AddBlockProducts(weights, dense_pair_position_.data(), dense_normal_.data());
    return;
  }
  double* values = sparse_normal_.valuePtr();
  std::fill(values, values + sparse_normal_.nonZeros(), 0.0);
  for (size_t e = 0; e < q_position_.size(); ++e) values[q_position_[e]] += q_value_[e];
  for (const int index : diagonal_position_) values[index] += regularization;
  AddBlockProducts(weights, pair_position_.data(), values);
}

// Block k adds A_kᵀ M_k A_k on its columns: entry (i, j) = (A_k e_i)ᵀ (M_k A_k e_j). Plain
// loops: the blocks are tiny (m_k <= 3 for contacts), below the sizes where Eigen's products
// pay for their dispatch.
void BlockNormalMatrix::AddBlockProducts(const Eigen::MatrixXd& weights, const int* pair,
                                         double* values) {
  double* weighted = weighted_block_.data();
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int m = dim_[k], o = offset_[k];
    const int columns = block_column_begin_[k + 1] - block_column_begin_[k];
    const double* block = block_values_.data() + block_value_begin_[k];  // m × columns
    if (m == 1) {
      const double w = weights(o, 0);
      for (int j = 0; j < columns; ++j) {
        const double weighted_j = w * block[j];
        for (int i = j; i < columns; ++i) values[*pair++] += block[i] * weighted_j;
      }
      continue;
    }
    if (m == 3) {  // a friction cone: the block size known to the compiler
      AddBlockProduct<3>(weights, o, 3, columns, block, weighted, values, pair);
    } else {
      AddBlockProduct<0>(weights, o, m, columns, block, weighted, values, pair);
    }
  }
}

bool BlockNormalMatrix::Factorize() {
  if (!sparse_) {
    if (!dense_normal_.allFinite()) return false;
    if (small_) return small_factor_.Factor(dense_normal_);
    dense_factor_.compute(dense_normal_);
    return dense_factor_.info() == Eigen::Success;
  }
  const Eigen::Map<const Eigen::VectorXd> values(sparse_normal_.valuePtr(),
                                                 sparse_normal_.nonZeros());
  if (!values.allFinite()) return false;
  return sparse_factor_.Factorize(sparse_normal_);
}

void BlockNormalMatrix::Solve(const Eigen::VectorXd& rhs, Eigen::VectorXd* out) {
  if (sparse_) {
    sparse_factor_.SolveInto(rhs, out);
  } else if (small_) {
    small_factor_.Solve(rhs, out);
  } else {
    *out = dense_factor_.solve(rhs);
  }
}

void BlockNormalMatrix::MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd* out) const {
  if (sparse_ || dense_blocks_) {
    A_.Multiply(x, out);
  } else {
    DenseProduct(dense_A_, x, small_, out);
  }
}

void BlockNormalMatrix::MultiplyAt(const Eigen::VectorXd& y, Eigen::VectorXd* out) const {
  if (sparse_ || dense_blocks_) {
    A_.MultiplyTranspose(y, out);
  } else {
    DenseProduct(dense_A_.transpose(), y, small_, out);
  }
}

void BlockNormalMatrix::MultiplyBoth(const Eigen::VectorXd& x, Eigen::VectorXd* Ax,
                                     const Eigen::VectorXd& y, Eigen::VectorXd* Aty) const {
  if (sparse_ || dense_blocks_) {
    A_.MultiplyBoth(x, Ax, y, Aty);
  } else {
    MultiplyA(x, Ax);
    MultiplyAt(y, Aty);
  }
}

void BlockNormalMatrix::MultiplyQ(const Eigen::VectorXd& x, Eigen::VectorXd* out) const {
  if (sparse_) {
    Q_.Multiply(x, out);
  } else {
    DenseProduct(dense_Q_, x, small_, out);
  }
}

double BlockNormalMatrix::MaxAbsDiagonal() const {
  double largest = 0.0;
  if (!sparse_) return n_ > 0 ? dense_normal_.diagonal().cwiseAbs().maxCoeff() : 0.0;
  for (const int index : diagonal_position_) {
    largest = std::max(largest, std::abs(sparse_normal_.valuePtr()[index]));
  }
  return largest;
}

void BlockNormalMatrix::ToDense(Eigen::MatrixXd* out) const {
  if (!sparse_) {  // the lower triangle is N's (the block form fills no other)
    *out = dense_normal_.selfadjointView<Eigen::Lower>();
    return;
  }
  out->setZero(n_, n_);
  for (int col = 0; col < sparse_normal_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_normal_, col); it; ++it) {
      (*out)(it.row(), col) = it.value();
      (*out)(col, it.row()) = it.value();
    }
  }
}

}  // namespace quasidyn
