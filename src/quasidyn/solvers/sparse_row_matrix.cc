#include "quasidyn/solvers/sparse_row_matrix.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "quasidyn/common/all_finite.h"
#include "quasidyn/common/argument_check.h"

namespace quasidyn {

SparseRowMatrix SparseRowMatrix::FromDense(const Eigen::Ref<const Eigen::MatrixXd>& dense) {
  SparseRowMatrix out(static_cast<int>(dense.cols()));
  for (Eigen::Index r = 0; r < dense.rows(); ++r) {
    out.AppendRow();
    for (Eigen::Index c = 0; c < dense.cols(); ++c)
      out.AppendNonZero(static_cast<int>(c), dense(r, c));
  }
  return out;
}

void SparseRowMatrix::Reset(int cols) {
  QUASIDYN_CHECK_ARGUMENT(cols >= 0, "SparseRowMatrix::Reset", "cols must be >= 0");
  cols_ = cols;
  row_start_.resize(1);
  row_start_[0] = 0;
  column_.clear();
  value_.clear();
}

void SparseRowMatrix::AppendRows(const SparseRowMatrix& other) {
  QUASIDYN_CHECK_ARGUMENT(other.cols_ == cols_, "SparseRowMatrix::AppendRows",
                          "the matrices have " + std::to_string(cols_) + " and " +
                              std::to_string(other.cols_) + " columns");
  const int offset = static_cast<int>(column_.size());
  column_.insert(column_.end(), other.column_.begin(), other.column_.end());
  value_.insert(value_.end(), other.value_.begin(), other.value_.end());
  for (int r = 0; r < other.rows(); ++r) row_start_.push_back(offset + other.row_start_[r + 1]);
}

bool SparseRowMatrix::SamePattern(const SparseRowMatrix& other) const {
  return cols_ == other.cols_ && row_start_ == other.row_start_ && column_ == other.column_;
}

bool SparseRowMatrix::AllFinite() const {
  return quasidyn::AllFinite(value_.data(), static_cast<std::ptrdiff_t>(value_.size()));
}

void SparseRowMatrix::Multiply(const Eigen::VectorXd& x, Eigen::VectorXd* y) const {
  if (y->size() != rows()) y->resize(rows());
  for (int r = 0; r < rows(); ++r) {
    double sum = 0.0;
    for (int k = row_start_[r]; k < row_start_[r + 1]; ++k) sum += value_[k] * x[column_[k]];
    (*y)[r] = sum;
  }
}

void SparseRowMatrix::MultiplyTranspose(const Eigen::VectorXd& x, Eigen::VectorXd* y) const {
  if (y->size() != cols_) y->resize(cols_);
  y->setZero();
  MultiplyTransposeAdd(x, y);
}

void SparseRowMatrix::MultiplyTransposeAdd(const Eigen::VectorXd& x, Eigen::VectorXd* y) const {
  for (int r = 0; r < rows(); ++r) {
    const double xr = x[r];
    for (int k = row_start_[r]; k < row_start_[r + 1]; ++k) (*y)[column_[k]] += value_[k] * xr;
  }
}

void SparseRowMatrix::MultiplyBoth(const Eigen::VectorXd& x, Eigen::VectorXd* Ax,
                                   const Eigen::VectorXd& y, Eigen::VectorXd* Aty) const {
  if (Ax->size() != rows()) Ax->resize(rows());
  if (Aty->size() != cols_) Aty->resize(cols_);
  Aty->setZero();
  const int* column = column_.data();
  const double* value = value_.data();
  for (int r = 0; r < rows(); ++r) {
    const double yr = y[r];
    double sum = 0.0;
    for (int k = row_start_[r]; k < row_start_[r + 1]; ++k) {
      sum += value[k] * x[column[k]];
      (*Aty)[column[k]] += value[k] * yr;
    }
    (*Ax)[r] = sum;
  }
}

SparseRowMatrix::View SparseRowMatrix::AsEigen() const {
  return View(rows(), cols_, nonZeros(), row_start_.data(), column_.data(), value_.data());
}

void SparseRowMatrix::ToDense(Eigen::MatrixXd* out) const {
  out->setZero(rows(), cols_);
  for (int r = 0; r < rows(); ++r)
    for (int k = row_start_[r]; k < row_start_[r + 1]; ++k) (*out)(r, column_[k]) = value_[k];
}

Eigen::MatrixXd SparseRowMatrix::ToDense() const {
  Eigen::MatrixXd out;
  ToDense(&out);
  return out;
}

void CheckShape(std::string_view where, std::string_view name, const SparseRowMatrix& M, int rows,
                int cols) {
  if (M.rows() == rows && M.cols() == cols) return;
  ThrowInvalidArgument(where, std::string(name) + " is " + std::to_string(M.rows()) + " × " +
                                  std::to_string(M.cols()) + ", expected " + std::to_string(rows) +
                                  " × " + std::to_string(cols));
}

void CheckFinite(std::string_view where, std::string_view name, const SparseRowMatrix& M) {
  for (int r = 0; r < M.rows(); ++r)
    for (int k = M.row_start(r); k < M.row_start(r + 1); ++k)
      if (!std::isfinite(M.value(k)))
        ThrowInvalidArgument(where, std::string(name) + "(" + std::to_string(r) + ", " +
                                        std::to_string(M.column(k)) + ") is not finite (" +
                                        NumberText(M.value(k)) + ")");
}

}  // namespace quasidyn
