#pragma once
// Storage that only grows, for buffers too large for a SizedStoragePool (its spares hold at most
// 16384 doubles a kind) whose sizes move from call to call: Lemke's n × n matrices, the
// quasistatic LCP's M (n_z × n_z, n_z = 306–336 on the arm_cubes grasp) and its n_v × n_z maps.
// Each buffer is an Eigen::Map onto one aligned array; Seat lays the maps out again for new
// sizes, growing the array only when the layout needs more than it holds, so once the largest
// layout has been met a Seat allocates nothing. Not from any paper.
//
// The entries after a Seat are unspecified (as after Eigen's resize): the caller fills them.
// A map is re-seated by placement new, Eigen's documented way to point a Map at another array.
// Not copyable: the maps point into the storage of the object that seated them.

#include <Eigen/Core>
#include <initializer_list>
#include <new>
#include <vector>

namespace quasidyn {

class ViewStorage {
 public:
  using MatrixView = Eigen::Map<Eigen::MatrixXd, Eigen::Aligned16>;
  using VectorView = Eigen::Map<Eigen::VectorXd, Eigen::Aligned16>;
  struct MatrixSeat {
    MatrixView* view;
    Eigen::Index rows, cols;  // >= 0
  };
  struct VectorSeat {
    VectorView* view;
    Eigen::Index size;  // >= 0
  };

  ViewStorage() = default;
  ViewStorage(const ViewStorage&) = delete;
  ViewStorage& operator=(const ViewStorage&) = delete;

  // Points every view at its own part of the storage, with its size; each part starts at an
  // even offset (16-byte aligned, as Eigen's own allocations). Every view seated before is
  // invalidated.
  void Seat(std::initializer_list<MatrixSeat> matrices, std::initializer_list<VectorSeat> vectors) {
    std::size_t needed = 0;
    for (const MatrixSeat& m : matrices) needed += Even(m.rows * m.cols);
    for (const VectorSeat& v : vectors) needed += Even(v.size);
    if (storage_.size() < needed) storage_.resize(needed);
    double* next = storage_.data();
    for (const MatrixSeat& m : matrices) {
      new (m.view) MatrixView(next, m.rows, m.cols);
      next += Even(m.rows * m.cols);
    }
    for (const VectorSeat& v : vectors) {
      new (v.view) VectorView(next, v.size);
      next += Even(v.size);
    }
  }

  // Doubles held (the largest layout met).
  std::size_t capacity() const { return storage_.size(); }

 private:
  static std::size_t Even(Eigen::Index entries) {
    return (static_cast<std::size_t>(entries) + 1) / 2 * 2;
  }

  std::vector<double, Eigen::aligned_allocator<double>> storage_;
};

}  // namespace quasidyn
