#include "quasidyn/viewer/viewer_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

using nlohmann::json;
const std::string kViewerDataExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

// Rounding to 6 significant digits moves a value of magnitude <= 1 by at most 5e-7.
constexpr double kRounding = 5e-7;

// A trajectory of `scene` with the given steps' q, h = 0.01 s, every step solved.
Trajectory MakeTrajectory(const Scene& scene, const std::vector<Eigen::VectorXd>& qs) {
  Trajectory trajectory;
  trajectory.scene_name = scene.name;
  trajectory.formulation = "qp";
  trajectory.time_step = 0.01;
  trajectory.nq = scene.nq;
  trajectory.nv = scene.nv;
  trajectory.nq_u = scene.nq_u;
  trajectory.q0 = scene.q0;
  for (size_t k = 0; k < qs.size(); ++k) {
    TrajectoryStep step;
    step.k = static_cast<int>(k) + 1;
    step.t = 0.01 * static_cast<double>(k + 1);
    step.q = qs[k];
    step.status = SolverStatus::kSolved;
    step.solver.iterations = 7;
    trajectory.steps.push_back(step);
  }
  trajectory.steps_requested = static_cast<int>(qs.size());
  trajectory.steps_done = static_cast<int>(qs.size());
  trajectory.status = SolverStatus::kSolved;
  return trajectory;
}

int BodyIndexIn(const json& data, const std::string& name) {
  for (size_t i = 0; i < data["bodies"].size(); ++i)
    if (data["bodies"][i]["name"] == name) return static_cast<int>(i);
  return -1;
}

// Position and quaternion (x, y, z, w) of body `b` of the data in frame j.
void ExpectPose(const json& data, int j, int b, const Eigen::Vector3d& p,
                const Eigen::Vector4d& xyzw) {
  const json& row = data["frames"]["poses"][j];
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(row[7 * b + i].get<double>(), p[i], kRounding) << i;
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(row[7 * b + 3 + i].get<double>(), xyzw[i], kRounding) << "quaternion " << i;
}

TEST(ViewerData, PlanarPosesFromHandComputedKinematics) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  ASSERT_EQ(scene.nq, 5);
  // Box at (0.1, 0.05) turned by π/2; pusher tip at (x, y) = (-0.1, 0.06) (prismatic x along
  // the world's x, then y along the carriage's y).
  Eigen::VectorXd q(5);
  q << 0.1, 0.05, M_PI / 2, -0.1, 0.06;
  const json data = BuildViewerData(scene, MakeTrajectory(scene, {q}));

  EXPECT_EQ(data["format"], "quasidyn-viewer-data");
  EXPECT_EQ(data["scene"]["planar"], true);
  // The world (table), the box and the tip carry shapes; the carriage (no shape) is left out.
  ASSERT_EQ(data["bodies"].size(), 3u);
  EXPECT_EQ(data["bodies"][0]["kind"], "world");
  EXPECT_EQ(data["bodies"][0]["shapes"][0]["type"], "half_space");
  const int box = BodyIndexIn(data, "box");
  const int tip = BodyIndexIn(data, "pusher/tip");
  ASSERT_GE(box, 0);
  ASSERT_GE(tip, 0);
  EXPECT_EQ(data["bodies"][box]["kind"], "object");
  EXPECT_EQ(data["bodies"][tip]["kind"], "robot");
  EXPECT_EQ(data["bodies"][box]["shapes"][0]["size"], json({0.2, 0.1, 0.1}));
  EXPECT_EQ(data["bodies"][tip]["shapes"][0]["radius"], 0.02);

  // Frame 0 is q0 = (0, 0.05, 0, -0.2, 0.05) from the scene file.
  ASSERT_EQ(data["frames"]["t"].size(), 2u);
  ExpectPose(data, 0, box, {0.0, 0.05, 0.0}, {0, 0, 0, 1});
  ExpectPose(data, 0, tip, {-0.2, 0.05, 0.0}, {0, 0, 0, 1});
  const double s = std::sqrt(0.5);  // sin(π/4) = cos(π/4)
  ExpectPose(data, 1, box, {0.1, 0.05, 0.0}, {0, 0, s, s});
  ExpectPose(data, 1, tip, {-0.1, 0.06, 0.0}, {0, 0, 0, 1});
  ExpectPose(data, 1, 0, {0, 0, 0}, {0, 0, 0, 1});  // the world stays put
}

// What the run aims at (optimize's and the planner's goal, the MPC's target): the target
// configuration's poses, drawn for the objects, or for every body but the world.
TEST(ViewerData, CarriesTheTargetConfiguration) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  const Trajectory trajectory = MakeTrajectory(scene, {scene.q0});
  EXPECT_FALSE(BuildViewerData(scene, trajectory).contains("target"));
  ViewerDataOptions options;
  options.target_configuration.resize(5);
  options.target_configuration << 0.3, 0.05, M_PI / 2, -0.1, 0.06;
  options.target_label = "goal";
  json data = BuildViewerData(scene, trajectory, options);
  const int box = BodyIndexIn(data, "box");
  const int tip = BodyIndexIn(data, "pusher/tip");
  ASSERT_TRUE(data.contains("target"));
  EXPECT_EQ(data["target"]["label"], "goal");
  EXPECT_EQ(data["target"]["bodies"], json::array({box}));
  const double s = std::sqrt(0.5);
  const json& poses = data["target"]["poses"];
  ASSERT_EQ(poses.size(), 7 * data["bodies"].size());
  const Eigen::Vector3d p{0.3, 0.05, 0.0};
  const Eigen::Vector4d xyzw{0, 0, s, s};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(poses[7 * box + i].get<double>(), p[i], kRounding);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(poses[7 * box + 3 + i].get<double>(), xyzw[i], kRounding);
  EXPECT_NEAR(poses[7 * tip].get<double>(), -0.1, kRounding);
  options.target_objects_only = false;  // an MPC target sets the robots too
  data = BuildViewerData(scene, trajectory, options);
  EXPECT_EQ(data["target"]["bodies"], json::array({box, tip}));
  options.target_configuration.resize(3);
  EXPECT_THROW(BuildViewerData(scene, trajectory, options), std::invalid_argument);
}

// The page's force scale for its draw threshold (docs/viewer.md, "Vectors too small to draw"):
// the heaviest object body's weight m·|g|; none without gravity.
TEST(ViewerData, CarriesTheHeaviestObjectsWeight) {
  Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  const int box = scene.BodyIndex("box");
  ASSERT_GT(box, 0);
  scene.bodies[box].mass = 2.5;
  scene.gravity = Eigen::Vector3d(0.0, -9.81, 0.0);
  const Trajectory trajectory = MakeTrajectory(scene, {scene.q0});
  EXPECT_NEAR(BuildViewerData(scene, trajectory)["scene"]["weight"].get<double>(), 2.5 * 9.81,
              kRounding * 2.5 * 9.81);
  scene.gravity.setZero();
  EXPECT_EQ(BuildViewerData(scene, trajectory)["scene"]["weight"].get<double>(), 0.0);
}

TEST(ViewerData, FloatingBodyQuaternionInThreeJsOrder) {
  const Scene scene = LoadScene(kViewerDataExamples + "arm_cubes/scene.yaml");
  Eigen::VectorXd q = scene.q0;
  // red_cube is q[0..6] = (x, y, z, qw, qx, qy, qz): turn it by θ = 0.6 rad about x.
  const double theta = 0.6;
  q.segment<7>(0) << 0.3, -0.2, 0.5, std::cos(theta / 2), std::sin(theta / 2), 0.0, 0.0;
  const json data = BuildViewerData(scene, MakeTrajectory(scene, {q}));
  const int cube = BodyIndexIn(data, "red_cube");
  ASSERT_GE(cube, 0);
  EXPECT_EQ(data["scene"]["planar"], false);
  ExpectPose(data, 1, cube, {0.3, -0.2, 0.5}, {std::sin(theta / 2), 0, 0, std::cos(theta / 2)});
  EXPECT_EQ(data["bodies"][cube]["shapes"][0]["size"], json({0.08, 0.08, 0.08}));
}

TEST(ViewerData, CarriesStatusContactsAndForces) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  Trajectory trajectory = MakeTrajectory(scene, {scene.q0, scene.q0});
  ContactRecord contact;
  contact.shape_a = "box/block";
  contact.shape_b = "world/table";
  contact.body_a = "box";
  contact.body_b = "world";
  contact.point = {0.1, 0.0, 0.0};
  contact.normal = {0.0, 1.0, 0.0};
  contact.normal_force = 9.81;
  contact.friction_force = {-1.5, 0.0, 0.0};
  trajectory.steps[1].contacts = {contact};
  trajectory.steps[1].status = SolverStatus::kSolvedInaccurate;
  trajectory.steps[1].solver.iterations = 12;
  trajectory.steps_requested = 3;  // the third step failed
  trajectory.status = SolverStatus::kMaxIterations;
  trajectory.message = "contact box/block–world/table";

  const json data = BuildViewerData(scene, trajectory);
  const json& frames = data["frames"];
  EXPECT_EQ(frames["t"], json({0.0, 0.01, 0.02}));
  // Frame 0 (q0) shows step 1's contacts, forces and status (a regression: it showed "initial").
  EXPECT_EQ(frames["step"], json({1, 1, 2}));
  EXPECT_EQ(frames["status"], json({"solved", "solved", "solved_inaccurate"}));
  EXPECT_EQ(frames["iterations"], json({7, 7, 12}));
  EXPECT_TRUE(frames["contacts"][0].empty());
  EXPECT_TRUE(frames["contacts"][1].empty());
  ASSERT_EQ(frames["contacts"][2].size(), 1u);
  const json& c = frames["contacts"][2][0];
  EXPECT_EQ(c["a"], "box/block");
  EXPECT_EQ(c["b"], "world/table");
  EXPECT_EQ(c["point"], json({0.1, 0.0, 0.0}));
  EXPECT_EQ(c["normal"], json({0.0, 1.0, 0.0}));
  EXPECT_EQ(c["normal_force"], 9.81);
  EXPECT_EQ(c["friction_force"], json({-1.5, 0.0, 0.0}));
  // The arrow's force is the one on the object: here the box is A, so the reported force.
  EXPECT_EQ(c["on"], "box");
  EXPECT_EQ(c["force"], json({-1.5, 9.81, 0.0}));
  EXPECT_EQ(data["run"]["steps_done"], 2);
  EXPECT_EQ(data["run"]["steps_requested"], 3);
  EXPECT_EQ(data["run"]["status"], "max_iterations");
  EXPECT_EQ(data["run"]["message"], trajectory.message);
  EXPECT_EQ(data["run"]["time_step"], 0.01);
}

// A robot pushing an object: the arrow shows the force on the object, not on the robot
// (a regression: robot–object arrows showed the force on the robot, object–ground ones the force on
// the object).
TEST(ViewerData, ArrowsShowTheForceOnTheObject) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  Trajectory trajectory = MakeTrajectory(scene, {scene.q0});
  ContactRecord push;  // the pusher's tip is A: the record holds the force on the pusher
  push.shape_a = "pusher/tip/0";
  push.shape_b = "box/block";
  push.body_a = "pusher/tip";
  push.body_b = "box";
  push.normal = {-1.0, 0.0, 0.0};
  push.normal_force = 33.0;
  push.friction_force = {0.0, 1.0, 0.0};
  trajectory.steps[0].contacts = {push};
  trajectory.steps[0].momentum_force = Eigen::Vector3d(28.7, 0.05, 0.0);
  const json data = BuildViewerData(scene, trajectory);
  const json& c = data["frames"]["contacts"][1][0];
  EXPECT_EQ(c["on"], "box");
  EXPECT_EQ(c["by"], "pusher/tip");
  EXPECT_EQ(c["force"], json({33.0, -1.0, -0.0}));
  const json& momentum = data["frames"]["momentum"][1];
  ASSERT_EQ(momentum.size(), 1u);
  EXPECT_EQ(momentum[0]["object"], "box");
  EXPECT_EQ(momentum[0]["force"], json({28.7, 0.05, 0.0}));
}

TEST(ViewerData, KeepsEveryFrameUpToTheLimit) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  const std::vector<Eigen::VectorXd> qs(9, scene.q0);
  ViewerDataOptions options;
  options.max_frames = 10;  // q0 + 9 steps fit exactly
  const json data = BuildViewerData(scene, MakeTrajectory(scene, qs), options);
  EXPECT_EQ(data["frames"]["step"], json({1, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(ViewerData, SubsamplesLongTrajectoriesEvenlyKeepingTheEnds) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  const std::vector<Eigen::VectorXd> qs(4999, scene.q0);
  const json data = BuildViewerData(scene, MakeTrajectory(scene, qs));  // max_frames 2000
  const json& steps = data["frames"]["step"];
  // stride ⌈4999 / 1999⌉ = 3: q0 (with step 1's contacts), steps 3, 6, …, 4998, then the last.
  ASSERT_EQ(steps.size(), 1u + 1666u + 1u);
  EXPECT_LE(steps.size(), 2000u);
  EXPECT_EQ(steps[0], 1);
  for (size_t j = 1; j + 1 < steps.size(); ++j) EXPECT_EQ(steps[j], 3 * static_cast<int>(j));
  EXPECT_EQ(steps.back(), 4999);
  EXPECT_NEAR(data["frames"]["t"].back().get<double>(), 49.99, 49.99 * 5e-6);
  EXPECT_EQ(data["frames"]["poses"].size(), steps.size());
  EXPECT_EQ(data["frames"]["contacts"].size(), steps.size());
}

TEST(ViewerData, RejectsATrajectoryOfAnotherScene) {
  const Scene pushing = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  const Scene arm = LoadScene(kViewerDataExamples + "arm_cubes/scene.yaml");
  try {
    BuildViewerData(pushing, MakeTrajectory(arm, {}));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("n_q = 79"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("n_q = 5"), std::string::npos) << e.what();
  }
}

TEST(ViewerData, RejectsBadConfigurationsNamingTheStep) {
  const Scene scene = LoadScene(kViewerDataExamples + "planar_pushing/scene.yaml");
  Eigen::VectorXd bad = scene.q0;
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  try {
    BuildViewerData(scene, MakeTrajectory(scene, {scene.q0, bad}));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("steps[1].q[2]"), std::string::npos) << e.what();
  }
  Trajectory short_q = MakeTrajectory(scene, {Eigen::VectorXd::Zero(4)});
  EXPECT_THROW(BuildViewerData(scene, short_q), std::invalid_argument);
  ViewerDataOptions options;
  options.max_frames = 1;
  EXPECT_THROW(BuildViewerData(scene, MakeTrajectory(scene, {}), options), std::invalid_argument);
  options = {};
  options.significant_digits = 0;
  EXPECT_THROW(BuildViewerData(scene, MakeTrajectory(scene, {}), options), std::invalid_argument);
}

TEST(RoundToSignificantDigits, RoundsToNearest) {
  EXPECT_EQ(RoundToSignificantDigits(0.123456789, 6), 0.123457);
  EXPECT_EQ(RoundToSignificantDigits(-0.000123456789, 6), -0.000123457);
  EXPECT_EQ(RoundToSignificantDigits(123456789.0, 6), 123457000.0);
  EXPECT_EQ(RoundToSignificantDigits(2.5, 1), 2.0);  // ties to even, as printf rounds
  EXPECT_EQ(RoundToSignificantDigits(0.0, 6), 0.0);
  EXPECT_TRUE(std::isinf(RoundToSignificantDigits(std::numeric_limits<double>::infinity(), 6)));
  EXPECT_THROW(RoundToSignificantDigits(1.0, 0), std::invalid_argument);
  EXPECT_THROW(RoundToSignificantDigits(1.0, 18), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
