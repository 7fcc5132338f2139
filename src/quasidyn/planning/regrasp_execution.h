#pragma once
// A regrasp the plant can execute (docs/planning.md, "Regrasps the plant can execute";
// PlanningSettings::regrasp = physical).
//
// The contact sampler (contact_sampler.h) proposes a new grasp g with the objects held still by
// a mass scale while it settles; a plant has no such scale, so jumping the robots to g is not a
// motion it can make, and with fewer fingers on the ball while one moves, the ball may fall. A
// physical regrasp therefore executes the candidate on the planner's own exact stepper with the
// objects free: the commands of RegraspMotion::Plan (regrasp_motion.h: relax the squeeze, then
// finger by finger lift off, transfer clear of the objects, close on g, settle), one step of h
// each, each command sent through StepModel::CommandToward from the state the previous step
// reached, the warm start cleared at every step (edge_stepper.h) so that a replay
// (plan_path.h) is a function of the recorded commands alone and reproduces the state bit for
// bit. What the remaining contacts, gravity and the support do to the objects meanwhile is the
// stepper's to say; the planner keeps the state reached, and refuses a candidate whose objects
// moved by more than a tolerance (they were not held) or whose steps overlap two shapes deeper
// than the planner allows.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/planning/edge_stepper.h"
#include "quasidyn/planning/regrasp_motion.h"

namespace quasidyn {

struct ExecutedRegrasp {
  bool ok = false;    // the motion was planned (RegraspCommands::ok) and every step solved
  Eigen::VectorXd q;  // the configuration reached (size n_q); the start's when no step ran
  std::vector<Eigen::VectorXd> commands;  // the commands sent, one per step (size n_q,a each)
  double depth = 0.0;   // the deepest overlap at the end of a step [m] (0 without depth checks)
  std::string message;  // the failed step's message when !ok
};

// Executes the regrasp from q_from (the node's configuration) to the candidate q_grasp (the same
// objects, the new grasp in its q_a) with `edges` (the planner's stepper; its model's command
// kind decides CommandToward), starting from `last_target`, the robots' last commanded
// positions (size n_q,a). std::invalid_argument on sizes.
ExecutedRegrasp ExecuteRegrasp(EdgeStepper* edges, RegraspMotion* motion,
                               const Eigen::VectorXd& q_from, const Eigen::VectorXd& q_grasp,
                               const Eigen::VectorXd& last_target);

// The robots' last commanded positions at a node reached by an edge with command `u` at
// configuration q: u itself for a position command, q's q_a otherwise (a velocity command holds
// no position).
Eigen::VectorXd LastTargetOf(const StepModel& model, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& u);

}  // namespace quasidyn
