// Linearizer::SetCancellation (linearizer.h): a set token stops a batch and a randomized
// estimate, whose unfinished points say "interrupted" with status not_run, and the lineariser
// gives its usual answers once the token is cleared (the Python bindings' Ctrl-C relies on both:
// python/src/batch_linearizer_bindings.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

bool Interrupted(const Linearization& l) {
  return l.status == SolverStatus::kNotRun && l.message.find("interrupted") != std::string::npos;
}

TEST(LinearizerCancellation, ASetTokenStopsBatchesAndEstimatesAndClearingItRestoresThem) {
  const ScenePtr scene = testing::LoadExample("planar_gripper");
  const StepPoint point{State{scene->q0, Eigen::VectorXd()}, scene->q0.tail(scene->nq_a)};
  const std::vector<StepPoint> points(3, point);
  for (LinearizationMethod method :
       {LinearizationMethod::kExact, LinearizationMethod::kRandomized}) {
    SCOPED_TRACE(LinearizationMethodName(method));
    LinearizationOptions options;
    options.method = method;
    options.threads = 2;
    options.randomized.samples = 8;
    options.randomized.u_std = 1e-3;
    Linearizer linearizer(scene, FormulationChoice("qp"), options);
    const std::vector<Linearization> before = linearizer.LinearizeBatch(points);

    CancellationToken cancel;
    cancel.Cancel();
    linearizer.SetCancellation(&cancel);
    for (const Linearization& l : linearizer.LinearizeBatch(points)) EXPECT_TRUE(Interrupted(l));
    EXPECT_TRUE(Interrupted(linearizer.Linearize(point.x, point.u)));

    linearizer.SetCancellation(nullptr);
    const std::vector<Linearization> after = linearizer.LinearizeBatch(points);
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < after.size(); ++i) {
      ASSERT_TRUE(after[i].ok()) << after[i].message;
      EXPECT_EQ(after[i].B, before[i].B);  // bitwise: the same program from the same input
      EXPECT_EQ(after[i].A, before[i].A);
    }
  }
}

}  // namespace
}  // namespace quasidyn
