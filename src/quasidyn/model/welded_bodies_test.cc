// WeldRoots, WeldedPairCount and Scene::IsFiltered on a hand-made tree (welded_bodies.h): chains
// of fixed joints weld bodies to the world or to a moving body; any other joint separates them.
#include "quasidyn/model/welded_bodies.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace quasidyn {
namespace {

// world(0) ─fixed→ table(1) ─fixed→ lamp(2); world ─revolute→ arm(3) ─fixed→ tool(4);
// world ─floating→ ball(5). Every body carries one shape; the filter list holds the pairs a
// joint other than floating or planar joins directly, as the loader writes them.
Scene Tree() {
  Scene scene;
  for (const char* name : {"world", "table", "lamp", "arm", "tool", "ball"}) {
    Body body;
    body.name = name;
    scene.bodies.push_back(body);
  }
  const auto join = [&scene](JointType type, int parent, int child) {
    Joint joint;
    joint.type = type;
    joint.parent_body = parent;
    joint.child_body = child;
    scene.joints.push_back(joint);
    if (type != JointType::kFloating) scene.collision_filter.emplace_back(parent, child);
  };
  join(JointType::kFixed, 0, 1);
  join(JointType::kFixed, 1, 2);
  join(JointType::kRevolute, 0, 3);
  join(JointType::kFixed, 3, 4);
  join(JointType::kFloating, 0, 5);
  for (int b = 0; b < 6; ++b) {
    CollisionGeometry g;
    g.name = "shape" + std::to_string(b);
    g.body = b;
    scene.geometries.push_back(g);
  }
  return scene;
}

TEST(WeldedBodies, RootsFollowFixedJointsOnly) {
  const Scene scene = Tree();
  EXPECT_EQ(WeldRoots(scene), (std::vector<int>{0, 0, 0, 3, 3, 5}));
}

TEST(WeldedBodies, WeldedPairsAreFilteredAndCountedBeyondTheList) {
  const Scene scene = Tree();
  EXPECT_TRUE(scene.IsFiltered(0, 2));  // the lamp is welded to the world through the table
  EXPECT_TRUE(scene.IsFiltered(2, 1));
  EXPECT_TRUE(scene.IsFiltered(3, 4));  // the tool moves with the arm
  EXPECT_FALSE(scene.IsFiltered(1, 3));
  EXPECT_FALSE(scene.IsFiltered(2, 4));
  EXPECT_FALSE(scene.IsFiltered(4, 5));
  EXPECT_FALSE(scene.IsFiltered(0, 5));  // a floating ball on the ground does touch it
  // (0, 2) alone is welded but not in the list.
  EXPECT_EQ(WeldedPairCount(scene), 1);
  Scene shapeless = Tree();
  shapeless.geometries.pop_back();
  shapeless.geometries.erase(shapeless.geometries.begin() + 2);  // the lamp has no shape
  EXPECT_EQ(WeldedPairCount(shapeless), 0);
}

}  // namespace
}  // namespace quasidyn
