#pragma once
// A dense column-major matrix of doubles that keeps the storage of its largest shape. Eigen's
// dynamic matrices free and allocate whenever their number of entries changes, so a buffer
// whose shape follows the step's active set (a block of the range-space solve,
// range_space_kkt.h) would allocate in every call whose active rows differ from the last
// call's. Resize grows the storage only beyond its largest use so far and never gives it back;
// the entries after a resize are unspecified (as Eigen's resize). view() is an Eigen::Map of
// the current shape on storage aligned as Eigen's own matrices, so Eigen's kernels run on it
// as on a MatrixXd.
//
// Beside solvers/sized_storage_pool.h, which keeps a bounded set of spare Eigen matrices of
// exact sizes for buffers whose size moves among a few values (64 spares, 16384 doubles): a
// block's buffers here take any shape from one call to the next and can exceed that bound on
// a large scene (the arm's blocks), so they keep one storage of their largest use instead.

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace quasidyn {

class KeptCapacityMatrix {
 public:
  using View = Eigen::Map<Eigen::MatrixXd, Eigen::Aligned16>;
  using ConstView = Eigen::Map<const Eigen::MatrixXd, Eigen::Aligned16>;

  // rows × cols (both >= 0), entries unspecified.
  void Resize(int rows, int cols) {
    const std::size_t entries = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    if (storage_.size() < entries) storage_.resize(entries);
    rows_ = rows;
    cols_ = cols;
  }
  // rows × cols of zeros.
  void SetZero(int rows, int cols) {
    Resize(rows, cols);
    for (std::size_t k = 0; k < size(); ++k) storage_[k] = 0.0;
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::size_t size() const { return static_cast<std::size_t>(rows_) * cols_; }
  double* data() { return storage_.data(); }
  const double* data() const { return storage_.data(); }
  double* col(int j) { return storage_.data() + static_cast<std::size_t>(j) * rows_; }
  const double* col(int j) const { return storage_.data() + static_cast<std::size_t>(j) * rows_; }
  double& operator()(int i, int j) { return col(j)[i]; }
  double operator()(int i, int j) const { return col(j)[i]; }

  View view() { return View(storage_.data(), rows_, cols_); }
  ConstView view() const { return ConstView(storage_.data(), rows_, cols_); }

 private:
  std::vector<double, Eigen::aligned_allocator<double>> storage_;
  int rows_ = 0, cols_ = 0;
};

}  // namespace quasidyn
