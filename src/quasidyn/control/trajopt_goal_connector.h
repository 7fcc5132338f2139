#pragma once
// The planner's goal connection (planning/goal_connector.h) by trajectory optimisation
// (trajectory_optimizer.h; Pang, Suh, Yang & Tedrake, T-RO 2023, §VI-B): from a tree node q,
// goal_connection.iterations iterations of the iterative MPC over goal_connection.horizon steps
// of the planner's own model (stopping once its trust region falls below
// goal_connection.trust_region_min; the log-barrier schedule from goal_connection.kappa_start,
// κ_max raised to it when above), from the initial guess "hold the robots where they are",
// toward the planner's goal with the goal distance's weights (docs/planning.md, "Goal
// connection"):
//
//   object weight w = w_p² on each position coordinate [1/m²], (2 w_r)² on each quaternion
//   coordinate and w_r² on a planar angle [1/rad²]; terminal weight 10 w (the optimiser's
//   default),
//
// so that ‖q_u − g‖²_w ≈ D² near the goal: a rotation by a small angle θ changes a unit
// quaternion by θ/2 (Solà 2017, eq. 101), hence the factor 2. The goal's quaternion is taken
// with the sign of the node's (Q and −Q are one rotation; the cost is not sign-blind). The
// optimiser's penetration tolerance is the planner's.
//
// Connect returns the best iterate's commands when the optimiser accepted at least one
// iteration (its exact cost fell), else nothing; an initial guess whose rollout fails returns
// nothing too. The planner replays what it returns with its own stepper (rrt.h, step 4b).

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/goal_connector.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/rrt.h"

namespace quasidyn {

class TrajoptGoalConnector : public GoalConnector {
 public:
  // `model`: the planner's stepper; `settings`: the query, whose goal_connection must be set
  // (std::invalid_argument otherwise, and for a goal of the wrong size).
  TrajoptGoalConnector(std::shared_ptr<const StepModel> model, const PlanningSettings& settings);

  std::vector<Eigen::VectorXd> Connect(const Eigen::VectorXd& q) override;

  // The optimiser's settings for a connection from q (the goal on q's quaternion signs).
  TrajectoryOptimizerSettings OptimizerSettings(const Eigen::VectorXd& q) const;
  // The last Connect's optimisation (empty before the first, or when its guess failed).
  const OptimizationResult& last_result() const { return last_; }

 private:
  std::shared_ptr<const StepModel> model_;
  PlanningSettings settings_;
  ObjectSpace space_;
  OptimizationResult last_;
};

// The factory of PlannerOptions::goal_connector that makes a TrajoptGoalConnector.
GoalConnectorFactory TrajoptGoalConnectorFactory();

// Sets options->goal_connector to TrajoptGoalConnectorFactory() when the query asks for a goal
// connection (settings.goal_connection), else leaves it empty: what `quasidyn plan`, the
// benchmarks and Python's quasidyn.plan call.
void UseGoalConnection(const PlanningSettings& settings, PlannerOptions* options);

}  // namespace quasidyn
