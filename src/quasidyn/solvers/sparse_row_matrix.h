#pragma once
// A sparse matrix in compressed sparse row form (CSR) whose storage is kept when it is
// refilled: the problem data of every solver in this folder (QP, SOCP and log-barrier rows,
// cost Hessians). A time step rebuilds its matrices each step with the same or a similar
// pattern, so after the first steps a refill does not allocate.
//
// Layout: row r holds the entries k = row_start(r) … row_start(r + 1) − 1, with columns
// column(k) strictly increasing and values value(k). Only the entries appended are stored;
// a builder that wants the pattern of a dense matrix's non-zeros (as Eigen's sparseView) calls
// AppendNonZero, which skips exact zeros.

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string_view>
#include <vector>

namespace quasidyn {

class SparseRowMatrix {
 public:
  using View = Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, int>>;

  SparseRowMatrix() = default;
  explicit SparseRowMatrix(int cols) { Reset(cols); }

  // The non-zeros of `dense` (exact zeros dropped), row by row.
  static SparseRowMatrix FromDense(const Eigen::Ref<const Eigen::MatrixXd>& dense);

  // Empties the matrix (0 rows, `cols` >= 0 columns), keeping its storage.
  void Reset(int cols);
  // Starts a new, empty row at the bottom.
  void AppendRow() { row_start_.push_back(static_cast<int>(column_.size())); }
  // Adds entry (last row, col) = value; columns must increase within a row (checked in
  // debug builds only: this is on the hot path of every step).
  void Append(int col, double value) {
    column_.push_back(col);
    value_.push_back(value);
    row_start_.back() = static_cast<int>(column_.size());
  }
  void AppendNonZero(int col, double value) {
    if (value != 0.0) Append(col, value);
  }
  // Appends every row of `other` (same number of columns) below the rows of this matrix.
  void AppendRows(const SparseRowMatrix& other);

  int rows() const { return static_cast<int>(row_start_.size()) - 1; }
  int cols() const { return cols_; }
  int nonZeros() const { return static_cast<int>(column_.size()); }

  int row_start(int r) const { return row_start_[r]; }
  int column(int k) const { return column_[k]; }
  double value(int k) const { return value_[k]; }
  double& value(int k) { return value_[k]; }
  const int* row_start_data() const { return row_start_.data(); }
  const int* column_data() const { return column_.data(); }
  const double* value_data() const { return value_.data(); }
  double* value_data() { return value_.data(); }

  // True when both have the same shape, row starts and columns (values ignored).
  bool SamePattern(const SparseRowMatrix& other) const;
  // True when every stored value is finite.
  bool AllFinite() const;

  // y = A x (x of size cols(), y resized to rows()), y = Aᵀ x (x of size rows(), y resized to
  // cols()). Each output entry is summed in storage order; no allocation when y has its size.
  void Multiply(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  void MultiplyTranspose(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  // y += Aᵀ x, each product added to y's entry in storage order (y of size cols()).
  void MultiplyTransposeAdd(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  // Ax = A x and Aty = Aᵀ y in one pass over the entries (Ax, Aty resized); bitwise the results
  // of Multiply and MultiplyTranspose.
  void MultiplyBoth(const Eigen::VectorXd& x, Eigen::VectorXd* Ax, const Eigen::VectorXd& y,
                    Eigen::VectorXd* Aty) const;

  // An Eigen view of the stored entries (valid until the next change of this matrix).
  View AsEigen() const;
  // The dense matrix (rows() × cols()), into `out` (resized; no allocation at its size).
  void ToDense(Eigen::MatrixXd* out) const;
  Eigen::MatrixXd ToDense() const;

 private:
  int cols_ = 0;
  std::vector<int> row_start_{0};  // rows() + 1 entries
  std::vector<int> column_;
  std::vector<double> value_;
};

// Argument checks of the solvers' problem data (std::invalid_argument "<where>: ..."): the
// shape rows × cols, and every stored value finite.
void CheckShape(std::string_view where, std::string_view name, const SparseRowMatrix& M, int rows,
                int cols);
void CheckFinite(std::string_view where, std::string_view name, const SparseRowMatrix& M);

}  // namespace quasidyn
