// The kinematics of models read from SDF and MJCF files (io/sdf_loader.h, io/mjcf_loader.h)
// equal the files' own poses at q = 0 and turn their joints where the files put them: an SDF
// joint's <pose> and an MJCF joint's anchor `pos`, not the child link's frame.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

const std::string kModels = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/models/";

Eigen::Vector3d ShapeCentre(const Scene& scene, const Kinematics& kinematics,
                            const std::string& shape) {
  const CollisionGeometry& g = scene.geometries.at(scene.GeometryIndex(shape));
  return kinematics.BodyPose(g.body) * g.X_BS.translation();
}

// tests/data/models/arm.sdf: the finger's link frame is at (0.3, 0, 0.1) in the model, the
// model at base_pose x = 1; the shoulder's axis (+y) passes through its joint frame, 0.1 m
// above the upper arm's link frame: (1, 0, 0.2) in the world.
TEST(ModelFileFrames, SdfJointTurnsAboutItsJointFrame) {
  const Scene scene = LoadSceneFromString(
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: arm, sdf: arm.sdf, friction: 0.5, stiffness: 100, initial: [0, 0],\n"
      "     base_pose: {xyz: [1, 0, 0]}}\n",
      "s.yaml", kModels);
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(Eigen::Vector2d(0, 0));
  EXPECT_TRUE(ShapeCentre(scene, kinematics, "arm/finger/rod")
                  .isApprox(Eigen::Vector3d(1.3, 0, 0.1), 1e-12));
  // The capsule's centre, 0.15 m along the upper arm's x.
  EXPECT_TRUE(ShapeCentre(scene, kinematics, "arm/upper/bone")
                  .isApprox(Eigen::Vector3d(1.15, 0, 0.1), 1e-12));
  // A quarter turn about +y through (1, 0, 0.2): (1, 0, 0.2) + Ry(π/2) (0.3, 0, −0.1).
  kinematics.Update(Eigen::Vector2d(M_PI / 2, 0));
  const Eigen::Vector3d turned = ShapeCentre(scene, kinematics, "arm/finger/rod");
  EXPECT_TRUE(turned.isApprox(Eigen::Vector3d(0.9, 0, -0.1), 1e-12)) << turned.transpose();
  // The slide moves along the finger's x, turned with the shoulder (now −z).
  kinematics.Update(Eigen::Vector2d(M_PI / 2, 0.05));
  const Eigen::Vector3d slid = ShapeCentre(scene, kinematics, "arm/finger/rod");
  EXPECT_TRUE(slid.isApprox(Eigen::Vector3d(0.9, 0, -0.15), 1e-12)) << slid.transpose();
}

// tests/data/models/arm.xml: the upper arm's body at (0, 0, 0.2), its capsule centred there
// (fromto −0.1 … 0.1 along x), the shoulder's anchor at pos = (−0.1, 0, 0) in the body. A
// quarter turn about +y through (−0.1, 0, 0.2) carries the centre to (−0.1, 0, 0.1); the
// forearm's box (pos 0.05 in the forearm at 0.2 along the upper arm) to (−0.1, 0, −0.15).
TEST(ModelFileFrames, MjcfHingeTurnsAboutItsAnchor) {
  const Scene scene = LoadSceneFromString(
      "name: m\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - {name: arm, mjcf: arm.xml, stiffness: 100, initial: [0, 0, 0]}\n",
      "m.yaml", kModels);
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(Eigen::Vector3d(0, 0, 0));
  EXPECT_TRUE(
      ShapeCentre(scene, kinematics, "arm/upper/bone").isApprox(Eigen::Vector3d(0, 0, 0.2), 1e-12));
  EXPECT_TRUE(ShapeCentre(scene, kinematics, "arm/fore/tip")
                  .isApprox(Eigen::Vector3d(0.25, 0, 0.2), 1e-12));
  kinematics.Update(Eigen::Vector3d(M_PI / 2, 0, 0));
  const Eigen::Vector3d centre = ShapeCentre(scene, kinematics, "arm/upper/bone");
  EXPECT_TRUE(centre.isApprox(Eigen::Vector3d(-0.1, 0, 0.1), 1e-12)) << centre.transpose();
  const Eigen::Vector3d tip = ShapeCentre(scene, kinematics, "arm/fore/tip");
  EXPECT_TRUE(tip.isApprox(Eigen::Vector3d(-0.1, 0, -0.15), 1e-12)) << tip.transpose();
  // The elbow (anchor at the forearm's origin, (0.2, 0, 0.2)) then the slide along the
  // forearm's x: elbow −π/2 about +y turns the forearm's x to +z; extend 0.05 moves the box up.
  kinematics.Update(Eigen::Vector3d(0, -M_PI / 2, 0.05));
  const Eigen::Vector3d raised = ShapeCentre(scene, kinematics, "arm/fore/tip");
  EXPECT_TRUE(raised.isApprox(Eigen::Vector3d(0.2, 0, 0.3), 1e-12)) << raised.transpose();
}

}  // namespace
}  // namespace quasidyn
