#pragma once
// Nearest-node queries of RRT through contact (rrt.h) that stay sub-linear in the tree size and
// return exactly what a scan of every node returns (issue 39, "nearest-node queries that stay
// sub-linear in the tree size").
//
// The reachability metric d_i(q) = ½ (q ⊖ μ_i)ᵀ Σ_i⁻¹ (q ⊖ μ_i), Σ_i = B_i B_iᵀ + λ I
// (reachability_metric.h), is a different quadratic form per node, so no single metric tree
// holds it. Each node instead gives a key k_i (μ_i, or the node's q for the Euclidean rule) and a
// scale c_i > 0 with
//
//   d_i(q) >= ½ c_i ‖q ⊖ k_i‖²   for every q                                                  (1)
//
// (for the metric c_i = λ_min(Σ_i⁻¹) = 1 / (σ_max(B_i)² + λ), Rayleigh quotient; for the
// Euclidean rule ½ ‖q ⊖ q_i‖² itself, c_i = 1). The index embeds the object configuration in a
// Euclidean space E and bounds ‖q ⊖ k‖ from below by distances in E:
//   * positions as themselves (their difference is the tangent one);
//   * a planar angle θ as (cos θ, sin θ): the chord 2 |sin(Δθ/2)| gives |wrap(Δθ)| = 2
//   asin(chord/2);
//   * a quaternion Q (normalised) as 2 Q: ‖2 Q_a − 2 Q_b‖ = 4 sin(θ/4) gives θ = 4 asin(chord/4),
//     the angle of the shorter rotation, for the sign of Q_b nearer Q_a (Q and −Q are one
//     rotation: the bound takes the smaller of the two signs, per object).
// For one key this is ‖q ⊖ k‖ itself; for a box of keys the chord to the box is no longer than
// to any key in it, and the angle grows with the chord, so it bounds every key in the box.
// A kd-tree over the z(k_i) with each subtree's bounding box and its least c then bounds every
// node below it by ½ c_min · (that bound)² (from (1)). The search opens subtrees best first (least
// bound first) and stops when the least bound left exceeds the best distance found; a subtree or
// node whose bound exceeds it is never evaluated, so the answer equals the scan's, ties included
// (the least node id among equal distances, as a scan in id order keeps the first).
//
// How much it prunes depends on how tight (1) is: on nodes whose B is far from isotropic (a hand
// that turns the ball easily about one axis and not at all about another) ½ c_i ‖e‖² is far below
// d_i, and the search evaluates a larger share of the tree (docs/planning.md, "Nearest-node
// search").
//
// Rounding: the bounds are shrunk by a relative 1e-9 and the rotation chords by 1e-13 rad (the
// distance and the embedding round differently: ~1e-15 relative and absolute, for a few dozen
// operations), so a bound never exceeds a distance it should equal.
//
// Inserts interleave with queries (the tree grows during the search): the logarithmic method of
// static trees (Bentley & Saxe, "Decomposable searching problems I", J. Algorithms 1(4), 1980):
// the newest nodes in a buffer of 32 checked first with the per-node bound (1), the others in
// balanced static kd-trees of 32·2^k nodes (median splits on the widest box side, leaves of 8), at
// most one per k, merged like a binary counter: an insert costs O(log² N) amortised, a query
// searches O(log N) trees.

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/reachability_metric.h"

namespace quasidyn {

class NearestNodeIndex {
 public:
  // For the objects of `space` (copied: the index does not keep a reference).
  explicit NearestNodeIndex(const ObjectSpace& space);
  ~NearestNodeIndex();
  NearestNodeIndex(NearestNodeIndex&&) noexcept;
  NearestNodeIndex& operator=(NearestNodeIndex&&) noexcept;

  // Adds node `id` (>= 0) with its key (size >= n_q,u; the object part is read) and its bound
  // scale c > 0 of (1). Throws std::invalid_argument for a negative id, a short or non-finite key,
  // or c not finite and > 0.
  void Insert(int id, const Eigen::Ref<const Eigen::VectorXd>& key, double bound_scale);

  struct Nearest {
    int id = -1;  // -1: no node, or every distance infinite or NaN (as a scan finds none)
    double distance = std::numeric_limits<double>::infinity();
  };

  // The node of least distance(id) to q (size >= n_q,u), the least id among equal distances.
  // `distance` must satisfy (1) for the keys and scales inserted; it is called for the nodes the
  // bounds do not exclude only.
  Nearest Find(const Eigen::Ref<const Eigen::VectorXd>& q,
               const std::function<double(int)>& distance) const;

  int size() const { return size_; }

  // Counts since construction (what a query costs): distance calls and nodes inserted.
  long long distance_calls() const { return distance_calls_; }

 private:
  struct Tree;
  struct Query;
  double NodeBound(const Tree& tree, int node, const Query& query) const;
  void SearchLeaf(const Tree& tree, int node, Query* query) const;
  void Embed(const Eigen::Ref<const Eigen::VectorXd>& q, double* z) const;
  double BoundSquared(const double* z, const double* lo, const double* hi) const;

  std::vector<ObjectSpace::Block> blocks_;
  int nq_u_ = 0;
  int plain_size_ = 0;   // coordinates compared directly: positions
  int angle_pairs_ = 0;  // planar angles as (cos, sin)
  int quaternions_ = 0;  // floating orientations as 2 Q
  int dimension_ = 0;    // plain_size_ + 2 angle_pairs_ + 4 quaternions_
  int size_ = 0;
  std::vector<double> buffer_z_;  // the newest nodes, unsorted
  std::vector<double> buffer_scale_;
  std::vector<int> buffer_id_;
  std::vector<std::unique_ptr<Tree>> trees_;  // trees_[k]: 32·2^k nodes, or null
  mutable long long distance_calls_ = 0;
};

// c of (1) for a node of the reachability metric: 1 / λ_max(B Bᵀ + λ I) (B the metric's tangent
// rows, λ its regularisation), times the square of the least tangent weight when the metric
// weighs the difference (e = W (q ⊖ μ): ‖e‖ >= w_min ‖q ⊖ μ‖).
double ReachabilityBoundScale(const NodeReachability& node);

}  // namespace quasidyn
