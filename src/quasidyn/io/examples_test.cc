// Every example scene loads with the sizes, instance order, stiffness and command schedule
// its scene.yaml documents (expected values are worked out by hand from the files' comments).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "quasidyn/io/scene_document.h"

namespace quasidyn {
namespace {

const std::string kRoot = QUASIDYN_SOURCE_DIR;
constexpr double kEps = 1e-12;

TEST(ExamplesTest, PlanarGripper) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/planar_gripper/scene.yaml");
  EXPECT_TRUE(scene.planar);
  EXPECT_EQ(scene.nq, 6);
  EXPECT_EQ(scene.nv, 6);
  EXPECT_EQ(scene.nq_u, 3);
  EXPECT_EQ(scene.nv_a, 3);
  ASSERT_EQ(scene.instances.size(), 2u);
  EXPECT_EQ(scene.instances[0].name, "sphere");
  EXPECT_EQ(scene.instances[1].name, "gripper");
  EXPECT_EQ(scene.instances[1].q_start, 3);
  EXPECT_DOUBLE_EQ(scene.time_step, 0.01);
  EXPECT_NEAR(scene.bodies[scene.BodyIndex("sphere")].mass * 9.81, 10.0, 1e-9);
  EXPECT_EQ(scene.ActuatedStiffness(), Eigen::Vector3d::Constant(1000.0));
  // Knots (0, [0.1, -0.116, 0.116]) and (0.08, [0.1, -0.1, 0.1]): at t = 0.03 the left
  // finger is commanded to -0.116 + 0.016 · 3/8 = -0.110 (the touching position).
  const Eigen::VectorXd u = scene.CommandAt(0.03);
  EXPECT_NEAR(u[0], 0.1, kEps);
  EXPECT_NEAR(u[1], -0.110, kEps);
  EXPECT_NEAR(u[2], 0.110, kEps);
  // Halfway through the pull down (0.08 → 0.24 s, y 0.1 → 0.068, i.e. 0.2 m/s as in §V-A).
  EXPECT_NEAR(scene.CommandAt(0.16)[0], 0.084, kEps);
  EXPECT_NEAR(scene.ScheduleEnd(), 0.24, kEps);
  // The sphere's weight is balanced on the ground: it starts at (0, 0.1, 0).
  EXPECT_NEAR(scene.q0[1], 0.1, kEps);
  // Fingers' inner faces 0.006 m from the sphere: x_r - 0.01 - 0.1 = 0.006.
  EXPECT_NEAR(scene.q0[5] - 0.01 - 0.1, 0.006, kEps);
}

TEST(ExamplesTest, PlanarPushing) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/planar_pushing/scene.yaml");
  EXPECT_EQ(scene.nq, 5);
  EXPECT_EQ(scene.nq_u, 3);
  EXPECT_EQ(scene.nv_a, 2);
  EXPECT_EQ(scene.instances[0].name, "box");
  EXPECT_EQ(scene.instances[1].name, "pusher");
  EXPECT_NEAR(scene.CommandAt(0.5)[0], -0.2 + 0.5 * 0.3, kEps);
  EXPECT_NEAR(scene.CommandAt(2.0)[0], 0.1, kEps);  // holds the last knot
  // Planar scenes default to gravity along −y.
  EXPECT_NEAR(scene.gravity.y(), -9.81, kEps);
}

// A user's URDF loads unchanged: massless base link and carriage, limits, mesh visuals.
TEST(ExamplesTest, UrdfPusher) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/urdf_pusher/scene.yaml");
  EXPECT_EQ(scene.nq, 5);
  EXPECT_EQ(scene.bodies[scene.BodyIndex("pusher/base_link")].mass, 0.0);
  EXPECT_EQ(scene.bodies[scene.BodyIndex("pusher/carriage")].mass, 0.0);
  const Joint& x = scene.joints[scene.bodies[scene.BodyIndex("pusher/carriage")].parent_joint];
  EXPECT_EQ(x.lower_limit, -0.3);
  EXPECT_EQ(x.upper_limit, 0.2);
  ASSERT_EQ(scene.external_force.size(), 3);
  EXPECT_EQ(scene.external_force[0], -1.0);
}

// Objects and a robot from SDF files: sizes, the files' friction and the pusher's x limit.
TEST(ExamplesTest, SdfPushing) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/sdf_pushing/scene.yaml");
  EXPECT_EQ(scene.nq, 16);  // two floating objects, two prismatic joints
  EXPECT_EQ(scene.nq_a, 2);
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("box/box/box")].friction, 0.4);
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("block/block/block")].shape.type, ShapeType::kBox);
  const Joint& x = scene.joints[scene.bodies[scene.BodyIndex("pusher/carriage")].parent_joint];
  EXPECT_EQ(x.upper_limit, 0.1);
  EXPECT_TRUE(scene.warnings.empty());
  EXPECT_EQ(scene.visuals.size(), 1u);
}

// A robot and an object through MuJoCo's parser: the floor plane, the hinge ranges in radians,
// the ignored actuators.
TEST(ExamplesTest, MjcfArm) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/mjcf_arm/scene.yaml");
  EXPECT_EQ(scene.nq, 9);
  EXPECT_EQ(scene.nq_a, 2);
  const CollisionGeometry& floor = scene.geometries[scene.GeometryIndex("arm/world/floor")];
  EXPECT_EQ(floor.shape.type, ShapeType::kHalfSpace);
  EXPECT_EQ(floor.friction, 0.5);
  const Joint& shoulder = scene.joints[scene.bodies[scene.BodyIndex("arm/link1")].parent_joint];
  EXPECT_NEAR(shoulder.upper_limit, M_PI / 2, 1e-12);
  EXPECT_NEAR(scene.bodies[scene.BodyIndex("box/box")].mass, 0.5, 1e-12);
  ASSERT_EQ(scene.warnings.size(), 1u);
  EXPECT_NE(scene.warnings[0].find("2 actuators are ignored"), std::string::npos);
}

// Two convex meshes, hulled, with their closed meshes' inertia (a hexagonal prism of
// circumradius R = 0.05 m and height H = 0.06 m: I_zz = 5/12 m R², I_xx = 5/24 m R² + m H²/12).
TEST(ExamplesTest, MeshObjects) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/mesh_objects/scene.yaml");
  EXPECT_EQ(scene.nq, 16);
  const CollisionGeometry& prism = scene.geometries[scene.GeometryIndex("prism/0")];
  EXPECT_EQ(prism.shape.type, ShapeType::kConvex);
  EXPECT_EQ(prism.shape.vertices.size(), 12u);
  ASSERT_NE(prism.mesh, nullptr);
  EXPECT_EQ(prism.mesh->triangles.size(), 20u);
  const Body& body = scene.bodies[scene.BodyIndex("prism")];
  const double m = 0.3, R = 0.05, H = 0.06;
  // (The mesh's coordinates are floats: 1e-6 relative.)
  EXPECT_NEAR(body.inertia(2, 2), 5.0 / 12.0 * m * R * R, 1e-6 * body.inertia(2, 2));
  EXPECT_NEAR(body.inertia(0, 0), 5.0 / 24.0 * m * R * R + m * H * H / 12.0,
              1e-6 * body.inertia(0, 0));
  EXPECT_LT(body.com.norm(), 1e-8);
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("wedge/0")].shape.vertices.size(), 6u);
}

TEST(ExamplesTest, PlanarHand) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/planar_hand/scene.yaml");
  EXPECT_EQ(scene.nq, 7);
  EXPECT_EQ(scene.nq_u, 3);
  EXPECT_EQ(scene.nv_a, 4);
  EXPECT_EQ(scene.ActuatedStiffness(), Eigen::Vector4d::Constant(2.0));
  // The middle joints sit 0.1 m along their parent link's x.
  const Joint& middle =
      scene.joints[scene.bodies[scene.BodyIndex("hand/left_distal")].parent_joint];
  EXPECT_NEAR(middle.X_PJ.translation().x(), 0.1, kEps);
  EXPECT_EQ(scene.bodies[middle.parent_body].name, "hand/left_proximal");
}

TEST(ExamplesTest, ArmCubesHasSixtyNineVelocities) {
  const Scene scene = ReadSceneFile(kRoot + "/examples/arm_cubes/scene.yaml");
  EXPECT_FALSE(scene.planar);
  EXPECT_EQ(scene.nv, 69);
  EXPECT_EQ(scene.nq, 79);
  EXPECT_EQ(scene.nq_u, 70);
  EXPECT_EQ(scene.nv_u, 60);
  EXPECT_EQ(scene.nv_a, 9);
  ASSERT_EQ(scene.instances.size(), 11u);
  EXPECT_EQ(scene.instances[0].name, "red_cube");
  EXPECT_EQ(scene.instances[10].name, "arm");
  EXPECT_EQ(scene.instances[10].q_start, 70);
  // The files it was read from: the arm's URDF, resolved against the scene's folder; the
  // cubes are inline.
  EXPECT_EQ(scene.source_file, kRoot + "/examples/arm_cubes/scene.yaml");
  EXPECT_EQ(scene.instances[10].source_file, kRoot + "/examples/arm_cubes/models/arm7.urdf");
  EXPECT_EQ(scene.instances[0].source_file, "");
  Eigen::VectorXd k(9);
  k << 800, 600, 600, 600, 400, 200, 200, 1000, 1000;
  EXPECT_EQ(scene.ActuatedStiffness(), k);
  // The 2nd joint of the arm is the URDF's joint2 (axis y, 0.19 m above joint1).
  const Joint& joint2 = scene.joints[scene.bodies[scene.BodyIndex("arm/link2")].parent_joint];
  EXPECT_EQ(joint2.q_start, 71);
  EXPECT_NEAR(joint2.X_PJ.translation().z(), 0.19, kEps);
  EXPECT_NEAR(joint2.axis.y(), 1.0, kEps);
  // Capsules come through the URDF extension.
  const int link1 = scene.GeometryIndex("arm/link1/0");
  ASSERT_GE(link1, 0);
  EXPECT_EQ(scene.geometries[link1].shape.type, ShapeType::kCapsule);
  EXPECT_NEAR(scene.geometries[link1].shape.radius, 0.06, kEps);
  // Cube inertia from_shapes: m s²/6 for a cube of side s.
  const Body& cube = scene.bodies[scene.BodyIndex("stack_top")];
  EXPECT_NEAR(cube.inertia(0, 0), 0.25 * 0.08 * 0.08 / 6.0, kEps);
  // Close the fingers between t = 1 and 2 s: 0.06 → 0.03 m.
  EXPECT_NEAR(scene.CommandAt(1.5)[7], 0.045, kEps);
  EXPECT_TRUE(scene.IsFiltered(scene.BodyIndex("arm/link0"), scene.BodyIndex("arm/link2")));
  EXPECT_TRUE(scene.IsFiltered(scene.BodyIndex("arm/link3"), scene.BodyIndex("arm/link4")));
  EXPECT_FALSE(scene.IsFiltered(scene.BodyIndex("arm/link3"), scene.BodyIndex("arm/link5")));
  // The stack rests box on box: bottom faces meet top faces.
  EXPECT_NEAR(scene.q0[2 * 7 + 2] - scene.q0[1 * 7 + 2], 0.08, kEps);
}

// The annotated example of docs/scene-format.md (its first ```yaml block) loads as described.
TEST(ExamplesTest, DocumentedExampleLoads) {
  std::ifstream file(kRoot + "/docs/scene-format.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const size_t start = doc.find("```yaml\n");
  ASSERT_NE(start, std::string::npos);
  const size_t end = doc.find("```", start + 8);
  const Scene scene = ReadSceneText(doc.substr(start + 8, end - start - 8), "scene-format.md", "");
  EXPECT_EQ(scene.nq, 5);
  EXPECT_EQ(scene.nq_u, 3);
  EXPECT_EQ(scene.formulation.name, "qp");
  EXPECT_DOUBLE_EQ(scene.formulation.parameters.Find("object_mass_scale")->value(0, 0), 1.0);
  EXPECT_EQ(scene.friction_combination, FrictionCombination::kHarmonic);
  EXPECT_TRUE(scene.IsFiltered(scene.BodyIndex("pusher/slider"), scene.BodyIndex("ball")));
  EXPECT_NEAR(scene.CommandAt(0.5)[0], -0.05, kEps);
}

}  // namespace
}  // namespace quasidyn
