// A planar joint for an object in a 3D scene (io/plane_frame.h): a box pushed along x on a
// table moves in the x-z plane; with a planar joint (3 DOF: x, z, θ about −y) it must move as
// the same box with a floating joint (6 DOF), which stays in that plane by symmetry; and the
// planar step's gradients match central finite differences.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/gradient_checks.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/registered_formulations.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

// A 0.2 × 0.1 × 0.1 m box (1 kg) resting on a table, pushed along +x at mid-height by a
// sphere on two prismatic joints (x, z). `joint` is the box's joint, `initial` its q.
Scene PushedBox(const std::string& joint, const std::string& initial,
                const std::string& extra = "") {
  return LoadSceneFromString(
      "name: box3d\ndimension: 3\ntime_step: 0.01\ncontact_tolerance: 0.02\n"
      "formulation: {type: qp}\n"
      "environment: [{name: table, type: half_space, friction: 0.4}]\n"
      "objects:\n  - name: box\n    joint: " +
          joint + extra +
          "\n    body: {mass: 1.0, inertia: from_shapes,\n"
          "           shapes: [{type: box, size: [0.2, 0.1, 0.1], friction: 0.4}]}\n"
          "    initial: " +
          initial +
          "\n"
          "robots:\n  - name: pusher\n    bodies:\n"
          "      - {name: slider, mass: 0.5, inertia: {principal: [0.001, 0.001, 0.001]}}\n"
          "      - {name: tip, mass: 0.1, inertia: from_shapes,\n"
          "         shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}\n"
          "    joints:\n"
          "      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0]}\n"
          "      - {name: z, type: prismatic, parent: slider, child: tip, axis: [0, 0, 1]}\n"
          "    stiffness: 1000\n    initial: [-0.15, 0.05]\n"
          "    commands: [{t: 0.0, q: [-0.15, 0.05]}, {t: 1.0, q: [0.15, 0.05]}]\n",
      "box3d.yaml", ".");
}

TEST(PlanarJoint3d, DefaultPlaneIsXzWithRotationAboutMinusY) {
  const Scene scene = PushedBox("planar", "[0.0, 0.05, 0.0]");
  ASSERT_EQ(scene.nq_u, 3);
  const Joint& joint = scene.joints[scene.instances[0].joints[0]];
  EXPECT_EQ(joint.type, JointType::kPlanar);
  EXPECT_TRUE(joint.X_PJ.linear().col(0).isApprox(Eigen::Vector3d::UnitX()));
  EXPECT_TRUE(joint.X_PJ.linear().col(1).isApprox(Eigen::Vector3d::UnitZ()));
  EXPECT_TRUE(joint.X_PJ.linear().col(2).isApprox(-Eigen::Vector3d::UnitY()));
  // A plane given by its normal and origin: normal +x gives x_J = y (the world x would be
  // the normal), y_J = x × y = z.
  const Scene tilted = PushedBox("planar", "[0.0, 0.05, 0.0]",
                                 "\n    plane: {normal: [2, 0, 0], origin: [0, 0, 1]}");
  const Joint& other = tilted.joints[tilted.instances[0].joints[0]];
  EXPECT_TRUE(other.X_PJ.linear().col(0).isApprox(Eigen::Vector3d::UnitY()));
  EXPECT_TRUE(other.X_PJ.linear().col(2).isApprox(Eigen::Vector3d::UnitX()));
  EXPECT_TRUE(other.X_PJ.translation().isApprox(Eigen::Vector3d(0, 0, 1)));
}

TEST(PlanarJoint3d, PlaneErrorsNameTheField) {
  try {
    PushedBox("floating", "[0, 0, 0.05, 1, 0, 0, 0]", "\n    plane: {normal: [0, 1, 0]}");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.field(), "objects[0].plane") << e.what();
  }
  try {
    PushedBox("planar", "[0, 0.05, 0]", "\n    plane: {normal: [0, 0, 0]}");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.field(), "objects[0].plane.normal") << e.what();
  }
}

// 40 QP steps of the schedule: the pusher reaches the box at t ≈ 0.1 s and pushes it. The
// floating box keeps y, roll and yaw at 0 (the push and the contacts are symmetric in y), and
// its (x, z, pitch) equal the planar box's (x, z, −θ) to the solvers' accuracy.
TEST(PlanarJoint3d, MovesAsTheFloatingBoxInItsPlane) {
  const Scene planar = PushedBox("planar", "[0.0, 0.05, 0.0]");
  const Scene floating = PushedBox("floating", "[0.0, 0.0, 0.05, 1, 0, 0, 0]");
  testing::ProgramSettings settings = testing::SceneProgramSettings(planar);
  testing::Stepper planar_step(planar, settings), floating_step(floating, settings);
  Eigen::VectorXd q_planar = planar.q0, q_floating = floating.q0;
  double pushed = 0.0;
  for (int k = 1; k <= 40; ++k) {
    const double t = k * planar.time_step;
    const StepResult& a = planar_step.Step(q_planar, planar.CommandAt(t));
    ASSERT_TRUE(a.ok()) << a.message;
    q_planar = a.next.q;
    const StepResult& b = floating_step.Step(q_floating, floating.CommandAt(t));
    ASSERT_TRUE(b.ok()) << b.message;
    q_floating = b.next.q;
    SCOPED_TRACE("step " + std::to_string(k));
    EXPECT_NEAR(q_floating[1], 0.0, 1e-9);                                // y
    EXPECT_NEAR(q_floating[4], 0.0, 1e-9);                                // qx (roll)
    EXPECT_NEAR(q_floating[6], 0.0, 1e-9);                                // qz (yaw)
    EXPECT_NEAR(q_floating[0], q_planar[0], 1e-7);                        // x
    EXPECT_NEAR(q_floating[2], q_planar[1], 1e-7);                        // z
    const double pitch = 2.0 * std::atan2(q_floating[5], q_floating[3]);  // about +y
    EXPECT_NEAR(pitch, -q_planar[2], 1e-7);                               // θ is about −y
    EXPECT_NEAR(q_floating.tail(2)[0], q_planar.tail(2)[0], 1e-7);        // the pusher
    pushed = q_planar[0];
  }
  EXPECT_GT(pushed, 0.05);  // the box was pushed (else the comparison says little)
}

// Every registered formulation with gradients and a configuration state that can step the
// planar box.
TEST(PlanarJoint3d, GradientsMatchFiniteDifferences) {
  const Scene scene = PushedBox("planar", "[0.0, 0.05, 0.0]");
  const std::vector<std::string> types =
      testing::FormulationsThatStep(testing::Shared(scene), testing::DifferentiableInConfiguration);
  EXPECT_GE(types.size(), 2u);
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = type;
    // The pusher touching the box and pushing it: q after 15 steps of the QP schedule.
    testing::ProgramSettings qp = settings;
    qp.type = "qp";
    testing::Stepper stepper(scene, qp);
    Eigen::VectorXd q = scene.q0;
    for (int k = 1; k <= 15; ++k) q = stepper.Step(q, scene.CommandAt(k * 0.01)).next.q;
    testing::ExpectGradientsMatchFiniteDifferences(scene, settings, q, scene.CommandAt(0.16), 1e-3);
  }
}

}  // namespace
}  // namespace quasidyn
