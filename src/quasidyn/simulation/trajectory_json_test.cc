#include "quasidyn/simulation/trajectory_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/io/scene_loader.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

using nlohmann::json;
const std::string kExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

// Bitwise equality of doubles (NaN equals NaN, 0.0 differs from -0.0): "lossless".
bool SameBits(double a, double b) {
  return std::signbit(a) == std::signbit(b) && ((std::isnan(a) && std::isnan(b)) || a == b);
}

void ExpectSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    EXPECT_TRUE(SameBits(a[i], b[i])) << what << "[" << i << "]: " << a[i] << " vs " << b[i];
}

void ExpectSameTrajectory(const Trajectory& a, const Trajectory& b) {
  EXPECT_EQ(a.scene_name, b.scene_name);
  EXPECT_EQ(a.scene_file, b.scene_file);
  EXPECT_EQ(a.formulation, b.formulation);
  EXPECT_TRUE(SameBits(a.time_step, b.time_step));
  EXPECT_TRUE(SameBits(a.kappa, b.kappa));
  EXPECT_TRUE(SameBits(a.object_mass_scale, b.object_mass_scale));
  EXPECT_EQ(a.nq, b.nq);
  EXPECT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.nq_u, b.nq_u);
  EXPECT_EQ(a.coordinate_names, b.coordinate_names);
  ExpectSameBits(a.q0, b.q0, "q0");
  EXPECT_EQ(a.steps_requested, b.steps_requested);
  EXPECT_EQ(a.steps_done, b.steps_done);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.message, b.message);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (size_t k = 0; k < a.steps.size(); ++k) {
    const TrajectoryStep& x = a.steps[k];
    const TrajectoryStep& y = b.steps[k];
    const std::string at = "steps[" + std::to_string(k) + "].";
    EXPECT_EQ(x.k, y.k) << at << "k";
    EXPECT_TRUE(SameBits(x.t, y.t)) << at << "t";
    ExpectSameBits(x.momentum_force, y.momentum_force, at + "momentum_force");
    EXPECT_EQ(x.gradient_status, y.gradient_status) << at;
    EXPECT_EQ(x.gradient_message, y.gradient_message) << at;
    ExpectSameBits(x.A.reshaped(), y.A.reshaped(), at + "A");
    ExpectSameBits(x.B.reshaped(), y.B.reshaped(), at + "B");
    EXPECT_EQ(x.A.rows(), y.A.rows()) << at;
    EXPECT_EQ(x.B.cols(), y.B.cols()) << at;
    ExpectSameBits(x.q, y.q, at + "q");
    ExpectSameBits(x.u, y.u, at + "u");
    EXPECT_EQ(x.status, y.status) << at;
    EXPECT_EQ(x.solver.iterations, y.solver.iterations) << at;
    EXPECT_TRUE(SameBits(x.solver.primal_residual, y.solver.primal_residual)) << at;
    EXPECT_TRUE(SameBits(x.solver.dual_residual, y.solver.dual_residual)) << at;
    EXPECT_TRUE(SameBits(x.solver.complementarity_gap, y.solver.complementarity_gap)) << at;
    EXPECT_TRUE(SameBits(x.solver.solve_time_seconds, y.solver.solve_time_seconds)) << at;
    EXPECT_EQ(x.solver.polished, y.solver.polished) << at;
    EXPECT_TRUE(SameBits(x.step_time_seconds, y.step_time_seconds)) << at;
    ASSERT_EQ(x.contacts.size(), y.contacts.size()) << at;
    for (size_t i = 0; i < x.contacts.size(); ++i) {
      const ContactRecord& c = x.contacts[i];
      const ContactRecord& d = y.contacts[i];
      const std::string ci = at + "contacts[" + std::to_string(i) + "].";
      EXPECT_EQ(c.shape_a, d.shape_a) << ci;
      EXPECT_EQ(c.shape_b, d.shape_b) << ci;
      EXPECT_EQ(c.body_a, d.body_a) << ci;
      EXPECT_EQ(c.body_b, d.body_b) << ci;
      ExpectSameBits(c.point, d.point, ci + "point");
      ExpectSameBits(c.normal, d.normal, ci + "normal");
      EXPECT_TRUE(SameBits(c.phi_start, d.phi_start)) << ci;
      EXPECT_TRUE(SameBits(c.phi_end, d.phi_end)) << ci;
      EXPECT_TRUE(SameBits(c.normal_force, d.normal_force)) << ci;
      ExpectSameBits(c.friction_force, d.friction_force, ci + "friction_force");
      EXPECT_TRUE(SameBits(c.normal_impulse, d.normal_impulse)) << ci;
      ExpectSameBits(c.friction_impulse, d.friction_impulse, ci + "friction_impulse");
    }
  }
}

// A small hand-made trajectory holding the awkward numbers: non-terminating binary
// fractions, extremes, a subnormal, −0 and the non-finite values.
Trajectory AwkwardTrajectory() {
  Trajectory t;
  t.scene_name = "awkward \"quoted\" ü";
  t.scene_file = "dir/scene.yaml";
  t.formulation = "log-barrier";
  t.time_step = 0.1;
  t.kappa = 1.0 / 3.0;
  t.object_mass_scale = 0.0;
  t.nq = 3;
  t.nv = 3;
  t.nq_u = 1;
  t.coordinate_names = {"a/x", "b", "c"};
  t.q0 = Eigen::Vector3d(0.1, -0.0, 2.0 / 3.0);
  t.steps_requested = 2;
  t.steps_done = 1;
  t.status = SolverStatus::kMaxIterations;
  t.message = "step 2 (t = 0.2 s) failed: max_iterations";
  TrajectoryStep step;
  step.k = 1;
  step.t = 0.1;
  step.q = Eigen::Vector3d(std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(), 1e-300);
  step.u = Eigen::Vector2d(std::nextafter(1.0, 2.0), -7.25);
  step.status = SolverStatus::kSolvedInaccurate;
  step.solver.iterations = 17;
  step.solver.primal_residual = std::numeric_limits<double>::quiet_NaN();
  step.solver.dual_residual = std::numeric_limits<double>::infinity();
  step.solver.complementarity_gap = -std::numeric_limits<double>::infinity();
  step.solver.solve_time_seconds = 1.234e-5;
  step.solver.polished = true;
  step.step_time_seconds = 2.5e-5;
  ContactRecord c;
  c.shape_a = "a/disk";
  c.shape_b = "world/ground";
  c.body_a = "a";
  c.body_b = "world";
  c.point = Eigen::Vector3d(0.3, 1e-17, -0.0);
  c.normal = Eigen::Vector3d(0.6, 0.8, 0.0);
  c.phi_start = -1e-9;
  c.phi_end = 3.3e-4;
  c.normal_force = 9.81;
  c.friction_force = Eigen::Vector3d(-4.905, 0.0, 0.0);
  c.normal_impulse = 0.981;
  c.friction_impulse = Eigen::Vector3d(-0.4905, 0.0, 0.0);
  step.contacts = {c, c};
  step.momentum_force = Eigen::VectorXd::Constant(1, -1.0 / 7.0);
  step.gradient_status = SolverStatus::kSolved;
  step.A = Eigen::MatrixXd::Identity(3, 3) / 3.0;
  step.B = Eigen::MatrixXd::Constant(3, 2, 1e-300);
  t.steps = {step};
  return t;
}

TEST(TrajectoryJsonTest, AwkwardNumbersRoundTripBitForBit) {
  const Trajectory original = AwkwardTrajectory();
  // Through text, as a file would carry it.
  const std::string text = TrajectoryToJson(original).dump();
  const Trajectory back = TrajectoryFromJson(json::parse(text));
  ExpectSameTrajectory(original, back);
}

TEST(TrajectoryJsonTest, NonFiniteNumbersAreNamedStrings) {
  const json j = TrajectoryToJson(AwkwardTrajectory());
  const json& solver = j["steps"][0]["solver"];
  EXPECT_EQ(solver["primal_residual"], "NaN");
  EXPECT_EQ(solver["dual_residual"], "Infinity");
  EXPECT_EQ(solver["complementarity_gap"], "-Infinity");
  EXPECT_TRUE(solver["solve_time"].is_number());
}

TEST(TrajectoryJsonTest, HeaderHoldsTheDocumentedFields) {
  const json j = TrajectoryToJson(AwkwardTrajectory());
  EXPECT_EQ(j["format"], "quasidyn-trajectory");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(j["scene"]["file"], "dir/scene.yaml");
  EXPECT_EQ(j["formulation"]["type"], "log-barrier");
  EXPECT_EQ(j["formulation"]["time_step"], 0.1);
  EXPECT_EQ(j["nq_a"], 2);
  EXPECT_EQ(j["status"], "max_iterations");
  EXPECT_EQ(j["steps"][0]["contacts"].size(), 2u);
}

TEST(TrajectoryJsonTest, SimulatedRolloutRoundTripsThroughAFile) {
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadScene(kExamples + "planar_gripper/scene.yaml"));
  const Trajectory original = Rollout(*MakeStepModel(scene, SettingsFromScene(*scene)), {24, {}});
  ASSERT_TRUE(original.completed()) << original.message;
  const std::string path =
      (std::filesystem::temp_directory_path() / "quasidyn_trajectory_json_test.json").string();
  WriteTrajectoryFile(original, path, 2);
  const Trajectory back = ReadTrajectoryFile(path);
  std::remove(path.c_str());
  ExpectSameTrajectory(original, back);
}

TEST(TrajectoryJsonTest, BadContentNamesTheField) {
  json j = TrajectoryToJson(AwkwardTrajectory());
  auto expect_error = [](const json& bad, const std::string& field) {
    try {
      TrajectoryFromJson(bad);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  json bad = j;
  bad["steps"][0]["q"].erase(0);
  expect_error(bad, "steps[0].q");
  bad = j;
  bad["steps"][0]["contacts"][1]["normal"][2] = "up";
  expect_error(bad, "steps[0].contacts[1].normal[2]");
  bad = j;
  bad.erase("q0");
  expect_error(bad, "q0");
  bad = j;
  bad["format_version"] = 99;
  expect_error(bad, "format_version");
  bad = j;
  bad["steps"][0]["status"] = "fine";
  expect_error(bad, "steps[0].status");
  bad = j;
  bad["formulation"]["time_step"] = -0.1;
  expect_error(bad, "formulation.time_step");
  bad = j;
  bad["steps_requested"] = 0;  // fewer than the steps held
  expect_error(bad, "steps");
}

TEST(TrajectoryJsonTest, MissingOrMalformedFileNamesThePath) {
  EXPECT_THROW(ReadTrajectoryFile("/nonexistent/dir/traj.json"), std::runtime_error);
  const std::string path =
      (std::filesystem::temp_directory_path() / "quasidyn_not_json.json").string();
  {
    std::ofstream file(path);
    file << "{ not json";
  }
  try {
    ReadTrajectoryFile(path);
    ADD_FAILURE() << "accepted a malformed file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
  EXPECT_THROW(WriteTrajectoryFile(AwkwardTrajectory(), "/nonexistent/dir/traj.json"),
               std::runtime_error);
  EXPECT_THROW(WriteTrajectoryFile(AwkwardTrajectory(), ""), std::invalid_argument);
}

TEST(TrajectoryJsonTest, AWriteThatFailsMidwayKeepsThePreviousFile) {
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "traj.json";
  testing::WriteWholeFile(path, "previous");
  {
    const testing::FileSizeLimit limit(64);  // the file cannot grow past 64 bytes
    try {
      WriteTrajectoryFile(AwkwardTrajectory(), path.string());
      ADD_FAILURE() << "wrote past the file-size limit";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(testing::ReadWholeFile(path), "previous");
  EXPECT_EQ(testing::FileNames(dir.path()), std::vector<std::string>{"traj.json"});
}

}  // namespace
}  // namespace quasidyn
