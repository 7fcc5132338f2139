#include "quasidyn/control/trajopt_goal_connector.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

TrajoptGoalConnector::TrajoptGoalConnector(std::shared_ptr<const StepModel> model,
                                           const PlanningSettings& settings)
    : model_(std::move(model)), settings_(settings), space_(model_->scene()) {
  QUASIDYN_CHECK_ARGUMENT(settings_.goal_connection.has_value(), "TrajoptGoalConnector",
                          "the planning settings have no goal_connection");
  CheckVector("TrajoptGoalConnector", "goal", settings_.goal, space_.coordinate_size(),
              "n_q,u (the objects' coordinates)");
}

TrajectoryOptimizerSettings TrajoptGoalConnector::OptimizerSettings(
    const Eigen::VectorXd& q) const {
  const GoalConnectionSettings& c = *settings_.goal_connection;
  TrajectoryOptimizerSettings s;
  s.horizon = c.horizon;
  s.iterations = c.iterations;
  s.trust_region_min = c.trust_region_min;
  s.smoothing.kappa_start = c.kappa_start;
  s.smoothing.kappa_max = std::max(s.smoothing.kappa_max, c.kappa_start);
  s.penetration_tolerance = settings_.penetration_tolerance;
  s.object_goal = settings_.goal;
  s.object_weight = space_.CoordinateWeights(settings_);
  for (const ObjectSpace::Block& block : space_.blocks()) {  // the goal's quaternion on q's side
    const int i = block.q_start;
    if (block.floating && q.segment(i + 3, 4).dot(s.object_goal.segment(i + 3, 4)) < 0.0)
      s.object_goal.segment(i + 3, 4) *= -1.0;
  }
  return s;
}

std::vector<Eigen::VectorXd> TrajoptGoalConnector::Connect(const Eigen::VectorXd& q) {
  last_ = OptimizationResult();
  const TrajectoryOptimizerSettings s = OptimizerSettings(q);
  const Eigen::VectorXd hold = model_->HoldingCommand(State{q, Eigen::VectorXd()});
  try {
    TrajectoryOptimizer optimizer(model_, s);
    last_ = optimizer.Optimize(q, std::vector<Eigen::VectorXd>(s.horizon, hold));
  } catch (const std::invalid_argument&) {
    return {};  // the held guess's rollout failed: no cost to improve on
  }
  if (!(last_.best_cost < last_.initial_cost)) return {};
  return last_.u;
}

GoalConnectorFactory TrajoptGoalConnectorFactory() {
  return [](std::shared_ptr<const StepModel> model, const PlanningSettings& settings) {
    return std::unique_ptr<GoalConnector>(
        std::make_unique<TrajoptGoalConnector>(std::move(model), settings));
  };
}

void UseGoalConnection(const PlanningSettings& settings, PlannerOptions* options) {
  if (settings.goal_connection) options->goal_connector = TrajoptGoalConnectorFactory();
}

}  // namespace quasidyn
