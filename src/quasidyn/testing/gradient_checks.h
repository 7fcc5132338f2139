#pragma once
// A step model's CalcDiff against central finite differences of its own Calc (header only):
// the check of gradients whose step has no independent reference solver (socp, the cone
// barrier, halm-posa) or whose scene is built in the test.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn::testing {

// q⁺ = f(q, u) of the model with a fresh data object per call (so that no warm start links the
// calls); NaN when the step fails.
inline StepFunction ModelStepFunction(const Scene& scene, const ProgramSettings& settings) {
  auto shared = std::make_shared<const Scene>(scene);
  return [shared, settings](const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
    Stepper stepper(shared, settings);
    const StepResult& result = stepper.Step(q, u);
    if (!result.ok()) return Eigen::VectorXd::Constant(q.size(), std::nan("")).eval();
    return result.next.q;
  };
}

// A and B of CalcDiff at (q, u) against central differences of Calc with the relative step
// δ = 1e-5: the exact programs are piecewise linear on a fixed active set and the barriers
// smooth, so the difference is the solvers' accuracy (≈ 1e-9 relative) over δ, ≈ 1e-4 at most.
inline void ExpectGradientsMatchFiniteDifferences(const Scene& scene,
                                                  const ProgramSettings& settings,
                                                  const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& u,
                                                  double tolerance = 1e-4) {
  Stepper stepper(scene, settings);
  const StepResult& result = stepper.Step(q, u);
  ASSERT_TRUE(result.ok()) << result.message;
  const StepDerivatives& d = stepper.Differentiate(GradientMode::kAAndB);
  ASSERT_TRUE(Succeeded(d.status)) << d.message;
  FiniteDifferenceSettings fd;
  fd.relative_step = 1e-5;
  const StepFunction f = ModelStepFunction(scene, settings);
  const Eigen::MatrixXd A = FiniteDifferenceA(scene, f, q, u, fd);
  const Eigen::MatrixXd B = FiniteDifferenceB(f, q, u, fd);
  EXPECT_LT(RelativeError(d.A, A), tolerance) << "A\n" << d.A << "\nfinite differences\n" << A;
  EXPECT_LT(RelativeError(d.B, B), tolerance) << "B\n" << d.B << "\nfinite differences\n" << B;
}

}  // namespace quasidyn::testing
