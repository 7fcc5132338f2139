#include "quasidyn/model/welded_bodies.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace quasidyn {

std::vector<int> WeldRoots(const Scene& scene) {
  const int n = static_cast<int>(scene.bodies.size());
  std::vector<int> fixed_parent(scene.bodies.size(), -1);  // across a fixed joint, or -1
  for (const Joint& j : scene.joints)
    if (j.type == JointType::kFixed && j.child_body > 0 && j.child_body < n)
      fixed_parent[j.child_body] = j.parent_body;
  // A tree: each body but the world is the child of one joint, so a walk up ends within n moves.
  std::vector<int> root(scene.bodies.size());
  for (int b = 0; b < n; ++b) {
    int top = b;
    for (int moves = 0; fixed_parent[top] >= 0 && moves < n; ++moves) top = fixed_parent[top];
    root[b] = top;
  }
  return root;
}

int WeldedPairCount(const Scene& scene) {
  const std::size_t n = scene.bodies.size();
  std::vector<char> has_shape(n, 0);
  for (const CollisionGeometry& g : scene.geometries)
    if (g.body >= 0 && static_cast<std::size_t>(g.body) < n) has_shape[g.body] = 1;
  const std::vector<int> root = WeldRoots(scene);
  const auto listed = [&scene](int a, int b) {
    return std::find(scene.collision_filter.begin(), scene.collision_filter.end(),
                     std::pair<int, int>{a, b}) != scene.collision_filter.end();
  };
  int count = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (has_shape[a] && has_shape[b] && root[a] == root[b] &&
          !listed(static_cast<int>(a), static_cast<int>(b)))
        ++count;
  return count;
}

}  // namespace quasidyn
