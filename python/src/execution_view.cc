#include "execution_view.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/planning_overrides.h"

namespace quasidyn::python {
namespace {

// q_0 … q_T of a trajectory that records every step (else std::invalid_argument naming `what`).
std::vector<Eigen::VectorXd> Configurations(const Trajectory& trajectory, const std::string& what) {
  std::vector<Eigen::VectorXd> q{trajectory.q0};
  for (size_t j = 0; j < trajectory.steps.size(); ++j) {
    const TrajectoryStep& step = trajectory.steps[j];
    if (step.k != static_cast<int>(j) + 1)
      throw std::invalid_argument(what + ": its record " + std::to_string(j) + " is step " +
                                  std::to_string(step.k) +
                                  "; a plan must record every step (no `every`)");
    q.push_back(step.q);
  }
  return q;
}

// The deepest overlap [m] of the run's recorded contacts at the starts of its steps that end in
// (from, until] [s].
double DeepestOverlap(const Trajectory& run, double from, double until) {
  const double slack = 1e-9 * std::max(run.time_step, 1e-300);
  double deepest = 0.0;
  for (const TrajectoryStep& step : run.steps) {
    if (step.t <= from + slack || step.t > until + slack) continue;
    for (const ContactRecord& contact : step.contacts)
      deepest = std::max(deepest, -contact.phi_start);
  }
  return deepest;
}

}  // namespace

ExecutionView ExecutionViewOf(const Scene& scene, const Trajectory& plant,
                              const std::vector<std::shared_ptr<Trajectory>>& plans,
                              const std::optional<std::vector<double>>& plan_starts) {
  if (plans.empty()) throw std::invalid_argument("plans: give at least one plan");
  for (size_t r = 0; r < plans.size(); ++r)
    if (plans[r] == nullptr)
      throw std::invalid_argument("plans[" + std::to_string(r) + "] is None");
  if (plan_starts && plan_starts->size() != plans.size())
    throw std::invalid_argument("plan_starts: " + std::to_string(plan_starts->size()) +
                                " times for " + std::to_string(plans.size()) + " plans");
  std::optional<PlanningSettings> planning;
  std::optional<ObjectSpace> objects;
  if (scene.planning) {
    planning = ResolvePlanningSettings(scene, {});
    objects.emplace(scene);
  }
  auto distances = [&](const std::vector<Eigen::VectorXd>& q) {
    std::vector<double> d;
    if (objects)
      for (const Eigen::VectorXd& q_j : q)
        d.push_back(q_j.size() == scene.nq ? objects->GoalDistance(q_j, planning->goal, *planning)
                                           : 0.0);  // the page names the size mismatch
    return d;
  };

  ExecutionView view;
  view.plant = &plant;
  view.plant_distance = distances(Configurations(plant, "the run"));
  if (planning) view.goal_tolerance = planning->goal_tolerance;
  const double end = plant.steps.empty() ? 0.0 : plant.steps.back().t;
  double start = 0.0;
  for (size_t r = 0; r < plans.size(); ++r) {
    const Trajectory& trajectory = *plans[r];
    ExecutedPlan plan;
    plan.q = Configurations(trajectory, "plans[" + std::to_string(r) + "]");
    plan.time_step = trajectory.time_step;
    plan.start_time = plan_starts ? (*plan_starts)[r] : start;
    const int steps = static_cast<int>(plan.q.size()) - 1;
    start = plan.start_time + steps * plan.time_step;  // the next plan's default start
    view.plans.push_back(std::move(plan));
  }
  for (size_t r = 0; r < view.plans.size(); ++r) {
    ExecutedPlan& plan = view.plans[r];
    const double until = r + 1 < view.plans.size() ? view.plans[r + 1].start_time : end;
    const int steps = static_cast<int>(plan.q.size()) - 1;
    const double ran = plan.time_step > 0.0 ? (until - plan.start_time) / plan.time_step : 0.0;
    plan.steps_run =
        std::isfinite(ran) ? std::clamp(static_cast<int>(std::floor(ran + 1e-9)), 0, steps) : 0;
    plan.distance = distances(plan.q);
    plan.found = planning && plan.distance.back() <= planning->goal_tolerance;
    plan.max_penetration = DeepestOverlap(plant, plan.start_time, until);
  }
  return view;
}

}  // namespace quasidyn::python
