#pragma once
// Goal connection (docs/planning.md, "Goal connection"): a local steering function the planner
// (rrt.h) asks, from a node that has just become the nearest to the goal, for a short sequence of
// commands that brings the objects to the goal. The planner replays the commands with its own
// stepper as a chain of one-step extend edges (edge_stepper.h: the same overlap checks and
// substeps as any extension), so the tree holds only states the simulator produced, whatever
// the connector predicted. The planning layer defines the interface only; the trajectory
// optimiser's implementation sits in the control layer (control/trajopt_goal_connector.h), and
// a caller that wants it passes a factory in PlannerOptions::goal_connector.

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <vector>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class GoalConnector {
 public:
  virtual ~GoalConnector() = default;
  // Commands u_0 … u_{T−1} (each of the model's control size, one step of h each) from the
  // configuration q (size n_q) toward the planner's goal; empty when the connector found none
  // (the planner then adds no node). Must not throw for a configuration the stepper produced.
  virtual std::vector<Eigen::VectorXd> Connect(const Eigen::VectorXd& q) = 0;
};

// Makes the connector of one planner run: `model` is the planner's own stepper (formulation and
// time step h), `settings` the query (goal, weights, goal_connection). Called once, when the
// planner starts and settings.goal_connection is set.
using GoalConnectorFactory = std::function<std::unique_ptr<GoalConnector>(
    std::shared_ptr<const StepModel> model, const PlanningSettings& settings)>;

}  // namespace quasidyn
