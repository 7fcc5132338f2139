#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/penetration_meter.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/regrasp_motion.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// The planar hand's 180° plan (seed 3), without substeps so that the model at h reproduces each
// path step (as plan_trajectory_test.cc's HalfTurnPlan), as a reference for TrackPlan.
struct RegraspPlan {
  ScenePtr scene;
  std::shared_ptr<const StepModel> model;
  std::vector<Eigen::VectorXd> q, u;
  std::vector<bool> regrasp;
  double penetration_tolerance = 0.0;
};

const RegraspPlan& RegraspHandHalfTurn() {
  static const RegraspPlan plan = [] {
    RegraspPlan p;
    p.scene = testing::LoadExample("planar_hand");
    PlanningSettings settings = *p.scene->planning;
    settings.max_substeps = 1;
    settings.seed = 3;
    const PlanResult result =
        PlanThroughContact(p.scene, PlanningFormulation(*p.scene, settings), settings);
    const ReplayedPath path = ReplayPlan(p.scene, result);
    p.model = MakeStepModel(p.scene, result.stepping);
    p.q.push_back(path.trajectory.q0);
    for (size_t k = 0; k < path.trajectory.steps.size(); ++k) {
      p.q.push_back(path.trajectory.steps[k].q);
      p.u.push_back(path.trajectory.steps[k].u);
      p.regrasp.push_back(path.step_edges[k] == EdgeKind::kRegrasp);
    }
    p.penetration_tolerance = settings.penetration_tolerance;
    return p;
  }();
  return plan;
}

// The planar hand squeezing its ball on the ground (the scene's squeeze command, 5 steps of
// 0.1 s), and a new grasp of the left finger 0.15 rad lower on the ball, its tip turned in.
struct GroundGrasp {
  std::shared_ptr<const StepModel> model;
  Eigen::VectorXd q_before, q_after, command;
};

GroundGrasp BallOnTheGround() {
  GroundGrasp g;
  ScenePtr scene = testing::LoadExample("planar_hand");
  FormulationChoice choice;
  g.model = MakeStepModel(scene, choice);
  g.command = Eigen::Vector4d(-1.85, 1.55, -1.2916, -1.55);
  auto data = g.model->CreateData();
  State x{scene->q0, Eigen::VectorXd()};
  for (int k = 0; k < 5; ++k) {
    g.model->Calc(x, g.command, data.get());
    EXPECT_TRUE(data->result.ok()) << data->result.message;
    x = data->result.next;
  }
  g.q_before = x.q;
  g.q_after = x.q;
  g.q_after.tail(4).head(2) = Eigen::Vector2d(-1.85 + 0.15, 1.55 - 0.25);
  return g;
}

TEST(RegraspMotion, LiftReachesTheClearanceAndKeepsTheObjects) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings settings;
  RegraspMotion motion(g.model->scene_ptr(), settings);
  ASSERT_EQ(motion.fingers().size(), 2u) << "the planar hand has two fingers";
  EXPECT_EQ(motion.fingers()[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(motion.fingers()[1], (std::vector<int>{2, 3}));
  double distance = 0.0;
  const Eigen::VectorXd lifted = motion.Lift(g.q_before, &distance);
  EXPECT_EQ(lifted.head(3), g.q_before.head(3)) << "a lift moves the robots only";
  EXPECT_GE(distance, settings.clearance * (1.0 - 1e-3));
  EXPECT_GT((lifted - g.q_before).norm(), 0.0) << "the fingers touched the ball: they must move";
  // Measured independently: every robot shape at least c (to 1e-3 c) from the ball, none in
  // the ground.
  PenetrationMeter meter(g.model->scene_ptr());
  EXPECT_LE(meter.Depth(lifted), 1e-9);
}

// A regrasp of the left finger with the ball on the ground: the motion's commands move at most s
// per plant step, end at the new grasp, keep the right finger still, and the plant (the model at
// h) keeps the ball within 1 mm and 0.02 rad (1 mm of rolling at its 5 cm radius: when the left
// finger lets go the ball rolls 0.88 mm along the right one), with no overlap deeper than a
// plan's tolerance (1 mm).
TEST(RegraspMotion, RegraspOnTheGroundKeepsTheBallAndStaysOutOfIt) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings settings;
  RegraspMotion motion(g.model->scene_ptr(), settings);
  const RegraspCommands commands = motion.Plan(g.q_before, g.q_after, g.command);
  EXPECT_EQ(commands.fingers_moved, 1);
  ASSERT_GT(commands.release_steps, 0);
  ASSERT_GT(commands.close_steps, 0);
  EXPECT_GE(commands.min_lifted_distance, settings.clearance * (1.0 - 1e-3));
  Eigen::VectorXd previous = g.command;
  for (const Eigen::VectorXd& c : commands.commands) {
    EXPECT_LE((c - previous).cwiseAbs().maxCoeff(), settings.max_joint_step * (1.0 + 1e-12));
    previous = c;
  }
  EXPECT_EQ(commands.commands.back(), g.q_after.tail(4));
  for (size_t k = commands.release_steps; k < commands.commands.size(); ++k)
    EXPECT_EQ(commands.commands[k].tail(2), g.q_before.tail(2)) << "the right finger holds";

  const std::vector<Eigen::VectorXd> q_ref{g.q_before, g.q_after};
  const std::vector<Eigen::VectorXd> u_ref{g.q_after.tail(4)};
  TrackingSettings tracking;
  tracking.regrasp_steps = {true};
  const TrackingResult result = TrackPlan(*g.model, 1, g.q_before, q_ref, u_ref, nullptr, tracking);
  ASSERT_TRUE(result.message.empty()) << result.message;
  ASSERT_EQ(result.regrasp_records.size(), 1u);
  EXPECT_EQ(result.regrasp_plant_steps, static_cast<int>(commands.commands.size()));
  EXPECT_LE(result.max_regrasp_object_motion, 1e-3);
  EXPECT_LE(result.max_regrasp_object_rotation, 0.02);
  EXPECT_LE(result.max_regrasp_penetration, 1e-3);
  // The same jump sent as one command (what `track` did before) moves the ball further
  // (1.24 mm against 0.88 mm when written).
  const TrackingResult jump = TrackPlan(*g.model, 1, g.q_before, q_ref, u_ref, nullptr);
  EXPECT_EQ(jump.regrasps, 0);
  const ObjectError dragged = ObjectErrorOf(g.model->scene(), jump.q.back(), g.q_before);
  EXPECT_GT(dragged.position, result.max_regrasp_object_motion);
}

// A regrasp begun where the plant is, not where the plan is: with the ball 2 cm off, its lifts
// and transfer keep clear of the measured ball, which a motion planned from the plan's ball
// sweeps through; with the robots 0.05 rad off, its hold commands the measured robots (no
// squeeze); with measured = q_before it is the plan's motion.
TEST(RegraspMotion, StartsFromTheMeasuredConfiguration) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings settings;
  RegraspMotion motion(g.model->scene_ptr(), settings);
  const RegraspCommands planned = motion.Plan(g.q_before, g.q_after, g.command);
  const RegraspCommands same = motion.Plan(g.q_before, g.q_after, g.command, g.q_before);
  ASSERT_EQ(same.commands.size(), planned.commands.size());
  for (size_t k = 0; k < planned.commands.size(); ++k)
    EXPECT_EQ(same.commands[k], planned.commands[k]) << "command " << k;

  PenetrationMeter meter(g.model->scene_ptr());
  // The deepest overlap of the transfer's commands (the moving finger lifted off, on its way to
  // the new grasp) with the ball at `ball`'s pose.
  auto deepest = [&](const RegraspCommands& c, const Eigen::VectorXd& ball) {
    double depth = 0.0;
    Eigen::VectorXd q = ball;
    for (int k = c.release_steps; k < c.release_steps + c.transfer_steps; ++k) {
      q.tail(4) = c.commands[k];
      depth = std::max(depth, meter.Depth(q));
    }
    return depth;
  };
  // The ball 2 cm toward the moving (left) finger: that finger's transfer planned from the
  // plan's ball runs 8.9 mm into it (when written); from the measured ball it keeps clear, to
  // the lifts' tolerance (a thousandth of the clearance).
  Eigen::VectorXd moved = g.q_before;
  moved(0) -= 0.02;
  const RegraspCommands from_plant = motion.Plan(g.q_before, g.q_after, g.command, moved);
  ASSERT_TRUE(from_plant.ok) << from_plant.message;
  EXPECT_EQ(from_plant.fingers_moved, 1) << "the plan's regrasp moves one finger";
  EXPECT_GE(from_plant.min_lifted_distance, settings.clearance * (1.0 - 1e-3));
  EXPECT_LE(deepest(from_plant, moved), 1e-3 * settings.clearance);
  EXPECT_GT(deepest(planned, moved), 1e-3) << "the plan's motion sweeps through the moved ball";
  EXPECT_EQ(from_plant.commands.back(), g.q_after.tail(4)) << "it ends at the plan's grasp";
  // The robots measured 0.05 rad off the plan's: the hold ends at them.
  Eigen::VectorXd measured = g.q_before;
  measured.tail(4).array() += 0.05;
  const RegraspCommands held = motion.Plan(g.q_before, g.q_after, g.command, measured);
  const Eigen::VectorXd hold = measured.tail(4) - g.command;
  const int hold_steps =
      static_cast<int>(std::ceil(hold.cwiseAbs().maxCoeff() / settings.max_joint_step));
  ASSERT_GE(held.release_steps, hold_steps);
  EXPECT_TRUE(held.commands[hold_steps - 1].isApprox(measured.tail(4), 1e-12))
      << "the hold ends at the measured robots";
}

// The planner's 180° path run on the model itself: the segment before the first regrasp is the
// plan's (same model, same commands), open and closed loop (the stabiliser sends u_ref on the
// reference); every regrasp is executed, never deeper in a shape than the plan's tolerance, and
// the stabiliser is not asked for a regrasp step.
TEST(TrackPlan, ExecutesThePlannersRegraspsAndMatchesThePlanBeforeThem) {
  const RegraspPlan& plan = RegraspHandHalfTurn();
  const int regrasps = static_cast<int>(std::count(plan.regrasp.begin(), plan.regrasp.end(), true));
  ASSERT_GT(regrasps, 0) << "the plan has no regrasp: the test would not test them";
  const int first = static_cast<int>(std::find(plan.regrasp.begin(), plan.regrasp.end(), true) -
                                     plan.regrasp.begin());
  ASSERT_GT(first, 0);
  TrackingSettings tracking;
  tracking.regrasp_steps = plan.regrasp;
  const TrackingResult open =
      TrackPlan(*plan.model, 1, plan.q[0], plan.q, plan.u, nullptr, tracking);
  ASSERT_TRUE(open.message.empty()) << open.message;
  EXPECT_EQ(open.regrasps, regrasps);
  ASSERT_EQ(open.q.size(), plan.q.size());
  for (int k = 0; k <= first; ++k)
    EXPECT_LE((open.q[k] - plan.q[k]).cwiseAbs().maxCoeff(), 1e-9) << "step " << k;
  EXPECT_LE(open.max_regrasp_penetration, plan.penetration_tolerance);
  for (const RegraspRecord& r : open.regrasp_records) {
    EXPECT_TRUE(plan.regrasp[r.step]);
    EXPECT_GE(r.fingers_moved, 1);
  }

  StabilizerSettings settings;
  settings.regrasp_steps = plan.regrasp;
  settings.open_loop_where_linearization_fails = true;
  Stabilizer stabilizer(plan.model, plan.q, plan.u, settings);
  EXPECT_THROW(stabilizer.Command(first, plan.q[first]), std::invalid_argument);
  const TrackingResult closed =
      TrackPlan(*plan.model, 1, plan.q[0], plan.q, plan.u, &stabilizer, tracking);
  ASSERT_TRUE(closed.message.empty()) << closed.message;
  EXPECT_EQ(closed.regrasps, regrasps);
  // Solver-tolerance agreement: the QP's δu on the reference is zero to its stopping error.
  for (int k = 0; k <= first; ++k)
    EXPECT_LE((closed.q[k] - plan.q[k]).cwiseAbs().maxCoeff(), 1e-6) << "step " << k;
}

// regrasp_jump (the diagnostic): on the planner's own model at its h the plan is its model's
// steps with the planner's resets, so jumping the robots to each new grasp reproduces the whole
// plan open loop, regrasps included, to rounding; no plant step is spent on a regrasp. With the
// motions instead the run leaves the plan after the first regrasp (a control that the jump is
// what makes the difference).
TEST(TrackPlan, RegraspJumpReproducesThePlanOnItsOwnModel) {
  const RegraspPlan& plan = RegraspHandHalfTurn();
  const int regrasps = static_cast<int>(std::count(plan.regrasp.begin(), plan.regrasp.end(), true));
  ASSERT_GT(regrasps, 0) << "the plan has no regrasp: the test would not test them";
  TrackingSettings tracking;
  tracking.regrasp_steps = plan.regrasp;
  tracking.regrasp_jump = true;
  const TrackingResult jumped =
      TrackPlan(*plan.model, 1, plan.q[0], plan.q, plan.u, nullptr, tracking);
  ASSERT_TRUE(jumped.message.empty()) << jumped.message;
  EXPECT_EQ(jumped.regrasps, regrasps);
  EXPECT_EQ(jumped.regrasp_plant_steps, 0);
  ASSERT_EQ(jumped.regrasp_records.size(), static_cast<size_t>(regrasps));
  ASSERT_EQ(jumped.q.size(), plan.q.size());
  double deviation = 0.0;
  for (size_t k = 0; k < plan.q.size(); ++k)
    deviation = std::max(deviation, (jumped.q[k] - plan.q[k]).cwiseAbs().maxCoeff());
  EXPECT_LE(deviation, 1e-9);
  for (const RegraspRecord& r : jumped.regrasp_records) {
    EXPECT_TRUE(plan.regrasp[r.step]);
    EXPECT_GE(r.fingers_moved, 1);
    EXPECT_EQ(r.plant_steps, 0);
    // The robots at the plan's new grasp, the objects where the plant had them (the plan's).
    EXPECT_EQ(jumped.q[r.step + 1].tail(plan.model->scene().nq_a),
              plan.q[r.step + 1].tail(plan.model->scene().nq_a));
  }
  tracking.regrasp_jump = false;
  const TrackingResult moved =
      TrackPlan(*plan.model, 1, plan.q[0], plan.q, plan.u, nullptr, tracking);
  ASSERT_TRUE(moved.message.empty()) << moved.message;
  double moved_deviation = 0.0;
  for (size_t k = 0; k < moved.q.size(); ++k)
    moved_deviation = std::max(moved_deviation, (moved.q[k] - plan.q[k]).cwiseAbs().maxCoeff());
  EXPECT_GT(moved_deviation, 1e3 * std::max(deviation, 1e-12));
}

// A lift that cannot reach its clearance (1 m: farther than any point of a finger gets from
// the ball) stops after max_lift_iterations Gauss–Newton steps and reports the distance it
// reached, below the clearance.
TEST(RegraspMotion, AnUnreachableLiftStopsAtItsIterationLimit) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings settings;
  settings.clearance = 1.0;
  settings.max_lift_iterations = 25;
  RegraspMotion motion(g.model->scene_ptr(), settings);
  double distance = 0.0;
  int iterations = -1;
  motion.Lift(g.q_before, &distance, &iterations);
  EXPECT_EQ(iterations, settings.max_lift_iterations);
  EXPECT_LT(distance, settings.clearance);
}

// The left finger's new grasp is its posture wound by 40 turns of its base joint (the same
// shapes; revolute joints without limits allow it, and the contact sampler's grasps had such
// windings: 250 rad on the planar hand). Its transfer alone needs 2π·40 / s = 5027 plant steps,
// each a Lift: the motion is refused before those Lifts (only r_old and r_new were lifted),
// with a message, and a tracked plan with that regrasp stops there with the message. The same
// grasp unwound is planned; with max_motion_steps one below its length it is refused, at its
// length it is not.
TEST(RegraspMotion, AWoundGraspIsRefusedBeforeItsLifts) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings settings;
  RegraspMotion motion(g.model->scene_ptr(), settings);
  Eigen::VectorXd wound = g.q_after;
  wound(wound.size() - 4) += 40 * 2 * std::acos(-1.0);
  const RegraspCommands refused = motion.Plan(g.q_before, wound, g.command);
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(refused.commands.empty());
  EXPECT_NE(refused.message.find("max_motion_steps"), std::string::npos) << refused.message;
  EXPECT_LE(refused.lift_iterations, 2 * settings.max_lift_iterations);

  const std::vector<Eigen::VectorXd> q_ref{g.q_before, wound};
  const std::vector<Eigen::VectorXd> u_ref{wound.tail(4)};
  TrackingSettings tracking;
  tracking.regrasp_steps = {true};
  const TrackingResult tracked =
      TrackPlan(*g.model, 1, g.q_before, q_ref, u_ref, nullptr, tracking);
  EXPECT_EQ(tracked.status, SolverStatus::kMaxIterations);
  EXPECT_NE(tracked.message.find("regrasp at plan step 0"), std::string::npos) << tracked.message;
  EXPECT_EQ(tracked.regrasp_plant_steps, 0);

  const RegraspCommands planned = motion.Plan(g.q_before, g.q_after, g.command);
  ASSERT_TRUE(planned.ok) << planned.message;
  const int length = static_cast<int>(planned.commands.size());
  for (const int limit : {length - 1, length}) {
    RegraspMotionSettings capped = settings;
    capped.max_motion_steps = limit;
    RegraspMotion capped_motion(g.model->scene_ptr(), capped);
    const RegraspCommands result = capped_motion.Plan(g.q_before, g.q_after, g.command);
    EXPECT_EQ(result.ok, limit == length) << "limit " << limit;
    if (result.ok) {
      EXPECT_EQ(result.commands, planned.commands);
    }
  }
}

TEST(RegraspMotion, RejectsBadInput) {
  const GroundGrasp g = BallOnTheGround();
  RegraspMotionSettings bad;
  bad.clearance = 0.0;
  EXPECT_THROW(RegraspMotion(g.model->scene_ptr(), bad), std::invalid_argument);
  bad = RegraspMotionSettings();
  bad.max_joint_step = std::nan("");
  EXPECT_THROW(RegraspMotion(g.model->scene_ptr(), bad), std::invalid_argument);
  bad = RegraspMotionSettings();
  bad.max_motion_steps = 0;
  EXPECT_THROW(RegraspMotion(g.model->scene_ptr(), bad), std::invalid_argument);
  RegraspMotion motion(g.model->scene_ptr(), RegraspMotionSettings());
  EXPECT_THROW(motion.Plan(g.q_before.head(3), g.q_after, g.command), std::invalid_argument);
  // The measured configuration: of n_q numbers, finite; the message names it.
  Eigen::VectorXd not_finite = g.q_before;
  not_finite(0) = std::nan("");
  for (const Eigen::VectorXd& measured : {Eigen::VectorXd(g.q_before.head(3)), not_finite}) {
    try {
      motion.Plan(g.q_before, g.q_after, g.command, measured);
      ADD_FAILURE() << "a bad measured configuration was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("measured"), std::string::npos) << e.what();
    }
  }
  const std::vector<Eigen::VectorXd> q_ref{g.q_before, g.q_after};
  const std::vector<Eigen::VectorXd> u_ref{g.q_after.tail(4)};
  TrackingSettings tracking;
  tracking.regrasp_steps = {true, false};
  EXPECT_THROW(TrackPlan(*g.model, 1, g.q_before, q_ref, u_ref, nullptr, tracking),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
