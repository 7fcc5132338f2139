#include "quasidyn/solvers/block_normal_matrix.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/solvers/sparse_pattern.h"

namespace quasidyn {

void BlockNormalMatrix::Setup(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& A,
                              const std::vector<int>& offset, const std::vector<int>& dim,
                              const SparsePathRule& rule) {
  n_ = Q.rows();
  offset_ = offset;
  dim_ = dim;
  sparse_ = n_ >= rule.min_variables && ConvertToSparse(Q, A, rule.max_density);
  if (!sparse_) {
    dense_Q_ = &Q;
    dense_A_ = &A;
    scaled_A_.resize(A.rows(), n_);
    dense_normal_.resize(n_, n_);
    return;
  }
  BuildSparse(A);
}

// Dense to compressed sparse by hand (Eigen's sparseView into the other storage order goes
// through a transposed temporary): count, then fill, reusing the scratch storage.
bool BlockNormalMatrix::ConvertToSparse(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& A,
                                        double max_density) {
  const Eigen::Index rows = A.rows(), n = Q.rows();
  row_count_.assign(rows, 0);
  Eigen::Index a_nonzeros = 0, q_nonzeros = 0;
  for (Eigen::Index c = 0; c < n; ++c) {
    const double* column = A.data() + c * rows;
    for (Eigen::Index r = 0; r < rows; ++r) {
      if (column[r] != 0.0) ++row_count_[r];
    }
    const double* q_column = Q.data() + c * n;
    for (Eigen::Index r = 0; r < n; ++r) q_nonzeros += q_column[r] != 0.0;
  }
  for (const int count : row_count_) a_nonzeros += count;
  const double entries = static_cast<double>(n * n + rows * n);
  if (static_cast<double>(a_nonzeros + q_nonzeros) > max_density * std::max(1.0, entries)) {
    return false;
  }
  new_A_.resize(rows, n);
  new_A_.resizeNonZeros(a_nonzeros);
  int* a_outer = new_A_.outerIndexPtr();
  a_outer[0] = 0;
  for (Eigen::Index r = 0; r < rows; ++r) a_outer[r + 1] = a_outer[r] + row_count_[r];
  row_count_.assign(a_outer, a_outer + rows);  // next free slot per row
  for (Eigen::Index c = 0; c < n; ++c) {
    const double* column = A.data() + c * rows;
    for (Eigen::Index r = 0; r < rows; ++r) {
      if (column[r] != 0.0) {
        const int slot = row_count_[r]++;
        new_A_.innerIndexPtr()[slot] = static_cast<int>(c);
        new_A_.valuePtr()[slot] = column[r];
      }
    }
  }
  new_Q_.resize(n, n);
  new_Q_.resizeNonZeros(q_nonzeros);
  int* q_outer = new_Q_.outerIndexPtr();
  q_outer[0] = 0;
  int slot = 0;
  for (Eigen::Index c = 0; c < n; ++c) {
    const double* column = Q.data() + c * n;
    for (Eigen::Index r = 0; r < n; ++r) {
      if (column[r] != 0.0) {
        new_Q_.innerIndexPtr()[slot] = static_cast<int>(r);
        new_Q_.valuePtr()[slot++] = column[r];
      }
    }
    q_outer[c + 1] = slot;
  }
  return true;
}

// The pattern of the lower triangle of N and where every contribution lands in it. When Q and
// A keep their sparsity patterns, only the values are refreshed and the symbolic analysis of
// SimplicialLDLT (ordering and elimination tree) is kept.
void BlockNormalMatrix::BuildSparse(const Eigen::MatrixXd& A) {
  const bool same_pattern = pattern_ready_ && dim_ == pattern_dim_ &&
                            SameSparsityPattern(new_A_, sparse_A_) &&
                            SameSparsityPattern(new_Q_, sparse_Q_);
  std::swap(new_A_, sparse_A_);
  std::swap(new_Q_, sparse_Q_);

  q_value_.clear();
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) q_value_.push_back(it.value());
    }
  }
  // Per block: the sorted union of the columns its rows touch, and A_k on those columns.
  using RowIterator = Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator;
  block_column_begin_.assign(1, 0);
  block_value_begin_.assign(1, 0);
  block_columns_.clear();
  block_values_.clear();
  int max_dim = 1, max_columns = 1;
  for (size_t k = 0; k < dim_.size(); ++k) {
    const int begin = static_cast<int>(block_columns_.size());
    for (int r = offset_[k]; r < offset_[k] + dim_[k]; ++r) {
      for (RowIterator it(sparse_A_, r); it; ++it) block_columns_.push_back(it.col());
    }
    if (dim_[k] > 1) {
      std::sort(block_columns_.begin() + begin, block_columns_.end());
      block_columns_.erase(std::unique(block_columns_.begin() + begin, block_columns_.end()),
                           block_columns_.end());
    }
    const int columns = static_cast<int>(block_columns_.size()) - begin;
    block_column_begin_.push_back(static_cast<int>(block_columns_.size()));
    for (int j = 0; j < columns; ++j) {
      for (int r = offset_[k]; r < offset_[k] + dim_[k]; ++r) {
        block_values_.push_back(A(r, block_columns_[begin + j]));
      }
    }
    block_value_begin_.push_back(static_cast<int>(block_values_.size()));
    max_dim = std::max(max_dim, dim_[k]);
    max_columns = std::max(max_columns, columns);
  }
  weighted_block_.resize(static_cast<size_t>(max_dim) * max_columns);
  if (same_pattern) return;

  const int n = static_cast<int>(n_);
  std::vector<Eigen::Triplet<double>> pattern;
  for (int j = 0; j < n; ++j) pattern.emplace_back(j, j, 0.0);
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) pattern.emplace_back(static_cast<int>(it.row()), col, 0.0);
    }
  }
  for (size_t k = 0; k < dim_.size(); ++k) {
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        pattern.emplace_back(block_columns_[i], block_columns_[j], 0.0);
      }
    }
  }
  sparse_normal_.resize(n, n);
  sparse_normal_.setFromTriplets(pattern.begin(), pattern.end());
  sparse_normal_.makeCompressed();
  const auto position = [this](int row, int col) {
    const int* inner = sparse_normal_.innerIndexPtr();
    const int* begin = inner + sparse_normal_.outerIndexPtr()[col];
    const int* end = inner + sparse_normal_.outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, row) - inner);
  };
  diagonal_position_.resize(n);
  for (int j = 0; j < n; ++j) diagonal_position_[j] = position(j, j);
  q_position_.clear();
  for (int col = 0; col < sparse_Q_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_Q_, col); it; ++it) {
      if (it.row() >= col) q_position_.push_back(position(static_cast<int>(it.row()), col));
    }
  }
  pair_position_.clear();
  for (size_t k = 0; k < dim_.size(); ++k) {
    for (int j = block_column_begin_[k]; j < block_column_begin_[k + 1]; ++j) {
      for (int i = j; i < block_column_begin_[k + 1]; ++i) {
        pair_position_.push_back(position(block_columns_[i], block_columns_[j]));
      }
    }
  }
  sparse_factor_.analyzePattern(sparse_normal_);
  pattern_dim_ = dim_;
  pattern_ready_ = true;
}

void BlockNormalMatrix::Assemble(const Eigen::MatrixXd& weights, double regularization) {
  if (!sparse_) {
    const Eigen::MatrixXd& A = *dense_A_;
    for (size_t k = 0; k < dim_.size(); ++k) {
      const int o = offset_[k], m = dim_[k];
      if (m == 1) {
        scaled_A_.row(o) = weights(o, 0) * A.row(o);
      } else {
        scaled_A_.middleRows(o, m).noalias() = weights.block(o, 0, m, m) * A.middleRows(o, m);
      }
    }
    dense_normal_ = *dense_Q_;
    dense_normal_.noalias() += A.transpose() * scaled_A_;
    dense_normal_.diagonal().array() += regularization;
    return;
  }
  double* values = sparse_normal_.valuePtr();
  std::fill(values, values + sparse_normal_.nonZeros(), 0.0);
  for (size_t e = 0; e < q_position_.size(); ++e) values[q_position_[e]] += q_value_[e];
  for (const int index : diagonal_position_) values[index] += regularization;
  // Block k adds A_kᵀ M_k A_k on its columns: entry (i, j) = (A_k e_i)ᵀ (M_k A_k e_j). Plain
  // loops: the blocks are tiny (m_k <= 3 for contacts), below the sizes where Eigen's
  // products pay for their dispatch.
  const int* pair = pair_position_.data();
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
}

bool BlockNormalMatrix::Factorize() {
  if (!sparse_) {
    if (!dense_normal_.allFinite()) return false;
    dense_factor_.compute(dense_normal_);
    return dense_factor_.info() == Eigen::Success;
  }
  const Eigen::Map<const Eigen::VectorXd> values(sparse_normal_.valuePtr(),
                                                 sparse_normal_.nonZeros());
  if (!values.allFinite()) return false;
  sparse_factor_.factorize(sparse_normal_);
  return sparse_factor_.info() == Eigen::Success && sparse_factor_.vectorD().minCoeff() > 0.0;
}

void BlockNormalMatrix::Solve(const Eigen::VectorXd& rhs, Eigen::VectorXd& out) {
  if (sparse_) {
    out = sparse_factor_.solve(rhs);
  } else {
    out = dense_factor_.solve(rhs);
  }
}

void BlockNormalMatrix::MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  if (sparse_) {
    out.noalias() = sparse_A_ * x;
  } else {
    out.noalias() = *dense_A_ * x;
  }
}

void BlockNormalMatrix::MultiplyAt(const Eigen::VectorXd& y, Eigen::VectorXd& out) const {
  if (sparse_) {
    out.noalias() = sparse_A_.transpose() * y;
  } else {
    out.noalias() = dense_A_->transpose() * y;
  }
}

void BlockNormalMatrix::MultiplyQ(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  if (sparse_) {
    out.noalias() = sparse_Q_ * x;
  } else {
    out.noalias() = *dense_Q_ * x;
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

void BlockNormalMatrix::ToDense(Eigen::MatrixXd& out) const {
  if (!sparse_) {
    out = dense_normal_;
    return;
  }
  out.setZero(n_, n_);
  for (int col = 0; col < sparse_normal_.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_normal_, col); it; ++it) {
      out(it.row(), col) = it.value();
      out(col, it.row()) = it.value();
    }
  }
}

}  // namespace quasidyn
