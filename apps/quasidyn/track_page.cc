#include "track_page.h"

#include <stdexcept>

#include "quasidyn/planning/object_space.h"
#include "quasidyn/viewer/execution_page.h"

namespace quasidyn::cli {

void WriteTrackPage(const Scene& plant_scene, const Scene& model_scene, const Trajectory& plant,
                    const std::vector<TrackedPlan>& plans,
                    const std::optional<PlanningSettings>& planning, const std::string& notes,
                    const std::string& path) {
  std::optional<ObjectSpace> objects;
  if (planning) objects.emplace(model_scene);
  auto distances = [&](const std::vector<Eigen::VectorXd>& q) {
    std::vector<double> d;
    if (objects)
      for (const Eigen::VectorXd& q_j : q)
        d.push_back(objects->GoalDistance(q_j, planning->goal, *planning));
    return d;
  };
  ExecutionView view;
  view.plant = &plant;
  std::vector<Eigen::VectorXd> plant_q{plant.q0};
  for (const TrajectoryStep& step : plant.steps) plant_q.push_back(step.q);
  view.plant_distance = distances(plant_q);
  if (planning) view.goal_tolerance = planning->goal_tolerance;
  int start_step = 0;  // the plant's control step at which the plan began
  for (const TrackedPlan& tracked : plans) {
    if (tracked.q == nullptr) throw std::invalid_argument("track --html: a plan without steps");
    ExecutedPlan plan;
    plan.q = *tracked.q;
    plan.start_time = start_step * plant.time_step;
    plan.time_step = plant.time_step;  // the plant's run is recorded at the plan's steps
    plan.steps_run = tracked.steps_run;
    plan.found = tracked.found;
    plan.distance = distances(plan.q);
    plan.max_penetration = tracked.max_penetration;
    view.plans.push_back(std::move(plan));
    start_step += tracked.steps_run;
  }
  view.notes = notes;
  WriteExecutionHtml(plant_scene, view, path);
}

}  // namespace quasidyn::cli
