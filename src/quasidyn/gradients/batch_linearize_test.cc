#include "quasidyn/gradients/batch_linearize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/dynamics/test_scenes_for_dynamics.h"
#include "quasidyn/gradients/gradient_test_support.h"

namespace quasidyn {
namespace {

using testing::LoadExample;
using testing::State;
using testing::StateAfter;

// Bitwise equality of two matrices (sizes and every bit of every entry; NaN never occurs).
bool BitwiseEqual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a.data()[k], &b.data()[k], sizeof(double)) != 0) return false;
  }
  return true;
}

void ExpectIdentical(const Linearization& a, const Linearization& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.active_rows, b.active_rows);
  EXPECT_TRUE(BitwiseEqual(a.q_next, b.q_next));
  EXPECT_TRUE(BitwiseEqual(a.v, b.v));
  EXPECT_TRUE(BitwiseEqual(a.A, b.A));
  EXPECT_TRUE(BitwiseEqual(a.B, b.B));
}

// Seven points around the planar gripper's squeezing state (step 6) and lifting state
// (step 15): commands moved by a few millimetres, so that items differ.
std::vector<LinearizationPoint> GripperPoints(const Scene& scene) {
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = FormulationType::kQp;
  std::vector<LinearizationPoint> points;
  for (int steps : {6, 15}) {
    const State s = StateAfter(scene, settings, steps);
    for (int k = 0; k < 4 && points.size() < 7; ++k) {
      Eigen::VectorXd u = s.u;
      u[k % u.size()] += 0.002 * (k - 1.5);
      points.push_back({s.q, u});
    }
  }
  return points;
}

TEST(BatchLinearize, BitwiseIdenticalForOneTwoAndThreeThreads) {
  const Scene scene = LoadExample("planar_gripper");
  const FormulationSettings settings = SettingsFromScene(scene);
  const std::vector<LinearizationPoint> points = GripperPoints(scene);
  for (GradientMethod method : {GradientMethod::kExact, GradientMethod::kLogBarrier}) {
    const std::vector<Linearization> one =
        LinearizeBatch(scene, settings, points, GradientMode::kAAndB, method, 1);
    ASSERT_EQ(one.size(), points.size());
    for (const Linearization& l : one) ASSERT_TRUE(l.ok()) << l.message;
    for (int threads : {2, 3}) {
      const std::vector<Linearization> many =
          LinearizeBatch(scene, settings, points, GradientMode::kAAndB, method, threads);
      ASSERT_EQ(many.size(), points.size());
      for (size_t i = 0; i < points.size(); ++i)
        ExpectIdentical(one[i], many[i],
                        std::to_string(threads) + " threads, item " + std::to_string(i));
    }
  }
}

// Each item equals a lone Linearizer's answer for that point (the batch adds nothing), and the
// modes give what Linearizer gives: kNone no matrices, kBOnly no A.
TEST(BatchLinearize, EachItemIsTheLinearizersAnswerInEveryMode) {
  const Scene scene = LoadExample("planar_gripper");
  const FormulationSettings settings = SettingsFromScene(scene);
  const std::vector<LinearizationPoint> points = GripperPoints(scene);
  BatchLinearizer batch(scene, settings, 2);
  EXPECT_EQ(batch.threads(), 2);
  for (GradientMode mode : {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB}) {
    const std::vector<Linearization> results = batch.Run(points, mode, GradientMethod::kExact);
    for (size_t i = 0; i < points.size(); ++i) {
      Linearizer lone(scene, settings);
      const Linearization expected =
          lone.Linearize(points[i].q, points[i].u, mode, GradientMethod::kExact);
      ExpectIdentical(results[i], expected, "item " + std::to_string(i));
      EXPECT_EQ(results[i].A.size() > 0, mode == GradientMode::kAAndB);
      EXPECT_EQ(results[i].B.size() > 0, mode != GradientMode::kNone);
    }
  }
  // More threads than items, and an empty batch.
  BatchLinearizer wide(scene, settings, 3);
  const std::vector<LinearizationPoint> two(points.begin(), points.begin() + 2);
  const std::vector<Linearization> r = wide.Run(two, GradientMode::kBOnly, GradientMethod::kExact);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[1].ok());
  EXPECT_TRUE(wide.Run({}, GradientMode::kBOnly, GradientMethod::kExact).empty());
}

// The squeezed ball (test_scenes_for_dynamics.h) has no feasible velocity between ground and
// ceiling; far above both it falls freely. The infeasible item keeps its status and message;
// the others are solved.
TEST(BatchLinearize, AFailedItemDoesNotStopTheBatch) {
  const Scene scene = testing::SqueezedBallScene();
  const FormulationSettings settings = SettingsFromScene(scene);
  Eigen::VectorXd free_q = scene.q0;
  free_q[1] = 5.0;  // 4.75 m above the ceiling's plane: no contact within the tolerance
  const Eigen::VectorXd u = scene.q0.tail(scene.nq_a);
  const std::vector<LinearizationPoint> points{{free_q, u}, {scene.q0, u}, {free_q, u}};
  for (int threads : {1, 2}) {
    const std::vector<Linearization> r = LinearizeBatch(
        scene, settings, points, GradientMode::kAAndB, GradientMethod::kExact, threads);
    EXPECT_TRUE(r[0].ok()) << r[0].message;
    EXPECT_EQ(r[1].status, SolverStatus::kInfeasible);
    EXPECT_FALSE(r[1].message.empty());
    EXPECT_TRUE(r[2].ok()) << r[2].message;
  }
}

void ExpectThrowsNaming(const std::function<void()>& call, const std::string& text) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one naming '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(BatchLinearize, BadInputThrowsNamingTheItem) {
  const Scene scene = LoadExample("planar_gripper");
  const FormulationSettings settings = SettingsFromScene(scene);
  std::vector<LinearizationPoint> points = GripperPoints(scene);
  BatchLinearizer batch(scene, settings, 2);
  auto run = [&] { batch.Run(points, GradientMode::kBOnly, GradientMethod::kExact); };

  points[3].q = points[3].q.head(scene.nq - 1).eval();  // eval: the source is the target
  ExpectThrowsNaming(run, "point 3: q has size");
  points = GripperPoints(scene);
  points[2].u = Eigen::VectorXd::Zero(scene.nq_a + 1);
  ExpectThrowsNaming(run, "point 2: u has size");
  points = GripperPoints(scene);
  points[5].u[0] = std::numeric_limits<double>::quiet_NaN();
  ExpectThrowsNaming(run, "point 5: u[0] is not finite");
  points = GripperPoints(scene);
  points[1].q[2] = std::numeric_limits<double>::infinity();
  ExpectThrowsNaming(run, "point 1: q[2] is not finite");

  ExpectThrowsNaming([&] { BatchLinearizer(scene, settings, 0); }, "threads must be >= 1");
  ExpectThrowsNaming([&] { BatchLinearizer(scene, settings, -2); }, "threads must be >= 1");
}

}  // namespace
}  // namespace quasidyn
