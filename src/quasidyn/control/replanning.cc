#include "quasidyn/control/replanning.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"

namespace quasidyn {

PlanToTrack PlanToTrackOf(const Trajectory& path, const std::vector<EdgeKind>& step_edges,
                          const std::vector<bool>& physical_regrasp_steps) {
  QUASIDYN_CHECK_ARGUMENT(step_edges.empty() || step_edges.size() == path.steps.size(),
                          "PlanToTrackOf", "step_edges must be empty or have one entry per step");
  QUASIDYN_CHECK_ARGUMENT(
      physical_regrasp_steps.empty() || physical_regrasp_steps.size() == path.steps.size(),
      "PlanToTrackOf", "physical_regrasp_steps must be empty or have one entry per step");
  PlanToTrack out;
  out.q.push_back(path.q0);
  for (size_t k = 0; k < path.steps.size(); ++k) {
    out.q.push_back(path.steps[k].q);
    out.u.push_back(path.steps[k].u);
    out.regrasp_steps.push_back(!step_edges.empty() && step_edges[k] == EdgeKind::kRegrasp);
    out.physical_regrasp_steps.push_back(!physical_regrasp_steps.empty() &&
                                         physical_regrasp_steps[k]);
  }
  return out;
}

const SettingsSchema<ReplanningSettings>& ReplanningSettingsSchema() {
  static const SettingsSchema<ReplanningSettings>* const schema = [] {
    using R = ReplanningSettings;
    auto* s = new SettingsSchema<R>(
        "replanning",
        "plan, execute on the plant, plan again from where the plant ended until the goal is "
        "reached (docs/control.md, \"Replanning from where the plant ended\")");
    s->Integer("max_plans", &R::max_plans).AtLeast(1).Doc("plans executed, the first included");
    s->Integer("substeps", &R::substeps)
        .AtLeast(1)
        .Doc("plant steps n per command (h_plant = h/n)");
    s->Field("closed_loop", &R::closed_loop)
        .Doc(
            "the stabiliser on each plan's contact-continuous steps (false: the plans' "
            "commands as they are)");
    s->Number("replan_deviation", &R::replan_deviation)
        .AtLeast(0)
        .Doc(
            "a plan is given up for a new one once the plant's objects are farther than this D "
            "from it (0: each plan runs to its end)");
    s->Number("replan_min_progress", &R::min_progress)
        .AtLeast(0)
        .Doc(
            "a round makes progress when the plant ends it nearer the goal than every earlier "
            "round by at least this D");
    s->Integer("replan_stall_limit", &R::stall_limit)
        .AtLeast(0)
        .Doc("rounds without progress allowed in a row; one more stops the loop");
    s->Include("stabilizer", &R::stabilizer, StabilizerSettingsSchema());
    s->Include("tracking", &R::tracking, TrackingSettingsSchema());
    return s;
  }();
  return *schema;
}

namespace {

// One plan executed on the plant from q, stopped where D(plant, plan) > replan_deviation.
ReplanningRound ExecuteRound(std::shared_ptr<const StepModel> model, const PlanToTrack& plan,
                             const StepModel& plant, const Eigen::VectorXd& q,
                             const ReplanningSettings& settings, const ObjectSpace& objects,
                             const PlanningSettings& planning) {
  ReplanningRound round;
  round.steps = static_cast<int>(plan.u.size());
  round.regrasps =
      static_cast<int>(std::count(plan.regrasp_steps.begin(), plan.regrasp_steps.end(), true));
  TrackingSettings tracking = settings.tracking;
  tracking.regrasp_steps = plan.regrasp_steps;
  const int nq_u = plant.scene().nq_u;
  if (settings.replan_deviation > 0.0) {
    tracking.stop = [&](int t, const Eigen::VectorXd& q_t) {
      return objects.GoalDistance(q_t, plan.q[t].head(nq_u), planning) > settings.replan_deviation;
    };
  }
  std::unique_ptr<Stabilizer> stabilizer;
  if (settings.closed_loop) {
    StabilizerSettings s = settings.stabilizer;
    if (s.object_weight.size() == 0) s = StabilizerInPlannerMetric(s, plant.scene(), planning);
    s.regrasp_steps = plan.regrasp_steps;
    s.open_loop_steps = plan.physical_regrasp_steps;
    s.open_loop_where_linearization_fails = true;
    stabilizer = std::make_unique<Stabilizer>(std::move(model), plan.q, plan.u, s);
    round.open_loop_steps = static_cast<int>(stabilizer->open_loop_steps().size());
  }
  round.tracking =
      TrackPlan(plant, settings.substeps, q, plan.q, plan.u, stabilizer.get(), tracking);
  round.steps_run = static_cast<int>(round.tracking.q.size()) - 1;
  return round;
}

}  // namespace

ReplanningResult ExecuteWithReplanning(ScenePtr model_scene, std::shared_ptr<const StepModel> model,
                                       const PlanningSettings& planning,
                                       const PlannerOptions& planner, const PlanToTrack& first,
                                       const StepModel& plant, const Eigen::VectorXd& plant_q0,
                                       const ReplanningSettings& settings) {
  constexpr const char* kWhere = "ExecuteWithReplanning";
  QUASIDYN_CHECK_ARGUMENT(model_scene != nullptr && model != nullptr, kWhere,
                          "the model's scene and step model are required");
  const SettingsSchema<ReplanningSettings>& schema = ReplanningSettingsSchema();
  std::optional<SettingsProblem> problem = CheckSettingsBlock(schema, settings);
  if (!problem) {  // the sizes the stabiliser's ranges cannot say
    problem = CheckStabilizerSettings(settings.stabilizer, model_scene->nq_u);
    if (problem) problem->field = "stabilizer." + problem->field;
  }
  if (problem)
    settings_detail::ThrowSettingProblem(schema.block(), problem->field, problem->problem);
  CheckSameCoordinates(*model_scene, plant.scene());
  ValidatePlanningSettings(planning, *model_scene);
  const ObjectSpace objects(*model_scene);
  auto distance = [&](const Eigen::VectorXd& q) {
    return objects.GoalDistance(q, planning.goal, planning);
  };

  ReplanningResult out;
  out.q.push_back(plant_q0);
  out.best_distance = distance(plant_q0);
  int stalls = 0;  // consecutive rounds without progress
  PlanToTrack plan = first;
  bool plan_found = settings.first_plan_found;
  double planning_seconds = 0.0;
  for (int r = 0; r < settings.max_plans; ++r) {
    const Eigen::VectorXd start = out.q.back();
    ReplanningRound round = ExecuteRound(model, plan, plant, start, settings, objects, planning);
    round.plan_found = plan_found;
    round.plan_distance = distance(plan.q.back());
    round.planning_seconds = planning_seconds;
    round.start_distance = distance(start);
    const TrackingResult& run = round.tracking;
    const size_t done = run.q.size() - 1;  // control steps the plant completed
    out.q.insert(out.q.end(), run.q.begin() + 1, run.q.end());
    out.u.insert(out.u.end(), run.u.begin(), run.u.begin() + done);
    out.regrasp_steps.insert(out.regrasp_steps.end(), plan.regrasp_steps.begin(),
                             plan.regrasp_steps.begin() + done);
    round.distance = distance(out.q.back());
    round.plan = plan;
    out.rounds.push_back(std::move(round));
    const ReplanningRound& last = out.rounds.back();
    out.reached = last.distance <= planning.goal_tolerance;
    // A failed plant step ends the loop; a refused regrasp motion only its round: the plant is
    // where the round left it, and the next plan starts there.
    if (!last.tracking.message.empty() && !last.tracking.regrasp_refused) {
      out.message = "plan " + std::to_string(r) + " on the plant: " + last.tracking.message;
      break;
    }
    if (last.tracking.interrupted) {
      out.interrupted = true;
      out.message = "interrupted while plan " + std::to_string(r) + " ran on the plant";
      break;
    }
    if (out.reached) break;
    // Progress: D strictly below every earlier round's end by min_progress (replanning.h).
    if (last.distance < out.best_distance - settings.min_progress) {
      out.best_distance = last.distance;
      stalls = 0;
    } else if (++stalls > settings.stall_limit) {
      out.stalled = true;
      out.message = std::to_string(stalls) + " rounds in a row ended no nearer the goal than D " +
                    std::to_string(out.best_distance) + " - " +
                    std::to_string(settings.min_progress) + " (the last at D " +
                    std::to_string(last.distance) + "): no progress, stopped";
      break;
    }
    if (r + 1 == settings.max_plans) break;

    // The next plan, from where the plant is (its robots' configuration, its objects' pose).
    auto scene =
        std::make_shared<const Scene>(WithInitialConfiguration(*model_scene, out.q.back(), kWhere));
    PlanningSettings next = planning;
    next.seed = planning.seed + static_cast<std::uint64_t>(r + 1);
    const auto clock_start = std::chrono::steady_clock::now();
    const PlanResult result =
        PlanThroughContact(scene, PlanningFormulation(*scene, next), next, planner);
    planning_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
    if (result.status == PlanStatus::kInterrupted) {
      out.interrupted = true;
      out.message = "interrupted while plan " + std::to_string(r + 1) + " was being made";
      break;
    }
    if (result.path.size() < 2 || result.best_distance >= last.distance) {
      out.message = "plan " + std::to_string(r + 1) + " (seed " + std::to_string(next.seed) +
                    ") brings the objects no nearer the goal than the plant is: best D " +
                    std::to_string(result.best_distance) + " against " +
                    std::to_string(last.distance) + " (" + result.message + ")";
      break;
    }
    const ReplayedPath path = ReplayPlan(scene, result);
    std::vector<bool> physical = PhysicalRegraspSteps(result.nodes, result.path);
    physical.resize(path.trajectory.steps.size());  // a replay that stopped early
    plan = PlanToTrackOf(path.trajectory, path.step_edges, physical);
    plan_found = result.found();
    if (plan.u.empty() || !path.trajectory.message.empty()) {
      out.message = "plan " + std::to_string(r + 1) + ": its path does not replay (" +
                    path.trajectory.message + ")";
      break;
    }
  }
  return out;
}

}  // namespace quasidyn
