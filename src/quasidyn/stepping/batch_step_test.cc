// BatchStepper (batch_step.h): each item the answer of a lone model and data in every mode,
// failures that stay in their item, bad input named. That a batch is bitwise the same on 1, 2
// and 3 threads is checked for every registered formulation by the conformance suite
// (tests/conformance/, BatchesAreBitwiseEqualOnOneTwoAndThreeThreads).
#include "quasidyn/stepping/batch_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::LoadExample;
using testing::StateAfter;

// Bitwise equality of two matrices (sizes and every bit of every entry; NaN never occurs).
bool BitwiseEqual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a.data()[k], &b.data()[k], sizeof(double)) != 0) return false;
  }
  return true;
}

void ExpectIdentical(const StepEvaluation& a, const StepResult& result,
                     const StepDerivatives& derivatives, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.result.status, result.status);
  EXPECT_EQ(a.result.message, result.message);
  EXPECT_TRUE(BitwiseEqual(a.result.next.q, result.next.q));
  EXPECT_TRUE(BitwiseEqual(a.result.velocity, result.velocity));
  EXPECT_EQ(a.derivatives.status, derivatives.status);
  EXPECT_EQ(a.derivatives.active_rows, derivatives.active_rows);
  EXPECT_TRUE(BitwiseEqual(a.derivatives.A, derivatives.A));
  EXPECT_TRUE(BitwiseEqual(a.derivatives.B, derivatives.B));
}

// Seven points around the planar gripper's squeezing state (step 6) and lifting state
// (step 15): commands moved by a few millimetres, so that items differ.
std::vector<StepPoint> GripperPoints(const Scene& scene) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  std::vector<StepPoint> points;
  for (int steps : {6, 15}) {
    const ExampleState s = StateAfter(scene, settings, steps);
    for (int k = 0; k < 4 && points.size() < 7; ++k) {
      Eigen::VectorXd u = s.u;
      u[k % u.size()] += 0.002 * (k - 1.5);
      points.push_back({State{s.q, Eigen::VectorXd()}, u});
    }
  }
  return points;
}

std::shared_ptr<const StepModel> ModelOf(const ScenePtr& scene, std::string type) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = type;
  return MakeStepModel(scene, settings);
}

// Each item equals a lone data object's answer for that point (the batch adds nothing), and
// the modes give what CalcDiff gives: kNone no matrices, kBOnly no A.
TEST(BatchStepper, EachItemIsALoneDatasAnswerInEveryMode) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const auto model = ModelOf(scene, "qp");
  const std::vector<StepPoint> points = GripperPoints(*scene);
  BatchStepper batch(model, 2);
  EXPECT_EQ(batch.threads(), 2);
  for (GradientMode mode : {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB}) {
    const std::vector<StepEvaluation> results = batch.Run(points, mode);
    for (size_t i = 0; i < points.size(); ++i) {
      const auto lone = model->CreateData();
      model->Calc(points[i].x, points[i].u, lone.get());
      model->CalcDiff(mode, lone.get());
      ExpectIdentical(results[i], lone->result, lone->derivatives, "item " + std::to_string(i));
      EXPECT_EQ(results[i].derivatives.A.size() > 0, mode == GradientMode::kAAndB);
      EXPECT_EQ(results[i].derivatives.B.size() > 0, mode != GradientMode::kNone);
    }
  }
  // More threads than items, and an empty batch.
  BatchStepper wide(model, 3);
  const std::vector<StepPoint> two(points.begin(), points.begin() + 2);
  const std::vector<StepEvaluation> r = wide.Run(two, GradientMode::kBOnly);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[1].ok());
  EXPECT_TRUE(wide.Run({}, GradientMode::kBOnly).empty());
}

// The squeezed ball (testing/dynamics_scenes.h) has no feasible velocity between ground and
// ceiling; far above both it falls freely. The infeasible item keeps its status and message;
// the others are solved.
TEST(BatchStepper, AFailedItemDoesNotStopTheBatch) {
  const ScenePtr scene = testing::Shared(testing::SqueezedBallScene());
  const auto model = ModelOf(scene, "qp");
  Eigen::VectorXd free_q = scene->q0;
  free_q[1] = 5.0;  // 4.75 m above the ceiling's plane: no contact within the tolerance
  const Eigen::VectorXd u = scene->q0.tail(scene->nq_a);
  const std::vector<StepPoint> points{
      {State{free_q, {}}, u}, {State{scene->q0, {}}, u}, {State{free_q, {}}, u}};
  for (int threads : {1, 2}) {
    const std::vector<StepEvaluation> r =
        BatchStepper(model, threads).Run(points, GradientMode::kAAndB);
    EXPECT_TRUE(r[0].ok()) << r[0].result.message;
    EXPECT_EQ(r[1].result.status, SolverStatus::kInfeasible);
    EXPECT_FALSE(r[1].result.message.empty());
    EXPECT_FALSE(r[1].derivatives.ok());
    EXPECT_TRUE(r[2].ok()) << r[2].result.message;
  }
}

// A token set before the Run: no item is evaluated, each is a not-run step at its own point; the
// same stepper without the token afterwards gives a lone data's answers again (nothing is left
// half-done).
TEST(BatchStepper, ASetTokenLeavesEveryItemNotRunAndTheStepperUsable) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const auto model = ModelOf(scene, "qp");
  const std::vector<StepPoint> points = GripperPoints(*scene);
  BatchStepper batch(model, 2);
  CancellationToken cancel;
  cancel.Cancel();
  batch.set_cancel(&cancel);
  const std::vector<StepEvaluation> skipped = batch.Run(points, GradientMode::kAAndB);
  ASSERT_EQ(skipped.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(skipped[i].result.status, SolverStatus::kNotRun);
    EXPECT_EQ(skipped[i].result.message, "interrupted");
    EXPECT_EQ(skipped[i].result.next.q.size(), 0);
    EXPECT_EQ(skipped[i].derivatives.status, SolverStatus::kNotRun);
  }
  batch.set_cancel(nullptr);
  const std::vector<StepEvaluation> results = batch.Run(points, GradientMode::kAAndB);
  for (size_t i = 0; i < points.size(); ++i) {
    const auto lone = model->CreateData();
    model->Calc(points[i].x, points[i].u, lone.get());
    model->CalcDiff(GradientMode::kAAndB, lone.get());
    ExpectIdentical(results[i], lone->result, lone->derivatives, "item " + std::to_string(i));
    EXPECT_TRUE(results[i].ok());
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

TEST(BatchStepper, BadInputThrowsNamingTheItem) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const auto model = ModelOf(scene, "qp");
  std::vector<StepPoint> points = GripperPoints(*scene);
  BatchStepper batch(model, 2);
  auto run = [&] { batch.Run(points, GradientMode::kBOnly); };

  points[3].x.q = points[3].x.q.head(scene->nq - 1).eval();  // eval: the source is the target
  ExpectThrowsNaming(run, "point 3: x.q has size");
  points = GripperPoints(*scene);
  points[2].u = Eigen::VectorXd::Zero(scene->nq_a + 1);
  ExpectThrowsNaming(run, "point 2: u has size");
  points = GripperPoints(*scene);
  points[5].u[0] = std::numeric_limits<double>::quiet_NaN();
  ExpectThrowsNaming(run, "point 5: u[0] is not finite");
  points = GripperPoints(*scene);
  points[1].x.q[2] = std::numeric_limits<double>::infinity();
  ExpectThrowsNaming(run, "point 1: x.q[2] is not finite");

  ExpectThrowsNaming([&] { BatchStepper(model, 0); }, "threads must be >= 1");
  ExpectThrowsNaming([&] { BatchStepper(model, -2); }, "threads must be >= 1");
  ExpectThrowsNaming([&] { BatchStepper(nullptr, 1); }, "the model is null");
  BatchStepper lcp(ModelOf(scene, "lcp"), 1);
  ExpectThrowsNaming([&] { lcp.Run(GripperPoints(*scene), GradientMode::kBOnly); },
                     "no derivative");
}

}  // namespace
}  // namespace quasidyn
