// One scene and one step model, immutable and shared, used from 8 threads at once: each thread
// steps with a data object of its own, rolls out, linearises (its own Linearizer: exact, and
// randomized on two threads) and runs batches on the thread pool (common/parallel_for.h: one
// call at a time gets the parked threads, the others start threads of their own). Every answer
// is bitwise that of the same work run serially beforehand (batches on one thread). Part of the
// ThreadSanitizer run (tests/tsan/TsanTests.cmake, label tsan), where a data race fails it even
// when the numbers come out right.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

constexpr int kThreads = 8;
constexpr int kSteps = 4;   // per rollout
constexpr int kPoints = 3;  // per thread: steps, linearisations and batch items

// Everything one thread's work computed, in the order it computed it: a name and the numbers.
using Answers = std::vector<std::pair<std::string, Eigen::MatrixXd>>;

// The first answer whose name, size or bits differ ("" when none): bitwise, so a NaN equals
// itself and -0.0 differs from 0.0.
std::string FirstDifference(const Answers& got, const Answers& expected) {
  if (got.size() != expected.size()) return "the number of answers";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const Eigen::MatrixXd& a = got[i].second;
    const Eigen::MatrixXd& b = expected[i].second;
    if (got[i].first != expected[i].first || a.rows() != b.rows() || a.cols() != b.cols() ||
        std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) != 0) {
      return expected[i].first;
    }
  }
  return "";
}

class SharedSceneThreads : public ::testing::Test {
 protected:
  ScenePtr scene_ = testing::LoadExample("planar_gripper");
  testing::ProgramSettings settings_ = testing::SceneProgramSettings(*scene_);
  std::shared_ptr<const StepModel> model_ = MakeStepModel(scene_, settings_);

  // Point i of thread t: the initial state, the sphere raised (t + i) · 0.1 mm, and the
  // schedule's command at step i + 1 scaled by 1 + t/100.
  StepPoint PointOf(int t, int i) const {
    StepPoint point{InitialState(*model_), scene_->CommandAt((i + 1) * settings_.time_step)};
    point.x.q[1] += 1e-4 * (t + i);
    point.u *= 1.0 + 0.01 * t;
    return point;
  }

  // Thread t's work; batches on `threads` workers (their answers are the same for every count).
  Answers Work(int t, int threads) const {
    Answers answers;
    std::vector<StepPoint> points;
    for (int i = 0; i < kPoints; ++i) points.push_back(PointOf(t, i));
    const std::string at = "thread " + std::to_string(t) + ", ";
    // Steps and their derivatives with a data object of this thread's own.
    const std::unique_ptr<StepData> data = model_->CreateData();
    for (int i = 0; i < kPoints; ++i) {
      model_->Calc(points[i].x, points[i].u, data.get());
      model_->CalcDiff(GradientMode::kAAndB, data.get());
      answers.emplace_back(at + "step " + std::to_string(i) + " q", data->result.next.q);
      answers.emplace_back(at + "step " + std::to_string(i) + " A", data->derivatives.A);
      answers.emplace_back(at + "step " + std::to_string(i) + " B", data->derivatives.B);
    }
    // A rollout of the schedule and one of the thread's own commands, with derivatives.
    RolloutOptions options{kSteps, {}};
    options.gradients = GradientMode::kAAndB;
    Eigen::MatrixXd commands(kSteps, scene_->nq_a);
    for (int k = 0; k < kSteps; ++k) commands.row(k) = PointOf(t, k).u.transpose();
    const auto record = [&](const std::string& name, const Trajectory& trajectory) {
      answers.emplace_back(
          at + name + " steps",
          Eigen::MatrixXd::Constant(1, 1, static_cast<double>(trajectory.steps.size())));
      for (std::size_t k = 0; k < trajectory.steps.size(); ++k) {
        const std::string step = at + name + " step " + std::to_string(k);
        answers.emplace_back(step + " q", trajectory.steps[k].q);
        answers.emplace_back(step + " A", trajectory.steps[k].A);
        answers.emplace_back(step + " B", trajectory.steps[k].B);
      }
    };
    record("rollout", RolloutFrom(*model_, points[0].x, options));
    record("commanded rollout", RolloutCommands(*model_, points[0].x, commands, options));
    // Batches on the pool: steps, rollouts.
    const std::vector<StepEvaluation> batch =
        BatchStepper(model_, threads).Run(points, GradientMode::kAAndB);
    for (int i = 0; i < kPoints; ++i) {
      answers.emplace_back(at + "batch step " + std::to_string(i) + " q", batch[i].result.next.q);
      answers.emplace_back(at + "batch step " + std::to_string(i) + " A", batch[i].derivatives.A);
      answers.emplace_back(at + "batch step " + std::to_string(i) + " B", batch[i].derivatives.B);
    }
    std::vector<State> x0s;
    for (const StepPoint& point : points) x0s.push_back(point.x);
    const std::vector<Trajectory> rollouts = RolloutBatch(*model_, x0s, {}, options, threads);
    for (int i = 0; i < kPoints; ++i) record("batch rollout " + std::to_string(i), rollouts[i]);
    // Linearisations: exact one at a time, exact as a batch, randomized as a batch (its samples
    // on the pool too).
    LinearizationOptions exact;
    exact.threads = threads;
    Linearizer exact_linearizer(scene_, settings_, exact);
    LinearizationOptions randomized = exact;
    randomized.method = LinearizationMethod::kRandomized;
    randomized.randomized.samples = 6;
    randomized.randomized.seed = 17;
    Linearizer randomized_linearizer(scene_, settings_, randomized);
    const std::vector<Linearization> exact_batch = exact_linearizer.LinearizeBatch(points);
    const std::vector<Linearization> randomized_batch =
        randomized_linearizer.LinearizeBatch(points, {1, 2, 3});
    for (int i = 0; i < kPoints; ++i) {
      const Linearization one = exact_linearizer.Linearize(points[i].x, points[i].u);
      const std::string point = " linearisation " + std::to_string(i);
      for (const auto& [name, l] : {std::pair<std::string, const Linearization&>{"exact", one},
                                    {"exact batch", exact_batch[i]},
                                    {"randomized batch", randomized_batch[i]}}) {
        answers.emplace_back(at + name + point + " ok",
                             Eigen::MatrixXd::Constant(1, 1, l.ok() ? 1.0 : 0.0));
        answers.emplace_back(at + name + point + " x+", l.x_next.q);
        answers.emplace_back(at + name + point + " A", l.A);
        answers.emplace_back(at + name + point + " B", l.B);
      }
    }
    return answers;
  }
};

TEST_F(SharedSceneThreads, EightThreadsStepRollOutAndLineariseBitwiseAsSerially) {
  std::vector<Answers> serial(kThreads);
  for (int t = 0; t < kThreads; ++t) serial[t] = Work(t, 1);
  std::vector<Answers> concurrent(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { concurrent[t] = Work(t, 2 + t % 2); });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_FALSE(serial[t].empty());
    EXPECT_EQ(FirstDifference(concurrent[t], serial[t]), "") << "thread " << t;
  }
  // The threads' inputs differ, and so do their answers: the comparison above can fail.
  EXPECT_NE(FirstDifference(serial[1], serial[0]), "");
}

// The comparison sees one bit: the last bit of one number, and -0.0 against 0.0.
TEST(SharedSceneThreadsComparison, SeesOneBitOfOneNumber) {
  const Answers answers = {{"a", Eigen::MatrixXd::Constant(2, 2, 1.0)},
                           {"b", Eigen::MatrixXd::Zero(1, 3)}};
  EXPECT_EQ(FirstDifference(answers, answers), "");
  Answers changed = answers;
  changed[0].second(1, 1) = std::nextafter(1.0, 2.0);
  EXPECT_EQ(FirstDifference(changed, answers), "a");
  changed = answers;
  changed[1].second(0, 2) = -0.0;
  EXPECT_EQ(FirstDifference(changed, answers), "b");
  changed = answers;
  changed.pop_back();
  EXPECT_EQ(FirstDifference(changed, answers), "the number of answers");
}

}  // namespace
}  // namespace quasidyn
