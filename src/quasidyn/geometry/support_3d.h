#pragma once
// Support points and support features of the bounded 3D shapes of model/shape.h.
//
// The support value of a shape in a world direction u is h(u) = max over the shape of u·p
// (the support function of convex analysis, e.g. Ericson, Real-Time Collision Detection,
// 2005, §3.9 and §9.5). The support point attains it; the support feature is the set of
// surface points whose u·p lies within a band of h(u): one vertex, an edge, a face, or for
// curved shapes a few surface samples.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <cstddef>
#include <vector>

#include "quasidyn/model/shape.h"

namespace quasidyn {

// Two support values closer than this count as a tie [m]. Far below any physical
// tolerance, far above rounding errors of shapes of metre size.
inline constexpr double kSupportTieBand = 1e-10;

// Number of samples on each end rim of a cylinder in a support feature (see
// SupportFeature3d for why 8).
inline constexpr int kCylinderRimSamples = 8;

// The point of `shape` posed at X_WS (shape frame S in world) that maximises u·p, for a
// world direction u = direction_W (any non-zero length; it is normalised). When a whole
// edge or face ties (within kSupportTieBand), returns the centre of the tied set, e.g. the
// centre of a box face or of a cylinder's end disc, so the answer does not jump between
// corners. Throws std::invalid_argument for a half-space (unbounded) or a zero direction.
Eigen::Vector3d SupportPoint3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                               const Eigen::Vector3d& direction_W);

// The surface points of `shape` whose u·p >= h(u) − band, band [m] >= 0, in world
// coordinates, unordered, without duplicates:
//   sphere    the single support point;
//   box       the box corners in the band;
//   convex    the hull vertices in the band;
//   capsule   the end points of the core segment in the band, pushed out by r along u;
//   cylinder  the exact support point(s) (both ends of the side line when the axis is
//             perpendicular to u), plus those of kCylinderRimSamples = 8 evenly spaced
//             samples on each end rim that are in the band. Eight samples make an octagon
//             whose edges lie at most r (1 − cos 22.5°) = 0.076 r inside the true rim, so a
//             cylinder standing on its end is supported against tipping in every direction,
//             and 8 is also the manifold's point cap (manifold_3d.h).
// Throws std::invalid_argument for a half-space, a zero direction or a negative band.
std::vector<Eigen::Vector3d> SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                                              const Eigen::Vector3d& direction_W, double band);

// A sequence with room for N elements inside the object, so the hot geometry helpers do not
// touch the heap for the usual sizes (a box face has 4 corners, a clipped polygon a few
// more); past N it moves its elements to a std::vector and keeps going, so any size works.
// Not copyable or movable (nothing here needs it).
template <typename T, std::size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(const SmallVector&) = delete;
  SmallVector& operator=(const SmallVector&) = delete;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return spilled_ ? heap_.data() : inline_.data(); }
  const T* data() const { return spilled_ ? heap_.data() : inline_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void clear() {
    heap_.clear();
    spilled_ = false;
    size_ = 0;
  }
  // `value` must not be an element of this sequence.
  void push_back(const T& value) {
    if (!spilled_ && size_ < N) {
      inline_[size_++] = value;
      return;
    }
    Spill();
    heap_.push_back(value);
    ++size_;
  }
  // New elements (when growing) are value-initialised only on the heap path; callers
  // write every element they read.
  void resize(std::size_t count) {
    if (!spilled_ && count <= N) {
      size_ = count;
      return;
    }
    Spill();
    heap_.resize(count);
    size_ = count;
  }

 private:
  void Spill() {
    if (spilled_) return;
    heap_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
    spilled_ = true;
  }

  std::array<T, N> inline_;
  std::vector<T> heap_;
  std::size_t size_ = 0;
  bool spilled_ = false;
};

// Room for the largest built-in support feature (a cylinder: 2 + 2·8 candidates) and a
// clipped box face (4 + 4 points) without heap allocation.
inline constexpr std::size_t kInlinePoints = 2 + 2 * kCylinderRimSamples;
using PointList = SmallVector<Eigen::Vector3d, kInlinePoints>;

// As SupportFeature3d above, written into `feature` (cleared first; same points, same
// order). The allocation-free form used by the contact manifold (manifold_3d.cc).
void SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                      const Eigen::Vector3d& direction_W, double band, PointList* feature);

// The 8 corners of a box of full side lengths `size` [m], in its own frame.
std::vector<Eigen::Vector3d> BoxCorners(const Eigen::Vector3d& size);

}  // namespace quasidyn
