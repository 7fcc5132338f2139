#include "quasidyn/stepping/randomized_smoothing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::Linearization;
using testing::LoadExample;
using testing::RelativeError;
using testing::StateAfter;

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

bool SmoothingBitwiseEqual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

// The planar gripper after 6 QP steps of its schedule: both fingers squeeze the sphere,
// sticking (calc_diff_test.cc checks the exact gradients there against finite differences).
struct GripperFixture {
  Scene scene = *LoadExample("planar_gripper");
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  ExampleState state;
  GripperFixture() {
    settings.type = "qp";
    state = StateAfter(scene, settings, 6);
  }
  Linearization Exact(LinearizationMethod method) {
    return testing::Linearize(scene, settings, state.q, state.u, GradientMode::kAAndB, method);
  }
};

TEST(RandomizedSmoothing, EqualSeedsGiveIdenticalResultsOnAnyThreadCount) {
  GripperFixture f;
  RandomizedSmoothingSettings settings;
  settings.samples = 12;
  settings.u_std = 0.003;
  settings.q_std = 0.001;
  settings.seed = 2024;
  const auto model = MakeStepModel(testing::Shared(f.scene), f.settings);
  BatchStepper one(model, 1), two(model, 2), three(model, 3);
  for (bool zeroth : {false, true}) {
    SCOPED_TRACE(zeroth ? "zeroth order" : "first order");
    auto run = [&](BatchStepper* batch, std::uint64_t seed) {
      RandomizedSmoothingSettings s = settings;
      s.seed = seed;
      return zeroth ? ZerothOrderSmoothing(batch, f.state.q, f.state.u, GradientMode::kAAndB, s)
                    : FirstOrderSmoothing(batch, f.state.q, f.state.u, GradientMode::kAAndB, s);
    };
    const SmoothedLinearization a = run(&one, 2024);
    ASSERT_TRUE(a.ok()) << a.message;
    EXPECT_EQ(a.samples_used, 12);
    EXPECT_EQ(a.samples_failed, 0);
    for (BatchStepper* batch : {&one, &two, &three}) {
      const SmoothedLinearization b = run(batch, 2024);
      EXPECT_TRUE(SmoothingBitwiseEqual(a.q_next, b.q_next));
      EXPECT_TRUE(SmoothingBitwiseEqual(a.A, b.A));
      EXPECT_TRUE(SmoothingBitwiseEqual(a.B, b.B));
      EXPECT_TRUE(SmoothingBitwiseEqual(a.B_standard_error, b.B_standard_error));
    }
    const SmoothedLinearization c = run(&two, 2025);
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(SmoothingBitwiseEqual(a.B, c.B));
    EXPECT_FALSE(SmoothingBitwiseEqual(a.A, c.A));
    EXPECT_FALSE(SmoothingBitwiseEqual(a.q_next, c.q_next));
  }
}

// σ = 0: every sample is the nominal point, so the bundled mean is the exact linearisation
// (N equal terms summed and divided by N: within N·ε relative) and the standard error is 0
// up to the same round-off (the mean of N equal terms differs from each by at most N·ε).
TEST(RandomizedSmoothing, ZeroDeviationGivesTheExactLinearization) {
  GripperFixture f;
  const Linearization exact = f.Exact(LinearizationMethod::kExact);
  ASSERT_TRUE(exact.ok());
  RandomizedSmoothingSettings settings;
  settings.samples = 5;
  settings.u_std = 0.0;
  BatchStepper batch(MakeStepModel(testing::Shared(f.scene), f.settings), 2);
  const SmoothedLinearization s =
      FirstOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kAAndB, settings);
  ASSERT_TRUE(s.ok());
  EXPECT_LE(RelativeError(s.B, exact.B), 5 * kEpsilon);
  EXPECT_LE(RelativeError(s.A, exact.A), 5 * kEpsilon);
  EXPECT_LE(RelativeError(s.q_next, exact.q_next), 5 * kEpsilon);
  EXPECT_LE(s.B_standard_error.maxCoeff(), 5 * kEpsilon * exact.B.cwiseAbs().maxCoeff());
}

// std → 0: the exact QP step is piecewise affine in u, so once σ is small against the
// distance to the nearest contact-mode switch every sample has the nominal active set and
// the bundled B is the exact B up to the solver's accuracy (1e-9 relative), while a large σ
// mixes in other modes. The error must fall from the largest to the smallest σ, and end
// below 1e-6 (FD-level agreement, as in calc_diff_test.cc).
TEST(RandomizedSmoothing, BundledBApproachesTheExactBAsTheDeviationVanishes) {
  GripperFixture f;
  const Linearization exact = f.Exact(LinearizationMethod::kExact);
  ASSERT_TRUE(exact.ok());
  BatchStepper batch(MakeStepModel(testing::Shared(f.scene), f.settings), 2);
  std::vector<double> errors;
  for (double std_u : {3e-2, 3e-3, 3e-4, 3e-5, 3e-6}) {
    RandomizedSmoothingSettings settings;
    settings.samples = 32;
    settings.u_std = std_u;
    settings.seed = 11;
    const SmoothedLinearization s =
        FirstOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kBOnly, settings);
    ASSERT_TRUE(s.ok()) << s.message;
    errors.push_back(RelativeError(s.B, exact.B));
    std::cout << "std " << std_u << ": |B_bundled − B_exact| " << errors.back() << "\n";
  }
  EXPECT_GT(errors.front(), 1e3 * errors.back());
  EXPECT_LT(errors.back(), 1e-6);
}

// Monte-Carlo rate: the bundled B is a mean of N independent gradients, so its error against
// the nominal barrier gradient is (bias O(σ²)) + (noise ∝ 1/√N). With σ small the noise
// dominates and the RMS error over R = 16 independent seeds must fall by √16 = 4 from N to
// 16N. The ratio of two mean squares of R ≥ 16 independent χ²-distributed terms follows at
// worst an F(16, 16) law, whose 0.5 % and 99.5 % quantiles are 0.27 and 3.7: the RMS ratio
// lies in [4/√3.7, 4·√3.7] = [2.08, 7.7] with probability 99 % (a fixed seed set makes the
// test deterministic). Without averaging (ratio 1) or with a wrong N the test fails.
TEST(RandomizedSmoothing, BundledErrorShrinksLikeOneOverSquareRootOfN) {
  GripperFixture f;
  f.settings.type = "log-barrier";
  const Linearization smooth = f.Exact(LinearizationMethod::kLogBarrier);
  ASSERT_TRUE(smooth.ok()) << smooth.message;
  BatchStepper batch(MakeStepModel(testing::Shared(f.scene), f.settings), 2);
  const int replicates = 16;
  auto rms_error = [&](int samples) {
    double sum = 0;
    for (int r = 0; r < replicates; ++r) {
      RandomizedSmoothingSettings settings;
      settings.samples = samples;
      settings.u_std = 2e-3;
      settings.seed = 1000 + r;
      const SmoothedLinearization s =
          FirstOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kBOnly, settings);
      EXPECT_TRUE(s.ok()) << s.message;
      sum += (s.B - smooth.B).squaredNorm();
    }
    return std::sqrt(sum / replicates);
  };
  const double error_n = rms_error(8), error_16n = rms_error(128);
  std::cout << "RMS |B_bundled − B_barrier|: N = 8 " << error_n << ", N = 128 " << error_16n
            << ", ratio " << error_n / error_16n << "\n";
  EXPECT_GT(error_n / error_16n, 2.08);
  EXPECT_LT(error_n / error_16n, 7.7);
}

// Both estimators target ∇E[f(x + σξ)] (Stein's lemma). On the smooth barrier step they must
// agree within their combined standard error: |B₀ − B₁| <= 5·√(se₀² + se₁²) entrywise, plus
// the round-off floor of the fit, 100·ε·max|q⁺|/σ (Δ_i's round-off through C/σ).
TEST(RandomizedSmoothing, ZerothOrderAgreesWithBundledWithinStatisticalError) {
  GripperFixture f;
  f.settings.type = "log-barrier";
  BatchStepper batch(MakeStepModel(testing::Shared(f.scene), f.settings), 2);
  RandomizedSmoothingSettings settings;
  settings.samples = 200;
  settings.u_std = 2e-3;
  settings.q_std = 1e-3;
  settings.seed = 77;
  const SmoothedLinearization first =
      FirstOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kAAndB, settings);
  const SmoothedLinearization zeroth =
      ZerothOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kAAndB, settings);
  ASSERT_TRUE(first.ok()) << first.message;
  ASSERT_TRUE(zeroth.ok()) << zeroth.message;
  EXPECT_EQ(zeroth.samples_used, 200);
  const double scale = f.state.q.cwiseAbs().maxCoeff() + 1.0;
  auto check = [&](const Eigen::MatrixXd& a, const Eigen::MatrixXd& a_se, const Eigen::MatrixXd& b,
                   const Eigen::MatrixXd& b_se, double std, const char* name) {
    ASSERT_EQ(a.rows(), b.rows());
    ASSERT_EQ(a.cols(), b.cols());
    const double floor = 100 * kEpsilon * scale / std;
    double worst = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
      const double allowed = 5 * std::hypot(a_se.data()[k], b_se.data()[k]) + floor;
      worst = std::max(worst, std::abs(a.data()[k] - b.data()[k]) / allowed);
    }
    std::cout << name << ": worst |zeroth − first| / allowed = " << worst << ", max |difference| "
              << (a - b).cwiseAbs().maxCoeff() << "\n";
    EXPECT_LE(worst, 1.0) << name;
  };
  check(zeroth.B, zeroth.B_standard_error, first.B, first.B_standard_error, settings.u_std, "B");
  check(zeroth.A, zeroth.A_standard_error, first.A, first.A_standard_error, settings.q_std, "A");
  // Not trivially: the zeroth-order estimate is a different number from the bundled one.
  EXPECT_GT((zeroth.B - first.B).cwiseAbs().maxCoeff(), 0.0);
}

// The squeezed ball (testing/dynamics_scenes.h): ground and ceiling both within the contact
// tolerance 0.01 m when the ball's height y < 0.11 m, and then no velocity is feasible; at
// y > 0.11 m only the ceiling touches. From y = 0.11 with σ_q = 5 mm, the samples with
// y_i < 0.11 fail and are excluded and counted; the others are averaged.
TEST(RandomizedSmoothing, FailedSamplesAreExcludedAndCounted) {
  const Scene scene = testing::SqueezedBallScene();
  const testing::ProgramSettings formulation = testing::SceneProgramSettings(scene);
  Eigen::VectorXd q = scene.q0;
  q[1] = 0.11;
  const Eigen::VectorXd u = scene.q0.tail(scene.nq_a);
  RandomizedSmoothingSettings settings;
  settings.samples = 40;
  settings.u_std = 0.0;
  settings.q_std = 0.005;
  settings.seed = 3;
  int expected_failures = 0;
  for (const StepPoint& p : SmoothingSamplePoints(scene, q, u, settings))
    expected_failures += p.x.q[1] < 0.11;
  ASSERT_GT(expected_failures, 5);
  ASSERT_LT(expected_failures, 35);
  BatchStepper batch(MakeStepModel(testing::Shared(scene), formulation), 2);
  const SmoothedLinearization s = FirstOrderSmoothing(&batch, q, u, GradientMode::kAAndB, settings);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(s.samples_failed, expected_failures);
  EXPECT_EQ(s.samples_used, 40 - expected_failures);
  EXPECT_NE(s.first_failure.find("sample "), std::string::npos);
  // Every sample infeasible: the status of the failure and a message.
  q[1] = 0.075;
  settings.q_std = 0.001;
  const SmoothedLinearization none =
      FirstOrderSmoothing(&batch, q, u, GradientMode::kBOnly, settings);
  EXPECT_EQ(none.status, SolverStatus::kInfeasible);
  EXPECT_EQ(none.samples_failed, 40);
  EXPECT_NE(none.message.find("every sample failed"), std::string::npos);
}

TEST(RandomizedSmoothing, BadSettingsThrow) {
  GripperFixture f;
  BatchStepper batch(MakeStepModel(testing::Shared(f.scene), f.settings), 1);
  auto first = [&](RandomizedSmoothingSettings s, Eigen::VectorXd q) {
    FirstOrderSmoothing(&batch, q, f.state.u, GradientMode::kBOnly, s);
  };
  RandomizedSmoothingSettings s;
  s.samples = 0;
  EXPECT_THROW(first(s, f.state.q), std::invalid_argument);
  s = {};
  s.u_std = -1;
  EXPECT_THROW(first(s, f.state.q), std::invalid_argument);
  s = {};
  s.q_std = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(first(s, f.state.q), std::invalid_argument);
  EXPECT_THROW(first({}, f.state.q.head(2)), std::invalid_argument);
  // The zeroth-order fit needs perturbations along what it estimates.
  s = {};
  s.q_std = 0.0;
  EXPECT_THROW(ZerothOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kAAndB, s),
               std::invalid_argument);
  s.u_std = 0.0;
  EXPECT_THROW(ZerothOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kBOnly, s),
               std::invalid_argument);
  // Too few samples for the fit: a status, not an exception.
  s = {};
  s.samples = 2;
  const SmoothedLinearization few =
      ZerothOrderSmoothing(&batch, f.state.q, f.state.u, GradientMode::kBOnly, s);
  EXPECT_FALSE(few.ok());
  EXPECT_NE(few.message.find("fitted directions"), std::string::npos) << few.message;
}

// Samples evaluated in parts (other machines: quasidyn.distributed) and estimated afterwards give
// the one-batch estimate bit for bit, failed samples included: sample i depends on (seed, i) only
// and the estimators reduce in sample order. On the squeezed ball, where some samples fail.
TEST(RandomizedSmoothing, SamplesEvaluatedInPartsGiveTheOneBatchEstimateBitwise) {
  const Scene scene = testing::SqueezedBallScene();
  const testing::ProgramSettings formulation = testing::SceneProgramSettings(scene);
  // y = 0.112: the baseline step sees only the ceiling (feasible); the samples with y_i < 0.11
  // see the ground too and fail (FailedSamplesAreExcludedAndCounted).
  Eigen::VectorXd q = scene.q0;
  q[1] = 0.112;
  const Eigen::VectorXd u = scene.q0.tail(scene.nq_a) + Eigen::VectorXd::Constant(scene.nq_a, 1e-3);
  RandomizedSmoothingSettings settings;
  settings.samples = 31;
  settings.u_std = 0.002;
  settings.q_std = 0.005;
  settings.seed = 11;
  const auto model = MakeStepModel(testing::Shared(scene), formulation);
  BatchStepper whole(model, 2), one(model, 1), three(model, 3);
  for (bool zeroth : {false, true}) {
    SCOPED_TRACE(zeroth ? "zeroth order" : "first order");
    const GradientMode mode = zeroth ? GradientMode::kBOnly : GradientMode::kAAndB;
    const GradientMode sample_mode = zeroth ? GradientMode::kNone : mode;
    const SmoothedLinearization expected = zeroth
                                               ? ZerothOrderSmoothing(&whole, q, u, mode, settings)
                                               : FirstOrderSmoothing(&whole, q, u, mode, settings);
    ASSERT_TRUE(expected.ok()) << expected.message;
    ASSERT_GT(expected.samples_failed, 0);
    // Parts of 10, 10, 11 samples, each on a batch of its own thread count.
    std::vector<StepEvaluation> samples;
    const int firsts[] = {0, 10, 20}, counts[] = {10, 10, 11};
    BatchStepper* batches[] = {&one, &three, &one};
    for (int k = 0; k < 3; ++k) {
      const std::vector<StepPoint> part =
          SmoothingSamplePointRange(scene, q, u, settings, firsts[k], counts[k]);
      for (StepEvaluation& e : batches[k]->Run(part, sample_mode)) samples.push_back(std::move(e));
    }
    const SmoothedLinearization got =
        zeroth ? ZerothOrderEstimate(
                     scene, q, mode, settings,
                     one.Run({{State{q, Eigen::VectorXd()}, u}}, GradientMode::kNone)[0], samples)
               : FirstOrderEstimate(samples, mode, settings);
    ASSERT_TRUE(got.ok()) << got.message;
    EXPECT_TRUE(SmoothingBitwiseEqual(got.q_next, expected.q_next));
    EXPECT_TRUE(SmoothingBitwiseEqual(got.B, expected.B));
    EXPECT_TRUE(SmoothingBitwiseEqual(got.B_standard_error, expected.B_standard_error));
    EXPECT_TRUE(SmoothingBitwiseEqual(got.A, expected.A));
    EXPECT_EQ(got.samples_failed, expected.samples_failed);
    EXPECT_EQ(got.first_failure, expected.first_failure);
  }
  // A part outside the set, or a wrong number of evaluations, is the caller's error.
  EXPECT_THROW(SmoothingSamplePointRange(scene, q, u, settings, 25, 7), std::invalid_argument);
  EXPECT_THROW(SmoothingSamplePointRange(scene, q, u, settings, -1, 2), std::invalid_argument);
  EXPECT_THROW(FirstOrderEstimate(std::vector<StepEvaluation>(30), GradientMode::kAAndB, settings),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
