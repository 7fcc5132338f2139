#include "quasidyn/control/contact_mpc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using Eigen::VectorXd;

ScenePtr PointRobotWalls() {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/point_robot_walls/scene.yaml"));
}

State At(double x, double y, double vx, double vy) {
  State s;
  s.q = (VectorXd(2) << x, y).finished();
  s.v = (VectorXd(2) << vx, vy).finished();
  return s;
}

std::shared_ptr<const StepModel> Plant(const ScenePtr& scene, std::string type) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = type;
  return MakeStepModel(scene, settings);
}

TEST(ContactMpcTest, LinearModelOfTheExampleHasTheThreeWalls) {
  const ScenePtr scene = PointRobotWalls();
  ContactMpc mpc(scene, *scene->mpc);
  MpcLinearModel model;
  ASSERT_TRUE(testing::IsOk(mpc.Linearize(At(-2, -4, 0, 0), &model)));
  // The carriage (0.01 kg) moves with x only, the tip (1 kg) with x and y.
  EXPECT_NEAR(model.mass(0, 0), 1.01, 1e-12);
  EXPECT_NEAR(model.mass(1, 1), 1.0, 1e-12);
  EXPECT_NEAR(model.mass(0, 1), 0.0, 1e-12);
  EXPECT_LE(model.free_force.lpNorm<Eigen::Infinity>(), 1e-12);  // no gravity in the plane
  ASSERT_EQ(model.contacts.size(), 3u);
  // The walls' gaps from the centre (−2, −4), radius 0.05: right 0.55, left 3.0, floor 2.0,
  // with the normals pointing into the free region.
  int found = 0;
  for (const MpcContact& c : model.contacts) {
    const Eigen::Vector2d n = c.normal.transpose();
    EXPECT_NEAR(c.friction, 0.5, 1e-12);
    if (n.isApprox(Eigen::Vector2d(-1, 0), 1e-9)) found += std::abs(c.phi - 0.55) < 1e-9;
    if (n.isApprox(Eigen::Vector2d(1, 0), 1e-9)) found += std::abs(c.phi - 3.0) < 1e-9;
    if (n.isApprox(Eigen::Vector2d(0, 1), 1e-9)) found += std::abs(c.phi - 2.0) < 1e-9;
    EXPECT_EQ(c.rays.rows(), 2);
  }
  EXPECT_EQ(found, 3);
}

TEST(ContactMpcTest, ThePlantLandsOnThePredictedStateUnderTheSetpoint) {
  // Toward the right wall and sliding down it, so that the first step's answer has contact
  // impulses; the setpoint of τ_0 at x̂_1 must make the plant (stewart-trinkle: the same LCP,
  // Lemke) land on x̂_1 and feel τ_0.
  const ScenePtr scene = PointRobotWalls();
  MpcSettings settings = *scene->mpc;
  settings.horizon = 5;
  ContactMpc mpc(scene, settings);
  const auto plant = Plant(scene, "stewart-trinkle");
  const auto data = plant->CreateData();
  for (const State& x :
       {At(-1.55, -4.5, 1.2, -0.6), At(-1.45, -4.8, 0.3, -0.9), At(-2.5, -4, 0.5, 0)}) {
    const MpcStep& answer = mpc.Solve(x);
    ASSERT_TRUE(answer.has_solution) << answer.message;
    plant->Calc(x, answer.command, data.get());
    ASSERT_TRUE(data->result.ok()) << data->result.message;
    const VectorXd predicted = answer.states[0];
    const State& next = data->result.next;
    const double tolerance = 1e-6;
    EXPECT_LE((next.q - predicted.head(2)).lpNorm<Eigen::Infinity>(), tolerance)
        << "x = " << x.q.transpose() << " " << x.v.transpose();
    EXPECT_LE((next.v - predicted.tail(2)).lpNorm<Eigen::Infinity>(), tolerance);
    // The impedance's force at the plant's end state is τ_0.
    const VectorXd force =
        mpc.stiffness().cwiseProduct(answer.command - next.q) - mpc.damping().cwiseProduct(next.v);
    EXPECT_LE((force - answer.force).lpNorm<Eigen::Infinity>(), 1e-4 * (1 + force.norm()));
  }
}

TEST(ContactMpcTest, ClosedLoopReachesTheWallNearestTheTargetAndStaysOnIt) {
  // The notes' run with N = 5: from (−2, −4) toward (3, −5) behind the right wall (x <= −1.45).
  // The short horizon (0.5 s) accelerates slowly: the robot reaches the wall after about 4 s,
  // where the impact stops it, and then creeps down it toward y = −5 (R = 10 makes force dear).
  const ScenePtr scene = PointRobotWalls();
  MpcSettings settings = *scene->mpc;
  settings.horizon = 5;
  ContactMpc mpc(scene, settings);
  const auto plant = Plant(scene, "stewart-trinkle");
  MpcRunOptions options;
  options.steps = 160;
  const MpcRun run = RunMpc(*plant, &mpc, InitialState(*plant), options);
  ASSERT_TRUE(run.completed()) << run.message;
  ASSERT_EQ(run.steps.size(), 160u);
  for (const MpcRunStep& s : run.steps) EXPECT_TRUE(s.has_solution) << ToString(s.status);
  const TrajectoryStep& last = run.trajectory.steps.back();
  EXPECT_NEAR(last.q[0], -1.45, 1e-6);   // at the wall, never through it
  EXPECT_LE(std::abs(last.v[0]), 1e-6);  // on it, sliding down
  EXPECT_LT(last.q[1], -4.7);
  EXPECT_GT(last.q[1], -5.0);
  for (const TrajectoryStep& s : run.trajectory.steps) EXPECT_LE(s.q[0], -1.45 + 1e-6);
  // The target's x is out of reach: each of the N + 1 state terms of J* costs at least
  // (3 − (−1.45))² (Q = I), a floor J* never goes below; of what lies above that floor at the
  // start, less than a tenth is left.
  const double floor = (settings.horizon + 1) * std::pow(3.0 + 1.45, 2);
  const double tolerance = 1e-9 * floor;
  for (const MpcRunStep& s : run.steps) EXPECT_GE(s.cost, floor - tolerance);
  EXPECT_LT(run.steps.back().cost - floor, 0.1 * (run.steps.front().cost - floor));
}

TEST(ContactMpcTest, EachSolveSeedsThePseudoCostsOfTheNextShiftedByOneStep) {
  const ScenePtr scene = PointRobotWalls();
  MpcSettings settings = *scene->mpc;
  settings.horizon = 5;
  ContactMpc mpc(scene, settings);
  const State x = At(-1.6, -4, 1.2, -0.5);  // closing on the right wall: the tree branches
  const MpcStep first = mpc.Solve(x);
  ASSERT_TRUE(first.has_solution) << first.message;
  EXPECT_EQ(mpc.pseudo_cost_seed(), nullptr);  // nothing before the first solve
  const MiqpPseudoCosts measured = mpc.pseudo_costs();
  const int ng = mpc.miqp().layout.ngamma, N = settings.horizon;
  ASSERT_GT(ng, 0);
  int branchings = 0;
  for (int d = 0; d < 2; ++d) {
    for (const int count : measured.count[d]) branchings += count;
  }
  ASSERT_GT(branchings, 0) << "the first tree must branch, else the seed is not exercised";
  const MpcStep& second = mpc.Solve(x);
  ASSERT_TRUE(second.has_solution) << second.message;
  const MiqpPseudoCosts* seed = mpc.pseudo_cost_seed();
  ASSERT_NE(seed, nullptr);
  for (int d = 0; d < 2; ++d) {
    ASSERT_EQ(seed->sum[d].size(), static_cast<size_t>(N * ng));
    for (int k = 0; k < N; ++k) {
      const int from = std::min(k + 1, N - 1);  // the last step repeats
      for (int g = 0; g < ng; ++g) {
        EXPECT_EQ(seed->sum[d][k * ng + g], measured.sum[d][from * ng + g]);
        EXPECT_EQ(seed->count[d][k * ng + g], measured.count[d][from * ng + g]);
      }
    }
  }
  // The same state, so the same optimum within the MIQP's gap tolerance.
  const double tolerance = std::max(settings.absolute_gap, settings.relative_gap * first.cost);
  EXPECT_NEAR(second.cost, first.cost, tolerance);
  mpc.Reset();
  ASSERT_TRUE(mpc.Solve(x).has_solution);
  EXPECT_EQ(mpc.pseudo_cost_seed(), nullptr);
}

TEST(ContactMpcTest, BoundsThatCannotBeMetGiveInfeasibleAndTheRunGoesOn) {
  // A velocity box the robot is far outside of: no first step can enter it (|Δv| <= the force
  // and impulse bounds allow), so every MIQP is infeasible; the controller sends the zero-force
  // setpoint and the run continues.
  const ScenePtr scene = PointRobotWalls();
  MpcSettings settings = *scene->mpc;
  settings.horizon = 3;
  settings.state_lower[2] = 1.0;  // ẋ >= 1 m/s while ẋ = 0 and |τ| <= 5 N over 0.1 s
  ContactMpc mpc(scene, settings);
  const MpcStep& answer = mpc.Solve(At(-2, -4, 0, 0));
  EXPECT_EQ(answer.status, MiqpStatus::kInfeasible) << answer.message;
  EXPECT_FALSE(answer.has_solution);
  EXPECT_EQ(answer.force, VectorXd::Zero(2));
  EXPECT_EQ(answer.command, (VectorXd(2) << -2, -4).finished());  // at rest: the position
  const auto plant = Plant(scene, "anitescu");
  MpcRunOptions options;
  options.steps = 2;
  const MpcRun run = RunMpc(*plant, &mpc, At(-2, -4, 0, 0), options);
  EXPECT_TRUE(run.completed());
  EXPECT_EQ(run.steps.size(), 2u);
  EXPECT_EQ(run.steps[0].status, MiqpStatus::kInfeasible);
}

TEST(ContactMpcTest, BadInputNamesTheField) {
  const ScenePtr scene = PointRobotWalls();
  const auto expect = [&](const MpcSettings& s, const std::string& what) {
    try {
      ContactMpc mpc(scene, s);
      FAIL() << "expected std::invalid_argument with " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  MpcSettings s = *scene->mpc;
  s.horizon = 0;
  expect(s, "horizon");
  s = *scene->mpc;
  s.target.resize(3);
  expect(s, "target");
  s = *scene->mpc;
  s.force_lower.resize(0);
  expect(s, "bounds.force_lower");
  s = *scene->mpc;
  s.state_weight[0] = -1;
  expect(s, "weights.state");
  ContactMpc mpc(scene, *scene->mpc);
  EXPECT_THROW(mpc.Solve(State{VectorXd::Zero(3), VectorXd::Zero(2)}), std::invalid_argument);
  // A quasi-dynamic plant has no velocity: RunMpc says so.
  const auto quasi = Plant(scene, "qp");
  MpcRunOptions options;
  options.steps = 1;
  try {
    RunMpc(*quasi, &mpc, At(-2, -4, 0, 0), options);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("velocity"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
