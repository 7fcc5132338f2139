// SDF (io/sdf_loader.h) and MJCF (io/mjcf_loader.h) models in scene files: what is read, the
// kinematics it gives (checked against the file's own numbers), and the errors and warnings
// that name the element and the file.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

const std::string kModels = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/models/";

Scene Load(const std::string& yaml) { return ReadSceneText(yaml, "models.yaml", kModels); }

std::string ErrorOf(const std::string& yaml) {
  try {
    Load(yaml);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

bool ModelFilesContains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const CollisionGeometry& Geometry(const Scene& scene, const std::string& name) {
  const int index = scene.GeometryIndex(name);
  EXPECT_GE(index, 0) << name;
  return scene.geometries.at(std::max(index, 0));
}

TEST(SdfModels, ObjectWithInertialCollisionsFrictionAndVisual) {
  const Scene scene = Load(
      "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: box, joint: floating, sdf: box_object.sdf, friction: 0.3,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  ASSERT_EQ(scene.nq, 7);
  const Body& body = scene.bodies[scene.BodyIndex("box/body")];
  EXPECT_EQ(body.mass, 0.5);
  EXPECT_TRUE(body.com.isApprox(Eigen::Vector3d(0, 0, 0.01)));
  EXPECT_TRUE(
      body.inertia.isApprox(Eigen::Vector3d(0.001, 0.002, 0.003).asDiagonal().toDenseMatrix()));
  const CollisionGeometry& block = Geometry(scene, "box/body/block");
  EXPECT_EQ(block.shape.type, ShapeType::kBox);
  EXPECT_TRUE(block.shape.size.isApprox(Eigen::Vector3d::Constant(0.1)));
  EXPECT_EQ(block.friction, 0.6);  // the file's <mu>
  EXPECT_NEAR(block.X_BS.translation().z(), 0.01, 1e-15);
  EXPECT_EQ(Geometry(scene, "box/body/knob").friction, 0.3);  // the scene's, for none given
  ASSERT_EQ(scene.visuals.size(), 1u);
  ASSERT_NE(scene.visuals[0].mesh, nullptr);
  EXPECT_EQ(scene.visuals[0].mesh->triangles.size(), 12u);
}

TEST(SdfModels, ObjectWithoutSceneFrictionFailsNamingTheCollision) {
  const std::string error = ErrorOf(
      "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: box, joint: floating, sdf: box_object.sdf,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  EXPECT_TRUE(ModelFilesContains(error, "box_object.sdf:18")) << error;
  EXPECT_TRUE(ModelFilesContains(error, "<collision> 'knob'")) << error;
}

TEST(SdfModels, RobotJointsLimitsAndJointFrames) {
  const Scene scene = Load(
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: arm, sdf: arm.sdf, friction: 0.5, stiffness: 100, initial: [0, 0],\n"
      "     base_pose: {xyz: [1, 0, 0]}}\n");
  ASSERT_EQ(scene.nq, 2);
  const Joint& shoulder = scene.joints[scene.bodies[scene.BodyIndex("arm/upper")].parent_joint];
  EXPECT_EQ(shoulder.type, JointType::kRevolute);
  EXPECT_EQ(shoulder.lower_limit, -1.0);
  EXPECT_EQ(shoulder.upper_limit, 1.5);
  EXPECT_TRUE(shoulder.axis.isApprox(Eigen::Vector3d::UnitY()));
  const Joint& slide = scene.joints[scene.bodies[scene.BodyIndex("arm/finger")].parent_joint];
  EXPECT_EQ(slide.type, JointType::kPrismatic);
  EXPECT_EQ(slide.lower_limit, -0.05);
  EXPECT_EQ(Geometry(scene, "arm/finger/rod").friction, 0.9);
  // Its frames: kinematics/model_file_frames_test.cc.
  // The plugin is read and ignored, with a warning naming it and the file's line.
  ASSERT_EQ(scene.warnings.size(), 1u);
  EXPECT_TRUE(ModelFilesContains(scene.warnings[0], "arm.sdf:38: <plugin>")) << scene.warnings[0];
}

TEST(SdfModels, UnsupportedFeaturesFailNamingElementFileAndLine) {
  const std::string ball = ErrorOf(
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: wrist, sdf: ball_joint.sdf, friction: 0.5, stiffness: 1, initial: []}\n");
  EXPECT_TRUE(ModelFilesContains(ball, "models.yaml:5")) << ball;
  EXPECT_TRUE(
      ModelFilesContains(ball, "ball_joint.sdf:11: joint 'wrist': a ball joint is not supported"))
      << ball;
  const std::string nested = ErrorOf(
      "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: o, joint: floating, sdf: nested.sdf, friction: 0.5,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  EXPECT_TRUE(ModelFilesContains(nested, "nested.sdf:7: nested <model> 'inner' is not supported"))
      << nested;
  const std::string missing = ErrorOf(
      "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: o, joint: floating, sdf: nowhere.sdf, friction: 0.5,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  EXPECT_TRUE(ModelFilesContains(missing, "SDF file not found")) << missing;
}

// MJCF through MuJoCo's compiler: degrees become radians, fromto becomes a pose, a body with
// two joints becomes a chain, the floor becomes an environment half-space.
TEST(MjcfModels, RobotJointsChainsLimitsAndFloor) {
  const Scene scene = Load(
      "name: m\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: arm, mjcf: arm.xml, stiffness: 100, initial: [0, 0, 0]}\n");
  ASSERT_EQ(scene.nq, 3);  // shoulder, elbow, extend
  const Joint& shoulder = scene.joints[scene.bodies[scene.BodyIndex("arm/upper")].parent_joint];
  EXPECT_EQ(shoulder.name, "arm/shoulder");
  EXPECT_NEAR(shoulder.lower_limit, -M_PI / 4, 1e-12);
  EXPECT_NEAR(shoulder.upper_limit, M_PI / 2, 1e-12);
  const Joint& extend = scene.joints[scene.bodies[scene.BodyIndex("arm/fore")].parent_joint];
  EXPECT_EQ(extend.name, "arm/extend");
  EXPECT_EQ(extend.type, JointType::kPrismatic);
  EXPECT_EQ(extend.upper_limit, 0.05);
  EXPECT_GE(scene.BodyIndex("arm/fore/elbow"), 0);  // the chain's massless body
  const CollisionGeometry& floor = Geometry(scene, "arm/world/floor");
  EXPECT_EQ(floor.body, 0);
  EXPECT_EQ(floor.shape.type, ShapeType::kHalfSpace);
  EXPECT_EQ(floor.friction, 0.7);
  const CollisionGeometry& bone = Geometry(scene, "arm/upper/bone");
  EXPECT_EQ(bone.shape.type, ShapeType::kCapsule);
  EXPECT_NEAR(bone.shape.length, 0.2, 1e-12);
  EXPECT_EQ(Geometry(scene, "arm/fore/tip").friction, 1.0);  // MuJoCo's default
  // Its frames: kinematics/model_file_frames_test.cc.
  // Ignored, with warnings naming the element and the file: the actuator, the site, the
  // shoulder's damping.
  std::string all;
  for (const std::string& w : scene.warnings) all += w + "\n";
  EXPECT_TRUE(ModelFilesContains(all, "arm.xml: <actuator> (line 20): 1 actuators are ignored"))
      << all;
  EXPECT_TRUE(ModelFilesContains(all, "arm.xml: <site> (line 12): 1 sites are ignored")) << all;
  EXPECT_TRUE(ModelFilesContains(all, "<joint> (line 9) 'shoulder'")) << all;
}

TEST(MjcfModels, FreeObjectWithBoxAndMeshHull) {
  const Scene scene = Load(
      "name: m\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: o, joint: floating, mjcf: object.xml, initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  ASSERT_EQ(scene.nq, 7);
  EXPECT_NEAR(scene.bodies[scene.BodyIndex("o/box")].mass, 0.4, 1e-12);
  EXPECT_EQ(Geometry(scene, "o/box/block").friction, 0.8);
  EXPECT_TRUE(Geometry(scene, "o/box/block").shape.size.isApprox(Eigen::Vector3d::Constant(0.1)));
  const CollisionGeometry& cap = Geometry(scene, "o/box/cap");
  EXPECT_EQ(cap.shape.type, ShapeType::kConvex);
  EXPECT_EQ(cap.shape.vertices.size(), 8u);
  ASSERT_NE(cap.mesh, nullptr);
  EXPECT_TRUE(scene.warnings.empty());
}

TEST(MjcfModels, BallJointAndSceneFrictionFailNamingTheFile) {
  const std::string ball = ErrorOf(
      "name: m\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: w, mjcf: ball_joint.xml, stiffness: 1, initial: []}\n");
  EXPECT_TRUE(
      ModelFilesContains(ball,
                         "ball_joint.xml: joint 'wrist' of body 'hand': ball joints are not "
                         "supported"))
      << ball;
  const std::string friction = ErrorOf(
      "name: m\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: o, joint: floating, mjcf: object.xml, friction: 0.5,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  EXPECT_TRUE(ModelFilesContains(friction, "MJCF geoms carry their own friction")) << friction;
  const std::string two = ErrorOf(
      "name: m\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: o, joint: floating, mjcf: object.xml, sdf: box_object.sdf,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n");
  EXPECT_TRUE(ModelFilesContains(two, "give one model file")) << two;
}

}  // namespace
}  // namespace quasidyn
