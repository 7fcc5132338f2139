#include "quasidyn/viewer/execution_page.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "quasidyn/viewer/html_writer.h"

namespace quasidyn {
namespace {

using nlohmann::json;

constexpr const char* kPlanColor = "#7ab8ff";  // the plans' ghosts

// std::invalid_argument "execution page: <what>".
[[noreturn]] void Fail(const std::string& what) {
  throw std::invalid_argument("execution page: " + what);
}

std::string PlanName(size_t r) { return "plan " + std::to_string(r); }

// The plant's times t_0 = 0, t_k of its recorded steps [s].
std::vector<double> PlantTimes(const Trajectory& plant) {
  std::vector<double> t{0.0};
  for (const TrajectoryStep& step : plant.steps) t.push_back(step.t);
  return t;
}

void CheckDistances(const std::vector<double>& distance, size_t expected,
                    const std::string& whose) {
  if (distance.size() != expected)
    Fail(whose + ": " + std::to_string(distance.size()) + " distances to the goal, expected " +
         std::to_string(expected) + " (one per configuration)");
  for (size_t j = 0; j < distance.size(); ++j)
    if (!std::isfinite(distance[j]) || distance[j] < 0.0)
      Fail(whose + ": distance " + std::to_string(j) + " to the goal is " +
           std::to_string(distance[j]) + "; expected a finite number >= 0");
}

// Everything ExecutionView's contract says, with the plan and configuration named.
void CheckView(const Scene& scene, const ExecutionView& view) {
  if (view.plant == nullptr) Fail("no plant run given");
  const Trajectory& plant = *view.plant;
  if (plant.nq != scene.nq)
    Fail("the plant's run has n_q = " + std::to_string(plant.nq) + ", the scene '" + scene.name +
         "' n_q = " + std::to_string(scene.nq) + ": a run of another scene");
  if (!(plant.time_step > 0.0)) Fail("the plant's run has no time step h > 0");
  if (view.plans.empty()) Fail("no plan given");
  const bool goal = !view.plant_distance.empty();
  if (goal) CheckDistances(view.plant_distance, plant.steps.size() + 1, "the plant's run");
  if (!std::isfinite(view.goal_tolerance) || view.goal_tolerance < 0.0)
    Fail("goal tolerance " + std::to_string(view.goal_tolerance) + " is not a finite number >= 0");
  const double end = PlantTimes(plant).back();
  const double slack = 1e-9 * plant.time_step;  // the times' round-off
  double previous = 0.0;
  for (size_t r = 0; r < view.plans.size(); ++r) {
    const ExecutedPlan& plan = view.plans[r];
    const std::string name = PlanName(r);
    if (plan.q.empty()) Fail(name + " has no configuration");
    for (size_t j = 0; j < plan.q.size(); ++j) {
      const Eigen::VectorXd& q = plan.q[j];
      if (q.size() != scene.nq)
        Fail(name + ", q_" + std::to_string(j) + ": " + std::to_string(q.size()) +
             " numbers, the scene '" + scene.name + "' has n_q = " + std::to_string(scene.nq) +
             ": a plan of another scene");
      if (!q.allFinite()) Fail(name + ", q_" + std::to_string(j) + " is not finite");
    }
    const double t0 = plan.start_time;
    if (!std::isfinite(t0) || (r == 0 && std::abs(t0) > slack) || t0 < previous - slack ||
        t0 > end + slack)
      Fail(name + " starts at t = " + std::to_string(t0) + " s; expected " +
           (r == 0 ? std::string("0 (the first plan starts the run)")
                   : "a time in [" + std::to_string(previous) + ", " + std::to_string(end) +
                         "] s (after the previous plan's start, within the plant's run)"));
    previous = t0;
    if (!std::isfinite(plan.time_step) || !(plan.time_step > 0.0))
      Fail(name + ": time step h = " + std::to_string(plan.time_step) + " s; expected > 0");
    const int steps = static_cast<int>(plan.q.size()) - 1;
    if (plan.steps_run < 0 || plan.steps_run > steps)
      Fail(name + ": steps_run " + std::to_string(plan.steps_run) + " is outside [0, " +
           std::to_string(steps) + "] (its steps)");
    if (goal)
      CheckDistances(plan.distance, plan.q.size(), name);
    else if (!plan.distance.empty())
      Fail(name + " has distances to the goal but the plant's run has none");
    if (!std::isfinite(plan.max_penetration) || plan.max_penetration < 0.0)
      Fail(name + ": deepest overlap " + std::to_string(plan.max_penetration) +
           " m is not a finite number >= 0");
  }
}

// The plans as one run: at each time the configuration of the plan then running (plan r from its
// start until plan r + 1 starts; the last one to its end).
Trajectory PlansAsOneRun(const ExecutionView& view) {
  Trajectory run;
  run.nq = view.plant->nq;
  run.time_step = view.plans.front().time_step;
  run.q0 = view.plans.front().q.front();
  for (size_t r = 0; r < view.plans.size(); ++r) {
    const ExecutedPlan& plan = view.plans[r];
    const bool last = r + 1 == view.plans.size();
    const double h = plan.time_step;
    const double until = last ? INFINITY : view.plans[r + 1].start_time - 1e-9 * h;
    for (size_t j = r == 0 ? 1 : 0; j < plan.q.size(); ++j) {
      const double t = plan.start_time + static_cast<double>(j) * h;
      if (t >= until) break;
      TrajectoryStep step;
      step.k = static_cast<int>(run.steps.size()) + 1;
      step.t = t;
      step.q = plan.q[j];
      run.steps.push_back(std::move(step));
    }
  }
  run.steps_requested = run.steps_done = static_cast<int>(run.steps.size());
  return run;
}

json Rounded(const std::vector<double>& values) {
  json out = json::array();
  for (double v : values) out.push_back(RoundToSignificantDigits(v, 6));
  return out;
}

// viewer_data.h, `execution`.
json ExecutionData(const ExecutionView& view) {
  double deepest = 0.0;
  json plans = json::array();
  for (size_t r = 0; r < view.plans.size(); ++r) {
    const ExecutedPlan& plan = view.plans[r];
    std::vector<double> t;
    for (size_t j = 0; j < plan.q.size(); ++j)
      t.push_back(plan.start_time + static_cast<double>(j) * plan.time_step);
    deepest = std::max(deepest, plan.max_penetration);
    plans.push_back({{"label", PlanName(r)},
                     {"start_time", RoundToSignificantDigits(plan.start_time, 6)},
                     {"time_step", plan.time_step},
                     {"steps", static_cast<int>(plan.q.size()) - 1},
                     {"steps_run", plan.steps_run},
                     {"found", plan.found},
                     {"t", Rounded(t)},
                     {"distance", Rounded(plan.distance)},
                     {"max_penetration", RoundToSignificantDigits(plan.max_penetration, 6)}});
  }
  json data{{"plant",
             {{"t", Rounded(PlantTimes(*view.plant))},
              {"distance", Rounded(view.plant_distance)},
              {"max_penetration", RoundToSignificantDigits(deepest, 6)}}},
            {"plans", plans},
            {"plan_color", kPlanColor}};
  if (!view.plant_distance.empty()) data["goal_tolerance"] = view.goal_tolerance;
  return data;
}

ViewerDataOptions ExecutionOptions(const ExecutionView& view, const Trajectory* plans) {
  ViewerDataOptions options;
  const size_t n = view.plans.size();
  options.overlays.push_back(
      {n == 1 ? std::string("plan") : "plans (" + std::to_string(n) + ", each from its start)",
       kPlanColor, plans});
  options.execution = ExecutionData(view);
  options.notes = view.notes;
  return options;
}

}  // namespace

std::string ExecutionHtmlToString(const Scene& scene, const ExecutionView& view) {
  CheckView(scene, view);
  const Trajectory plans = PlansAsOneRun(view);
  return ViewerHtmlToString(scene, *view.plant, ExecutionOptions(view, &plans));
}

void WriteExecutionHtml(const Scene& scene, const ExecutionView& view, const std::string& path) {
  CheckView(scene, view);
  const Trajectory plans = PlansAsOneRun(view);
  WriteViewerHtml(scene, *view.plant, path, ExecutionOptions(view, &plans));
}

}  // namespace quasidyn
