#include "quasidyn/planning/nearest_node_index.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/math/quaternion.h"

namespace quasidyn {
namespace {

constexpr int kBufferSize = 32;  // nodes scanned before they go into a tree
constexpr int kLeafSize = 8;     // nodes per kd-tree leaf
// A bound is multiplied by this before it is compared (see the header's "Rounding").
constexpr double kBoundShrink = 1.0 - 1e-9;
// [rad] subtracted from a rotation's chord in E (see the header's "Rounding").
constexpr double kChordSlack = 1e-13;

// The distance from x to the interval [lo, hi] (0 inside).
double IntervalGap(double x, double lo, double hi) {
  return x < lo ? lo - x : (x > hi ? x - hi : 0.0);
}

// The angle [rad] between two points of a circle from their chord, squared: a planar angle's
// (cos θ, sin θ) (radius 1) has the chord 2 sin(Δθ/2), so Δθ = 2 asin(chord/2); a rotation's
// 2 Q (radius 2 in R⁴) has ‖2 Q_a − 2 Q_b‖ = 4 sin(θ/4), so θ = 4 asin(chord/4) (`divisor` 2 or
// 4). The chord is first shrunk by kChordSlack. Increasing in the chord: a box's chord, no longer
// than any of its keys', gives no larger an angle.
double ShrunkAngleSquared(double chord_squared, double divisor) {
  const double chord = std::max(0.0, std::sqrt(chord_squared) - kChordSlack);
  const double angle = divisor * std::asin(std::min(1.0, chord / divisor));
  return angle * angle;
}

// The square of the least tangent weight of the node's metric (W's diagonal; empty means 1):
// ‖W e‖ >= w_min ‖e‖.
double LeastWeightSquared(const NodeReachability& node) {
  if (node.weights().size() == 0) return 1.0;
  const double least = node.weights().minCoeff();
  return least * least;
}

}  // namespace

// A static kd-tree: nodes in leaf order, each subtree a contiguous range.
struct NearestNodeIndex::Tree {
  struct Node {
    int begin = 0, end = 0;     // the range of points below
    int left = -1, right = -1;  // children (-1: a leaf)
    double least_scale = 0.0;   // min c over the range
  };
  std::vector<double> z;      // points × dimension, in leaf order
  std::vector<double> scale;  // c per point
  std::vector<int> id;        // node id per point
  std::vector<Node> nodes;    // nodes[0] is the root
  std::vector<double> boxes;  // per node: lo (dimension), then hi (dimension)
  int size() const { return static_cast<int>(id.size()); }
};

struct NearestNodeIndex::Query {
  std::vector<double> z;  // the query in E
  const std::function<double(int)>* distance = nullptr;
  Nearest best;

  void Consider(int id, double d) {
    // As a scan in id order: a strictly smaller distance, or an equal one with a smaller id.
    if (d < best.distance || (d == best.distance && best.id >= 0 && id < best.id)) {
      best.distance = d;
      best.id = id;
    }
  }
};

NearestNodeIndex::NearestNodeIndex(const ObjectSpace& space)
    : blocks_(space.blocks()), nq_u_(space.coordinate_size()) {
  for (const ObjectSpace::Block& block : blocks_) {
    if (block.floating) {
      plain_size_ += 3;
      ++quaternions_;
    } else {
      plain_size_ += 2;
      ++angle_pairs_;
    }
  }
  dimension_ = plain_size_ + 2 * angle_pairs_ + 4 * quaternions_;
}

NearestNodeIndex::~NearestNodeIndex() = default;
NearestNodeIndex::NearestNodeIndex(NearestNodeIndex&&) noexcept = default;
NearestNodeIndex& NearestNodeIndex::operator=(NearestNodeIndex&&) noexcept = default;

// z = (positions..., (cos θ, sin θ)..., 2 Q / ‖Q‖...).
void NearestNodeIndex::Embed(const Eigen::Ref<const Eigen::VectorXd>& q, double* z) const {
  int plain = 0;
  int pair = plain_size_;
  int quaternion = plain_size_ + 2 * angle_pairs_;
  for (const ObjectSpace::Block& block : blocks_) {
    const int s = block.q_start;
    if (block.floating) {
      for (int k = 0; k < 3; ++k) z[plain++] = q[s + k];
      const Eigen::Vector4d Q = NormalizeQuaternion(q.segment<4>(s + 3));
      for (int k = 0; k < 4; ++k) z[quaternion++] = 2.0 * Q[k];
    } else {
      for (int k = 0; k < 2; ++k) z[plain++] = q[s + k];
      z[pair++] = std::cos(q[s + 2]);
      z[pair++] = std::sin(q[s + 2]);
    }
  }
}

// A lower bound of ‖q ⊖ k‖² over the keys k whose z lies in the box [lo, hi] (lo = hi: one key).
double NearestNodeIndex::BoundSquared(const double* z, const double* lo, const double* hi) const {
  double sum = 0.0;
  int j = 0;
  for (; j < plain_size_; ++j) {
    const double gap = IntervalGap(z[j], lo[j], hi[j]);
    sum += gap * gap;
  }
  for (int p = 0; p < angle_pairs_; ++p, j += 2) {
    const double c = IntervalGap(z[j], lo[j], hi[j]);
    const double s = IntervalGap(z[j + 1], lo[j + 1], hi[j + 1]);
    sum += ShrunkAngleSquared(c * c + s * s, 2.0);
  }
  for (int r = 0; r < quaternions_; ++r, j += 4) {
    double same = 0.0, opposite = 0.0;  // the query's Q and −Q
    for (int k = j; k < j + 4; ++k) {
      const double a = IntervalGap(z[k], lo[k], hi[k]);
      const double b = IntervalGap(-z[k], lo[k], hi[k]);
      same += a * a;
      opposite += b * b;
    }
    sum += ShrunkAngleSquared(std::min(same, opposite), 4.0);
  }
  return sum;
}

void NearestNodeIndex::Insert(int id, const Eigen::Ref<const Eigen::VectorXd>& key,
                              double bound_scale) {
  const char* where = "NearestNodeIndex::Insert";
  QUASIDYN_CHECK_ARGUMENT(id >= 0, where, "id must be >= 0 (got " + std::to_string(id) + ")");
  QUASIDYN_CHECK_ARGUMENT(key.size() >= nq_u_, where,
                          "key has size " + std::to_string(key.size()) +
                              ", expected >= n_q,u = " + std::to_string(nq_u_));
  QUASIDYN_CHECK_ARGUMENT(key.head(nq_u_).allFinite(), where, "key has a non-finite entry");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(bound_scale) && bound_scale > 0, where,
                          "bound_scale must be finite and > 0");
  const size_t at = buffer_z_.size();
  buffer_z_.resize(at + dimension_);
  Embed(key, buffer_z_.data() + at);
  buffer_scale_.push_back(bound_scale);
  buffer_id_.push_back(id);
  ++size_;
  if (static_cast<int>(buffer_id_.size()) < kBufferSize) return;

  // A binary counter: the buffer and every tree below the first free level become one tree there.
  std::vector<double> z = std::move(buffer_z_);
  std::vector<double> scale = std::move(buffer_scale_);
  std::vector<int> ids = std::move(buffer_id_);
  buffer_z_.clear();
  buffer_scale_.clear();
  buffer_id_.clear();
  size_t level = 0;
  for (; level < trees_.size() && trees_[level]; ++level) {
    const Tree& tree = *trees_[level];
    z.insert(z.end(), tree.z.begin(), tree.z.end());
    scale.insert(scale.end(), tree.scale.begin(), tree.scale.end());
    ids.insert(ids.end(), tree.id.begin(), tree.id.end());
    trees_[level].reset();
  }
  if (level == trees_.size()) trees_.emplace_back();

  auto tree = std::make_unique<Tree>();
  const int count = static_cast<int>(ids.size());
  const int dim = dimension_;
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  // Builds the subtree over order[begin, end) and returns its node index.
  std::function<int(int, int)> build = [&](int begin, int end) -> int {
    const int index = static_cast<int>(tree->nodes.size());
    tree->nodes.emplace_back();
    tree->boxes.resize(tree->boxes.size() + 2 * dim);
    double* lo = tree->boxes.data() + 2 * dim * index;
    double* hi = lo + dim;
    std::fill(lo, lo + dim, std::numeric_limits<double>::infinity());
    std::fill(hi, hi + dim, -std::numeric_limits<double>::infinity());
    double least_scale = std::numeric_limits<double>::infinity();
    for (int i = begin; i < end; ++i) {
      const double* p = z.data() + static_cast<size_t>(dim) * order[i];
      for (int k = 0; k < dim; ++k) {
        lo[k] = std::min(lo[k], p[k]);
        hi[k] = std::max(hi[k], p[k]);
      }
      least_scale = std::min(least_scale, scale[order[i]]);
    }
    int widest = 0;
    for (int k = 1; k < dim; ++k)
      if (hi[k] - lo[k] > hi[widest] - lo[widest]) widest = k;
    int left = -1, right = -1;
    if (end - begin > kLeafSize) {
      const int middle = begin + (end - begin) / 2;
      std::nth_element(order.begin() + begin, order.begin() + middle, order.begin() + end,
                       [&](int a, int b) {
                         const double za = z[static_cast<size_t>(dim) * a + widest];
                         const double zb = z[static_cast<size_t>(dim) * b + widest];
                         return za < zb || (za == zb && a < b);
                       });
      left = build(begin, middle);
      right = build(middle, end);
    }
    Tree::Node& node = tree->nodes[index];
    node.begin = begin;
    node.end = end;
    node.left = left;
    node.right = right;
    node.least_scale = least_scale;
    return index;
  };
  build(0, count);
  tree->z.resize(static_cast<size_t>(dim) * count);
  tree->scale.resize(count);
  tree->id.resize(count);
  for (int i = 0; i < count; ++i) {
    std::copy_n(z.data() + static_cast<size_t>(dim) * order[i], dim,
                tree->z.data() + static_cast<size_t>(dim) * i);
    tree->scale[i] = scale[order[i]];
    tree->id[i] = ids[order[i]];
  }
  trees_[level] = std::move(tree);
}

double NearestNodeIndex::NodeBound(const Tree& tree, int index, const Query& query) const {
  const double* box = tree.boxes.data() + 2 * dimension_ * index;
  return kBoundShrink * 0.5 * tree.nodes[index].least_scale *
         BoundSquared(query.z.data(), box, box + dimension_);
}

void NearestNodeIndex::SearchLeaf(const Tree& tree, int index, Query* query) const {
  const Tree::Node& node = tree.nodes[index];
  for (int i = node.begin; i < node.end; ++i) {
    const double* p = tree.z.data() + static_cast<size_t>(dimension_) * i;
    if (kBoundShrink * 0.5 * tree.scale[i] * BoundSquared(query->z.data(), p, p) >
        query->best.distance)
      continue;
    ++distance_calls_;
    query->Consider(tree.id[i], (*query->distance)(tree.id[i]));
  }
}

NearestNodeIndex::Nearest NearestNodeIndex::Find(const Eigen::Ref<const Eigen::VectorXd>& q,
                                                 const std::function<double(int)>& distance) const {
  QUASIDYN_CHECK_ARGUMENT(
      q.size() >= nq_u_, "NearestNodeIndex::Find",
      "q has size " + std::to_string(q.size()) + ", expected >= n_q,u = " + std::to_string(nq_u_));
  Query query;
  query.z.resize(dimension_);
  Embed(q, query.z.data());
  query.distance = &distance;
  for (size_t i = 0; i < buffer_id_.size(); ++i) {
    const double* p = buffer_z_.data() + static_cast<size_t>(dimension_) * i;
    if (kBoundShrink * 0.5 * buffer_scale_[i] * BoundSquared(query.z.data(), p, p) >
        query.best.distance)
      continue;
    ++distance_calls_;
    query.Consider(buffer_id_[i], distance(buffer_id_[i]));
  }
  // Best first over every tree's subtrees: the one of least bound is opened next, and the search
  // ends when the least bound left exceeds the best distance found.
  struct Open {
    double bound;
    int tree, node;
    bool operator>(const Open& other) const { return bound > other.bound; }
  };
  std::priority_queue<Open, std::vector<Open>, std::greater<Open>> open;
  for (int t = 0; t < static_cast<int>(trees_.size()); ++t)
    if (trees_[t]) open.push({NodeBound(*trees_[t], 0, query), t, 0});
  while (!open.empty() && open.top().bound <= query.best.distance) {
    const Open next = open.top();
    open.pop();
    const Tree& tree = *trees_[next.tree];
    const Tree::Node& node = tree.nodes[next.node];
    if (node.left < 0) {
      SearchLeaf(tree, next.node, &query);
      continue;
    }
    for (const int child : {node.left, node.right}) {
      const double bound = NodeBound(tree, child, query);
      if (bound <= query.best.distance) open.push({bound, next.tree, child});
    }
  }
  return query.best;
}

double ReachabilityBoundScale(const NodeReachability& node) {
  // λ_min(Σ⁻¹) = 1 / λ_max(Σ), Σ = B Bᵀ + λ I: the Rayleigh quotient bound eᵀ Σ⁻¹ e >= ‖e‖² /
  // λ_max.
  const Eigen::MatrixXd gram = node.B() * node.B().transpose();
  double largest = 0.0;
  if (gram.rows() > 0) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gram, Eigen::EigenvaluesOnly);
    largest = std::max(0.0, eigen.eigenvalues().maxCoeff());
  }
  return LeastWeightSquared(node) / (largest + node.regularization());
}

}  // namespace quasidyn
