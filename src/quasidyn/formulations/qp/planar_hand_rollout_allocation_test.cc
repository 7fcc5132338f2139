// The QP step along a planar-hand rollout (examples/planar_hand from q0, its fingers opened and
// closed twice) whose contact count changes between steps: once a first run of the same rollout
// has met every size, a second run allocates nothing (MallocCounter) while the contact count
// still changes, so the QP's set-up for a new row count (QpSolver::Setup, the polish's, the warm
// start's) reuses its storage (solvers/sized_storage_pool.h).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

constexpr int kSteps = 120;       // 1.2 s at h = 0.01 s: two openings of the fingers
constexpr double kOpening = 0.3;  // rad, each base joint turned outwards at the widest

struct HandRollout {
  std::shared_ptr<const StepModel> model;
  State x0;                               // the scene's initial state
  std::vector<Eigen::VectorXd> commands;  // u_k = CommandAt((k + 1) h), made before counting
};

// The fingers open and close twice: the command swings between the schedule's squeeze (its
// last waypoint) and the same with both base joints turned `opening` outwards, so the
// fingertips leave the ball (beyond the contact tolerance) and come back.
HandRollout MakeHandRollout(double opening) {
  HandRollout rollout;
  rollout.model = MakeStepModel(testing::LoadExample("planar_hand"), FormulationChoice("qp"));
  const Scene& scene = rollout.model->scene();
  rollout.x0 = InitialState(*rollout.model);
  const Eigen::VectorXd squeeze = scene.CommandAt(1.0);
  Eigen::VectorXd open = squeeze;
  open[0] -= opening;  // left_base
  open[2] += opening;  // right_base
  for (int k = 0; k < kSteps; ++k) {
    const double phase = std::abs(std::fmod(2.0 * k / (kSteps / 2.0), 2.0) - 1.0);  // 1 → 0 → 1
    rollout.commands.push_back(squeeze + (1.0 - phase) * (open - squeeze));
  }
  return rollout;
}

// The rollout from q0 into *x with a cleared warm start; the contact count of each step into
// *contacts.
void RunHandRollout(const HandRollout& rollout, StepData* data, State* x,
                    std::vector<int>* contacts) {
  const StepModel& model = *rollout.model;
  model.ClearWarmStart(data);
  *x = rollout.x0;  // same size: storage reused
  contacts->clear();
  for (const Eigen::VectorXd& u : rollout.commands) {
    model.Calc(*x, u, data);
    if (!data->result.ok()) return;
    contacts->push_back(static_cast<int>(data->result.contacts.size()));
    *x = data->result.next;  // same size: storage reused
  }
}

TEST(PlanarHandQpRollout, AWarmRolloutAllocatesNothingWhileItsContactsChange) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const HandRollout rollout = MakeHandRollout(kOpening);
  const std::unique_ptr<StepData> data = rollout.model->CreateData();
  State x = rollout.x0;
  std::vector<int> contacts;
  contacts.reserve(kSteps);
  RunHandRollout(rollout, data.get(), &x,
                 &contacts);  // warm-up: every buffer meets the run's sizes
  ASSERT_EQ(contacts.size(), static_cast<size_t>(kSteps)) << data->result.message;
  long allocations = 0;
  {
    testing::MallocCounter counter;
    RunHandRollout(rollout, data.get(), &x, &contacts);
    allocations = counter.count();
  }
  ASSERT_EQ(contacts.size(), static_cast<size_t>(kSteps)) << data->result.message;
  // The test means something only if the QP is set up again for other row counts (9 changes
  // among 1 and 3 contacts when written).
  int changes = 0;
  for (size_t k = 1; k < contacts.size(); ++k) changes += contacts[k] != contacts[k - 1];
  const std::set<int> counts(contacts.begin(), contacts.end());
  EXPECT_GE(counts.size(), 2u);
  EXPECT_GE(changes, 4);
  EXPECT_EQ(allocations, 0) << changes << " changes of the contact count in " << kSteps << " steps";
}

}  // namespace
}  // namespace quasidyn
