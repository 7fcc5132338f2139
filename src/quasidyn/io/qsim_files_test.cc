// The reference quasistatic simulator's files (io/qsim_system_file.h, docs/qsim-files.md): a
// Drake model-directive file and a system file written here, read into the scene they describe;
// their errors at file:line; and `quasidyn convert`'s scene (io/native_scene_writer.h), which
// reads into the same scene (and steps bitwise like the original:
// scenes/qsim_scene_steps_test.cc).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "quasidyn/io/native_scene_writer.h"
#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/qsim_models.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

using namespace testing::qsim;  // the models (testing/qsim_models.h)

const Joint& JointNamed(const Scene& scene, const std::string& name) {
  for (const Joint& joint : scene.joints)
    if (joint.name == name) return joint;
  throw std::runtime_error("no joint " + name);
}

class QsimFilesTest : public ::testing::Test {
 protected:
  QsimFilesTest() { WriteModels(folder_); }
  // The system file q_sys/NAME with `text`.
  std::string System(const std::string& text, const std::string& name = "system.yml") const {
    return folder_.Write("q_sys/" + name, text);
  }
  std::string ErrorOf(const std::string& path) const {
    try {
      ReadSceneFile(path);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "no error";
  }
  std::string Replaced(const std::string& from, const std::string& to) const {
    std::string text = kSystem;
    text.replace(text.find(from), from.size(), to);
    return text;
  }
  testing::ScratchDirectory folder_;
};

TEST_F(QsimFilesTest, SystemFileMapsEveryKey) {
  const Scene scene = ReadSceneFile(System(kSystem));
  EXPECT_EQ(scene.name, "system");
  EXPECT_FALSE(scene.planar);
  EXPECT_EQ(scene.gravity, Eigen::Vector3d(0, 0, -10));
  EXPECT_EQ(scene.friction_rays, 2);  // nd_per_contact 2: the simulator's rays ±x̂ × n
  EXPECT_TRUE(scene.conventions == QsimConventions());  // parity mode
  EXPECT_EQ(scene.contact_tolerance, 1e12);             // .inf: every pair
  EXPECT_EQ(scene.time_step, kQsimDefaultTimeStep);
  EXPECT_EQ(scene.formulation.name, "qp");
  const ParameterValue* c_u = scene.formulation.parameters.Find("unactuated_mass_scale");
  ASSERT_NE(c_u, nullptr);
  EXPECT_EQ(c_u->value(0, 0), 5.0);
  // Objects first, sorted by name as the simulator adds them; the ground fixed; the robot last.
  ASSERT_EQ(scene.instances.size(), 4u);
  EXPECT_EQ(scene.instances[0].name, "ball_a");
  EXPECT_EQ(scene.instances[1].name, "ball_b");
  EXPECT_EQ(scene.instances[2].name, "ground");
  EXPECT_EQ(scene.instances[2].nq, 0);
  EXPECT_EQ(scene.instances[3].name, "arm");
  EXPECT_TRUE(scene.instances[3].actuated);
  EXPECT_EQ(scene.nq, 7 + 7 + 2);
  // q0: the ball at the identity; the arm at 0, the elbow at its lower limit 0.2.
  EXPECT_EQ(scene.q0.segment<7>(0), (Eigen::VectorXd(7) << 0, 0, 0, 1, 0, 0, 0).finished());
  EXPECT_EQ(scene.q0.tail<2>(), Eigen::Vector2d(0, 0.2));
  const Joint& shoulder = JointNamed(scene, "arm/shoulder");
  const Joint& elbow = JointNamed(scene, "arm/elbow");
  EXPECT_EQ(shoulder.stiffness, 50.0);
  EXPECT_EQ(elbow.stiffness, 25.0);
  // The arm's base on the frame: 0.3 m up, turned 90° about z.
  const Joint& base = JointNamed(scene, "arm/root_joint");
  EXPECT_TRUE(base.X_PJ.translation().isApprox(Eigen::Vector3d(0, 0, 0.3), 1e-15));
  const Eigen::Matrix3d Rz =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  EXPECT_TRUE(base.X_PJ.linear().isApprox(Rz, 1e-15));
  // μ: the file's <mu>, else Drake's default 1.
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("arm/upper/tip")].friction, 0.8);
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("ball_a/ball/c")].friction, kDrakeDefaultFriction);
  EXPECT_EQ(scene.geometries[scene.GeometryIndex("ground/ground/c")].friction, 0.5);
}

TEST_F(QsimFilesTest, MassTermFollowsIsQuasiDynamicAndNan) {
  const Scene nan = ReadSceneFile(System(Replaced("5.", ".NAN")));
  EXPECT_TRUE(nan.formulation.parameters.empty());  // M_u unscaled: s = 1
  const Scene quasistatic =
      ReadSceneFile(System(Replaced("is_quasi_dynamic: True", "is_quasi_dynamic: False")));
  const ParameterValue* s = quasistatic.formulation.parameters.Find("object_mass_scale");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->value(0, 0), 0.0);
  const Scene h = ReadSceneFile(System(Replaced("  gravity:", "  h: 0.05\n  gravity:")));
  EXPECT_EQ(h.time_step, 0.05);
}

// Ghost-link objects are articulated objects moved by the file's own joints to the world (no
// `joint:`), q = (y, z, θ_x) at 0; the converted scene leaves `joint:` out too.
TEST_F(QsimFilesTest, GhostLinkObjectsMoveByTheirOwnJoints) {
  const std::string path = System(Replaced("ball_a\n    file: package://my_models/ball.sdf",
                                           "ball_a\n    file: package://my_models/ball_yz.sdf"));
  const Scene scene = ReadSceneFile(path);
  EXPECT_EQ(scene.instances[0].name, "ball_a");
  EXPECT_EQ(scene.instances[0].nq, 3);
  EXPECT_EQ(JointNamed(scene, "ball_a/y_slider").type, JointType::kPrismatic);
  EXPECT_EQ(JointNamed(scene, "ball_a/rotation").type, JointType::kRevolute);
  EXPECT_EQ(scene.q0.head<3>(), Eigen::Vector3d::Zero());
  const std::string text = NativeSceneYaml(ReadQsimSceneFile(path), folder_.path().string());
  const size_t entry = text.find("name: \"ball_a\"");
  ASSERT_NE(entry, std::string::npos) << text;
  EXPECT_EQ(text.substr(entry, text.find("- name", entry) - entry).find("joint:"),
            std::string::npos)
      << text;
  const Scene converted = ReadSceneFile(folder_.Write("converted.yaml", text));
  EXPECT_EQ(converted.nq, scene.nq);
  EXPECT_EQ(converted.q0, scene.q0);
}

TEST_F(QsimFilesTest, DirectiveFileAloneMakesEveryJointedModelARobot) {
  const Scene scene = ReadSceneFile((folder_ / "arm.yml").string());
  ASSERT_EQ(scene.instances.size(), 2u);
  EXPECT_EQ(scene.instances[0].name, "ground");
  EXPECT_EQ(scene.instances[1].name, "arm");
  EXPECT_EQ(JointNamed(scene, "arm/elbow").stiffness, kDirectiveFileStiffness);
  EXPECT_EQ(scene.gravity, Eigen::Vector3d(0, 0, -9.81));
  EXPECT_TRUE(scene.conventions == QsimConventions());
  bool warned = false;
  for (const std::string& warning : scene.warnings)
    warned = warned || warning.find("has no Kp") != std::string::npos;
  EXPECT_TRUE(warned);
}

// quasistatic_sim_params' h, contact tolerance and mass scale have the scene's usable ranges
// (model/physical_ranges.h): a subnormal is refused at its line, the bounds load.
TEST_F(QsimFilesTest, ParametersOutsideTheirUsableRangeAreRefusedAtTheirLine) {
  const auto error = [&](const std::string& from, const std::string& to) {
    return ErrorOf(System(Replaced(from, to), "bad.yml"));
  };
  EXPECT_NE(error("  gravity:", "  h: 1e-320\n  gravity:")
                .find("bad.yml:11: quasistatic_sim_params.h: must lie within [1e-06, 10] s, got "
                      "1e-320"),
            std::string::npos);
  EXPECT_NE(error("5.", "1e-300")
                .find("bad.yml:15: quasistatic_sim_params.unactuated_mass_scale: must be 0 or "
                      "lie within [1e-09, 1e+09], got 1e-300"),
            std::string::npos);
  EXPECT_EQ(ReadSceneFile(System(Replaced("  gravity:", "  h: 10\n  gravity:"))).time_step, 10.0);
  EXPECT_EQ(ReadSceneFile(System(Replaced("  gravity:", "  h: 1e-6\n  gravity:"))).time_step, 1e-6);
}

TEST_F(QsimFilesTest, ErrorsNameTheFileAndTheLine) {
  const auto expect = [&](const std::string& text, const std::string& where,
                          const std::string& problem) {
    const std::string error = ErrorOf(System(text, "bad.yml"));
    EXPECT_NE(error.find(where), std::string::npos) << error;
    EXPECT_NE(error.find(problem), std::string::npos) << error;
  };
  expect(Replaced("nd_per_contact", "nd_per_contakt"),
         "bad.yml:12: quasistatic_sim_params.nd_per_contakt", "did you mean 'nd_per_contact'");
  expect(Replaced("Kp: [50, 25]", "Kp: [50, 25, 10]"), "bad.yml:4: robots[0].Kp", "");
  expect(Replaced("5.", "0"), "bad.yml:15: quasistatic_sim_params.unactuated_mass_scale",
         "holds the objects still");
  expect(Replaced("  gravity:", "  log_barrier_weight: 100\n  gravity:"),
         "bad.yml:11: quasistatic_sim_params.log_barrier_weight", "--kappa");
  expect(Replaced("name: arm\n", "name: hand\n"), "bad.yml:3: robots[0].name",
         "robot 'hand' is not a model of");
  expect(Replaced("robots:", "robot:"), "bad.yml:2: robot", "did you mean 'robots'");
  expect(Replaced("ball.sdf", "bal.sdf"), "bad.yml:7: objects[0].file", "bal.sdf");
  // Errors inside a directive file name that file's line.
  folder_.Write("arm.yml", std::string(kDirectives)
                               .replace(std::string(kDirectives).find("base_frame: ground"), 18,
                                        "base_frame: grund"));
  expect(kSystem, "arm.yml:10: directives[2].add_frame.X_PF.base_frame", "unknown frame 'grund'");
  folder_.Write("arm.yml", std::string(kDirectives) + "- add_wled: {parent: world}\n");
  expect(kSystem, "arm.yml:16: directives[4].add_wled", "did you mean 'add_weld'");
  folder_.Write("arm.yml",
                std::string(kDirectives)
                    .replace(std::string(kDirectives).find("arm::base"), 9, "arm::upper"));
  expect(kSystem, "arm.yml:15: directives[3].add_weld.child",
         "link 'upper' is not the root link of model 'arm'");
}

// A gripper welded to a frame on the arm's last link (iiwa_and_schunk.yml's Schunk on
// iiwa_link_7): its root joint hangs from that link, so the arm's joints carry it; the
// converted scene (`base_parent`) reads into the same scene.
class GripperOnArmTest : public QsimFilesTest {
 protected:
  std::string GripperSystem(const std::string& robots = "  - {name: gripper, Kp: [10]}\n") const {
    return System(
        "model_directive: package://my_models/arm_with_gripper.yml\nrobots:\n"
        "  - {name: arm, Kp: [50, 25]}\n" +
        robots);
  }
};

TEST_F(GripperOnArmTest, TheArmsJointsCarryTheGripper) {
  const Scene scene = ReadSceneFile(GripperSystem());
  const Joint& mount = JointNamed(scene, "gripper/root_joint");
  EXPECT_EQ(scene.bodies[mount.parent_body].name, "arm/lower");
  EXPECT_TRUE(mount.X_PJ.translation().isApprox(Eigen::Vector3d(0, 0, 0.2), 1e-15));
  // q = [arm (shoulder, elbow), gripper (slide)]: the robots in the directives' order.
  ASSERT_EQ(scene.nq, 3);
  EXPECT_EQ(scene.instances[scene.instances.size() - 1].name, "gripper");
  EXPECT_EQ(JointNamed(scene, "gripper/slide").q_start, 2);
  Kinematics kinematics(BorrowScene(scene));
  const int lower = scene.BodyIndex("arm/lower"), palm = scene.BodyIndex("gripper/palm");
  for (const double elbow : {0.2, 1.3}) {
    kinematics.Update(Eigen::Vector3d(0.4, elbow, 0.01));
    const Eigen::Isometry3d expected = kinematics.BodyPose(lower) * mount.X_PJ;
    EXPECT_TRUE(kinematics.BodyPose(palm).isApprox(expected, 1e-15)) << elbow;
  }
  // The palm and the link it is welded to never collide; the finger and the link may.
  const auto filtered = [&](int a, int b) {
    const std::pair<int, int> pair(std::min(a, b), std::max(a, b));
    return std::find(scene.collision_filter.begin(), scene.collision_filter.end(), pair) !=
           scene.collision_filter.end();
  };
  EXPECT_TRUE(filtered(lower, palm));
  EXPECT_FALSE(filtered(lower, scene.BodyIndex("gripper/finger")));
  // `quasidyn convert`'s scene gives the gripper `base_parent: arm/lower`.
  const QsimScene qsim = ReadQsimSceneFile(GripperSystem());
  const std::string yaml = NativeSceneYaml(qsim, folder_.path().string());
  EXPECT_NE(yaml.find("base_parent: \"arm/lower\""), std::string::npos) << yaml;
  const Scene converted = ReadSceneFile(folder_.Write("converted.yaml", yaml));
  ASSERT_EQ(converted.joints.size(), scene.joints.size());
  for (size_t j = 0; j < scene.joints.size(); ++j) {
    EXPECT_EQ(converted.joints[j].parent_body, scene.joints[j].parent_body) << j;
    EXPECT_TRUE(converted.joints[j].X_PJ.matrix() == scene.joints[j].X_PJ.matrix()) << j;
  }
  EXPECT_EQ(converted.q0, scene.q0);
}

TEST_F(GripperOnArmTest, AWeldToAnotherModelsLinkNeedsTwoRobotsInOrderAndAKnownLink) {
  // Not a robot of the system: a model with joints that is neither robot nor object.
  const std::string not_robot = ErrorOf(GripperSystem(""));
  EXPECT_NE(not_robot.find("arm_with_gripper.yml:15: directives[3].add_weld.child"),
            std::string::npos)
      << not_robot;
  EXPECT_NE(not_robot.find("only when both are robots"), std::string::npos) << not_robot;
  // A link the arm lacks, at the frame that names it.
  std::string directives = kArmWithGripperDirectives;
  directives.replace(directives.find("arm::lower"), 10, "arm::forearm");
  folder_.Write("arm_with_gripper.yml", directives);
  const std::string unknown = ErrorOf(GripperSystem());
  EXPECT_NE(unknown.find("arm_with_gripper.yml:10: directives[2].add_frame.X_PF.base_frame"),
            std::string::npos)
      << unknown;
  EXPECT_NE(unknown.find("model 'arm' has no link 'forearm'"), std::string::npos) << unknown;
  // A native scene: a robot may hang from a body of a robot listed before it only
  // (`base_parent`: its joints to `world` hang from that body instead).
  const std::string scene_text =
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n"
      "  - name: gripper\n    base_parent: arm/upper\n    bodies: [{name: palm, mass: 0.1, "
      "inertia: {principal: [1e-3, 1e-3, 1e-3]}}]\n    joints: [{name: slide, type: prismatic, "
      "parent: world, child: palm, axis: [0, 1, 0]}]\n    stiffness: 10\n    initial: [0]\n"
      "  - name: arm\n    bodies: [{name: upper, mass: 0.1, inertia: {principal: [1e-3, 1e-3, "
      "1e-3]}}]\n    joints: [{name: j, type: revolute, parent: world, child: upper, axis: [1, "
      "0, 0]}]\n    stiffness: 10\n    initial: [0]\n";
  std::string later;
  try {
    ReadSceneText(scene_text, "scene.yaml", folder_.path().string());
  } catch (const SceneError& e) {
    later = e.what();
  }
  EXPECT_NE(later.find("parent 'arm/upper' is neither 'world' nor a body of gripper nor of a "
                       "robot listed before it"),
            std::string::npos)
      << later;
}

// The converted scene loads into the same scene as the system file (it steps bitwise like it:
// scenes/qsim_scene_steps_test.cc).
TEST_F(QsimFilesTest, ConvertedSceneReadsIntoTheSameScene) {
  const std::string path = System(kSystem);
  const Scene original = ReadSceneFile(path);
  const QsimScene qsim = ReadQsimSceneFile(path);
  const std::string converted =
      folder_.Write("converted.yaml", NativeSceneYaml(qsim, folder_.path().string()));
  const Scene scene = ReadSceneFile(converted);
  ASSERT_EQ(scene.nq, original.nq);
  EXPECT_EQ(scene.q0, original.q0);
  EXPECT_EQ(scene.gravity, original.gravity);
  EXPECT_EQ(scene.contact_tolerance, original.contact_tolerance);
  EXPECT_EQ(scene.friction_rays, original.friction_rays);
  EXPECT_TRUE(scene.conventions == original.conventions);
  EXPECT_TRUE(scene.conventions == QsimConventions());
  for (size_t j = 0; j < scene.joints.size(); ++j) {
    EXPECT_TRUE(scene.joints[j].X_PJ.matrix() == original.joints[j].X_PJ.matrix()) << j;
  }
}

// A scene file's `conventions:` block (model/simulator_conventions.h): absent, quasidyn's own
// choices; each key read by name; problems at the file's line with the allowed names; n_d = 2
// only with the simulator's rays.
TEST_F(QsimFilesTest, SceneFileConventionsBlock) {
  const std::string head =
      "name: s\ndimension: 3\ntime_step: 0.1\nenvironment:\n"
      "  - {name: ground, type: half_space, friction: 0.5}\n";
  const Scene native = ReadSceneFile(folder_.Write("native.yaml", head));
  EXPECT_TRUE(native.conventions == SimulatorConventions{});
  EXPECT_EQ(native.conventions.friction_ray_basis, FrictionRayBasis::kQuasidyn);
  EXPECT_EQ(native.conventions.quaternion_update, QuaternionUpdate::kExponentialMap);
  EXPECT_EQ(native.conventions.joint_limits, JointLimitRule::kEnforced);
  const Scene qsim = ReadSceneFile(folder_.Write(
      "qsim.yaml", head + "friction_rays: 2\nconventions:\n  friction_ray_basis: qsim\n"
                          "  quaternion_update: first_order\n  joint_limits: ignored\n"));
  EXPECT_TRUE(qsim.conventions == QsimConventions());
  EXPECT_EQ(qsim.friction_rays, 2);
  const Scene partly =
      ReadSceneFile(folder_.Write("partly.yaml", head + "conventions: {joint_limits: ignored}\n"));
  EXPECT_EQ(partly.conventions.joint_limits, JointLimitRule::kIgnored);
  EXPECT_EQ(partly.conventions.friction_ray_basis, FrictionRayBasis::kQuasidyn);
  const std::string bad_update =
      ErrorOf(folder_.Write("bad1.yaml", head + "conventions:\n  quaternion_update: euler\n"));
  EXPECT_NE(bad_update.find("bad1.yaml:7: conventions.quaternion_update"), std::string::npos)
      << bad_update;
  EXPECT_NE(bad_update.find("unknown quaternion update 'euler' (exponential_map, first_order)"),
            std::string::npos)
      << bad_update;
  const std::string bad_key =
      ErrorOf(folder_.Write("bad2.yaml", head + "conventions:\n  joint_limit: ignored\n"));
  EXPECT_NE(bad_key.find("bad2.yaml:7"), std::string::npos) << bad_key;
  EXPECT_NE(bad_key.find("joint_limits"), std::string::npos) << bad_key;
  const std::string two_rays = ErrorOf(folder_.Write("bad3.yaml", head + "friction_rays: 2\n"));
  EXPECT_NE(two_rays.find("bad3.yaml:6: friction_rays"), std::string::npos) << two_rays;
  EXPECT_NE(two_rays.find("friction_ray_basis: qsim"), std::string::npos) << two_rays;
  // A robot may start outside its limits only when they are ignored (as the simulator's q0 may).
  const std::string robot =
      "robots:\n  - name: arm\n    bodies: [{name: b, mass: 1, inertia: {principal: [1, 1, 1]}}]\n"
      "    joints: [{name: x, type: prismatic, parent: world, child: b, axis: [1, 0, 0],\n"
      "              limits: [-0.1, 0.1]}]\n    stiffness: 100\n    initial: [0.2]\n";
  EXPECT_NE(ErrorOf(folder_.Write("outside.yaml", head + robot)).find("is outside its limits"),
            std::string::npos);
  const Scene ignored = ReadSceneFile(
      folder_.Write("ignored.yaml", head + "conventions: {joint_limits: ignored}\n" + robot));
  EXPECT_EQ(ignored.q0[0], 0.2);
}

TEST(RoundTripNumberTest, ReadsBackExactly) {
  for (const double x : {0.1, 1.0 / 3.0, -1.5707963267948966, 1e12, 100.0, 5e-324, -0.0}) {
    EXPECT_EQ(std::strtod(RoundTripNumber(x).c_str(), nullptr), x) << RoundTripNumber(x);
  }
  EXPECT_EQ(RoundTripNumber(100.0), "100");
  EXPECT_EQ(RoundTripNumber(0.1), "0.1");
}

}  // namespace
}  // namespace quasidyn
