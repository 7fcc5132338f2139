#pragma once
// Plan, execute, plan again from where the plant ended (issue 39). A path the planner made at its
// time step h holds each step within the planner's model, but on a plant of another time step the
// small differences of every step add up along a long path: the 180° turn of the 16-joint hand,
// 90 steps and 33 regrasps, ends 0.9–1.6 rad from the path's end on a plant at h/2, open loop or
// with the talk's one-step stabiliser (examples/hand_ball_3d/README.md). The talk's answer to a
// plant that leaves the plan is feedback; at the level of the whole task the feedback is a new
// plan: each round executes the current plan on the plant (TrackPlan, plan_tracking.h, open loop
// or with the stabiliser) and, while the plant's objects end farther than the goal tolerance from
// the goal, the planner (PlanThroughContact, planning/rrt.h) plans again from the plant's
// configuration. The plant is never reset between rounds: round r + 1 starts at the
// configuration where round r ended.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/planner_metric.h"  // StabilizerInPlannerMetric
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/model/settings_schema.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// A plan as TrackPlan executes it.
struct PlanToTrack {
  std::vector<Eigen::VectorXd> q;   // T + 1 configurations, q_0 first
  std::vector<Eigen::VectorXd> u;   // T commands
  std::vector<bool> regrasp_steps;  // T entries: step k is a regrasp (executed by its motion)
  // T entries: step k is a step of a physical regrasp (stepped like an extension; the stabiliser
  // sends its command unchanged: StabilizerSettings::open_loop_steps).
  std::vector<bool> physical_regrasp_steps;
};
// The plan of a trajectory (a planner's replayed path or a trajectory file) whose steps have the
// edge kinds `step_edges` (one per step, or empty: no regrasp) and are physical regrasp steps
// where `physical_regrasp_steps` says (PhysicalRegraspSteps; one per step, or empty: none).
// std::invalid_argument when either has another size.
PlanToTrack PlanToTrackOf(const Trajectory& path, const std::vector<EdgeKind>& step_edges,
                          const std::vector<bool>& physical_regrasp_steps = {});

// Each setting's key, unit, range, default and one-line doc are declared once, in
// ReplanningSettingsSchema (replanning.cc); the comments here say what the fields mean to the
// code.
struct ReplanningSettings {
  int max_plans = 3;        // plans executed, the first included
  int substeps = 1;         // plant steps per command (h_plant = h / substeps)
  bool closed_loop = true;  // the stabiliser (stabilizer.h) on each plan's contact-continuous
                            // steps; false: the plans' commands as they are
  // The stabiliser's settings (closed loop only). Its regrasp_steps are each plan's own and its
  // steps without a linearisation are sent open loop; an empty object_weight puts its cost in
  // the planner's metric (StabilizerInPlannerMetric).
  StabilizerSettings stabilizer;
  // > 0: a plan's run stops, and the next plan is made, after the first control step t at which
  // the plant's objects lie farther than this from the plan's q_t (D of the planning settings
  // with q_t's objects as the goal); 0: every plan runs to its end.
  double replan_deviation = 0.0;
  // Progress (docs/control.md, "Replanning that cannot cycle"): a round makes progress when
  // the plant's objects end it nearer the goal than every earlier round ended (and than the
  // start) by at least min_progress (D, >= 0); after stall_limit + 1 consecutive rounds without
  // progress the loop stops. With min_progress > 0 it runs at most
  // (⌊(D_0 − tolerance) / min_progress⌋ + 1)(stall_limit + 1) rounds whatever max_plans is.
  double min_progress = 0.01;
  int stall_limit = 2;
  TrackingSettings tracking;     // its regrasp_steps are each plan's own
  bool first_plan_found = true;  // whether the given first plan reached the goal (reported only,
                                 // not a setting)
};

// Replanning's settings, each declared once (model/settings_schema.h): the block "replanning"
// (max_plans, substeps, closed_loop, replan_deviation, and the stabiliser's and tracking's
// settings as `stabilizer.*` and `tracking.*`: StabilizerSettingsSchema, TrackingSettingsSchema),
// `quasidyn track --replan`'s --replan-deviation, the range checks, the docs' table.
const SettingsSchema<ReplanningSettings>& ReplanningSettingsSchema();

struct ReplanningRound {
  bool plan_found = false;        // the planner reached the goal in its model (round 0:
                                  // ReplanningSettings::first_plan_found)
  double plan_distance = 0.0;     // D of the plan's last configuration to the goal [-]
  double start_distance = 0.0;    // D of the plant's configuration at the round's start [-]
  double distance = 0.0;          // D of the plant's configuration at the round's end [-]
  int steps = 0;                  // the plan's steps T
  int steps_run = 0;              // of which the plant ran (fewer when it left the plan)
  int regrasps = 0;               // of which regrasps
  int open_loop_steps = 0;        // contact-continuous steps sent open loop (no linearisation)
  double planning_seconds = 0.0;  // wall time of the planner (0 for the given first plan) [s]
  TrackingResult tracking;        // the plant's run of this plan
  PlanToTrack plan;               // the plan itself, in the planner's model, from the round's start
};

struct ReplanningResult {
  std::vector<ReplanningRound> rounds;
  bool reached = false;  // the last round ended with D <= planning.goal_tolerance
  // The plant's configurations at the control steps of all rounds, joined (q_0 once), the
  // commands sent and which steps were regrasps: one trajectory of the whole execution.
  std::vector<Eigen::VectorXd> q, u;
  std::vector<bool> regrasp_steps;
  std::string message;  // why the rounds stopped before max_plans when the goal was not reached
  double best_distance = 0.0;  // D where the last progress left the plant (the start's first) [-]
  bool stalled = false;        // stopped after stall_limit + 1 rounds without progress
  // The cancellation token of settings.tracking (TrackingSettings::cancel) or of the planner's
  // options (PlannerOptions::cancel) stopped a round's execution or planning; q and u hold the
  // control steps done.
  bool interrupted = false;
};

// Executes `first` (a plan of model_scene) on `plant` from plant_q0, then replans from the plant's
// configuration with `planning` (round r plans with seed planning.seed + r) until the goal is
// within planning.goal_tolerance or max_plans plans ran; with replan_deviation > 0, a plan the
// plant has left by more than that is given up at once for a new one. The stabiliser linearises
// `model` (the planning model: the planner's formulation and time step) along each plan. A replan
// that is not found is executed when its best node is nearer the goal than the plant is;
// otherwise, when stall_limit + 1 rounds in a row end without progress (ReplanningSettings), or
// when a plant step fails, the rounds stop (message says why); a regrasp whose motion is refused
// (TrackingResult::regrasp_refused) ends its round only. std::invalid_argument
// on settings out of range ("replanning.<field>: ...", the stabiliser's object_weight against
// the model's n_q,u included), a plant whose coordinates differ from the model's, or sizes.
ReplanningResult ExecuteWithReplanning(ScenePtr model_scene, std::shared_ptr<const StepModel> model,
                                       const PlanningSettings& planning,
                                       const PlannerOptions& planner, const PlanToTrack& first,
                                       const StepModel& plant, const Eigen::VectorXd& plant_q0,
                                       const ReplanningSettings& settings);

}  // namespace quasidyn
