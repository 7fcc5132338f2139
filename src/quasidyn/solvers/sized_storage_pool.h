#pragma once
// Storage kept across size changes for Eigen's dynamic vectors and matrices, which free and
// allocate whenever their number of entries changes (they keep no capacity). A solver whose row
// count moves between a few values (a planar hand's QP: 2, 4 or 6 rows as the fingertips leave
// the ball and come back) resizes its row-sized buffers through a pool: the storage of the old
// size is kept as a spare, and a spare of the new size, when there is one, is swapped in, so
// once every size has been met a resize allocates nothing.
//
// Bounds (so that a large scene whose row count keeps changing does not hoard memory): at most
// kMaxSpares spares of each kind and kMaxSpareEntries entries (doubles) in all the spares of a
// kind, the oldest spares given back first; a buffer larger than kMaxSpareEntries is freed, not
// kept. Not from any paper; ours: 64 spares, 16384 doubles (128 KiB) per kind, sized by the
// arm_cubes grasp (examples/arm_cubes), whose fullest pool holds 36 spares and 6240 doubles
// along 50 steps (its buffers take many sizes while its contact count barely moves). The
// earlier 32 spares and 4096 doubles missed 10 of those sizes per 50 QP steps
// (formulations/arm_cubes_rollout_allocation_test.cc). A resize scans the spares of its kind:
// callgrind counted no more instructions per arm step with the larger bounds
// (docs/performance.md).
//
// Resize leaves the entries unspecified (as Eigen's resize); the caller fills them.

#include <Eigen/Core>
#include <utility>
#include <vector>

namespace quasidyn {

class SizedStoragePool {
 public:
  static constexpr int kMaxSpares = 64;
  static constexpr Eigen::Index kMaxSpareEntries = 16384;

  SizedStoragePool() {
    vectors_.reserve(kMaxSpares + 1);
    matrices_.reserve(kMaxSpares + 1);
  }
  // A copy starts with no spares (they are storage, not state).
  SizedStoragePool(const SizedStoragePool&) : SizedStoragePool() {}
  SizedStoragePool& operator=(const SizedStoragePool&) { return *this; }

  // *v to `size` entries (>= 0).
  void Resize(Eigen::VectorXd* v, Eigen::Index size) {
    if (v->size() != size) Swap(&vectors_, v, size, [&] { v->resize(size); });
  }
  // *M to rows × cols (>= 0); a spare of rows · cols entries serves any shape.
  void Resize(Eigen::MatrixXd* M, Eigen::Index rows, Eigen::Index cols) {
    if (M->rows() == rows && M->cols() == cols) return;
    Swap(&matrices_, M, rows * cols, [&] { M->resize(rows, cols); });
    M->resize(rows, cols);  // same number of entries as the spare: no allocation
  }

 private:
  // Keeps x's storage as a spare and takes one of `entries` entries (or makes one by `make`).
  template <typename Storage, typename Make>
  static void Swap(std::vector<Storage>* spares, Storage* x, Eigen::Index entries,
                   const Make& make) {
    for (size_t k = 0; k < spares->size(); ++k) {
      Storage& spare = (*spares)[k];
      if (spare.size() != entries) continue;
      x->swap(spare);
      if (spare.size() == 0 || spare.size() > kMaxSpareEntries)
        spares->erase(spares->begin() + static_cast<std::ptrdiff_t>(k));
      Trim(spares);
      return;
    }
    if (x->size() > 0 && x->size() <= kMaxSpareEntries) {
      spares->push_back(Storage());
      spares->back().swap(*x);
      Trim(spares);
    }
    make();
  }

  // Gives back the oldest spares beyond the bounds.
  template <typename Storage>
  static void Trim(std::vector<Storage>* spares) {
    Eigen::Index entries = 0;
    for (const Storage& spare : *spares) entries += spare.size();
    while (!spares->empty() &&
           (static_cast<int>(spares->size()) > kMaxSpares || entries > kMaxSpareEntries)) {
      entries -= spares->front().size();
      spares->erase(spares->begin());
    }
  }

  std::vector<Eigen::VectorXd> vectors_;
  std::vector<Eigen::MatrixXd> matrices_;
};

// *v to `size` entries through `pool`, or by Eigen's resize when pool is null: for a problem
// builder whose caller may or may not keep spares.
inline void ResizeThrough(SizedStoragePool* pool, Eigen::VectorXd* v, Eigen::Index size) {
  if (pool != nullptr)
    pool->Resize(v, size);
  else
    v->resize(size);
}

}  // namespace quasidyn
