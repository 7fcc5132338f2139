#pragma once
// Every registered formulation that can step a scene, run side by side on it in one process
// (`quasidyn compare`, Python's quasidyn.compare): each runs the scene's command schedule (or N
// steps) from the scene's initial state at the scene's h, and is measured against a reference
// run at the finer step h / R over the same time. The reference is a second-order formulation,
// as Pang & Tedrake 2021 (Figs. 7, 8) take a second-order simulation at a fine step as the ground
// truth: the scene's own formulation when its state has velocities, else the first registered
// one with a velocity state and position commands that can step the scene (a quasi-dynamic
// model is no reference: with its objects' momentum reset every step it does not converge as
// h → 0, since its objects' term s·M_u outweighs the robots' h²·K_a; docs/formulations.md).
//
//   median step time [s]       the median of the steps' wall-clock times (TrajectoryStep::
//                              step_time_seconds: contact query, program, update)
//   contacts                   the most contacts of a step, and their mean over the steps
//   deepest penetration [m]    max(0, −φ) over the contacts found at every state of the run (the
//                              recorded contacts' φ at each step's start, and a query at the end)
//   object displacement [m]    the largest distance an object's origin moved from q0 to the end
//   final difference [m, rad]  the largest distance between an object's origin at the end and
//                              the reference's, and the largest angle between its orientations
//   failure                    the status and message of a run that stopped early
//
// A formulation that cannot step the scene (a capability it lacks, or what its factory refuses:
// WhyCannotStep of formulations/registry.h) is listed with the reason. Nothing is named here:
// the formulations come from the registry.

#include <functional>
#include <string>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

struct ComparisonOptions {
  // Steps N >= 1 of the scene's h; 0: the scene's schedule to its end (Scene::ScheduleEnd).
  int steps = 0;
  // R >= 1: the reference steps at h / R.
  int reference_refinement = 10;
  // The reference's formulation (a registered name); empty: the choice above.
  std::string reference_formulation;
  // The formulations to compare (registered names); empty: every registered one.
  std::vector<std::string> formulations;
  // Called before each run with what is about to run ("qp", "reference ..."); may be empty.
  std::function<void(const std::string& run)> progress;
  // Checked before each run and each of its steps (common/cancellation.h, RolloutOptions::
  // cancel): when set, the comparison stops with the rows finished so far
  // (Comparison::interrupted; a run cut short is dropped, and with the reference cut short there
  // are no rows). Null: never. The caller owns it and it must outlive the call.
  const CancellationToken* cancel = nullptr;
};

struct ComparisonRow {
  std::string formulation;
  std::string skipped;  // why the formulation cannot step the scene; empty when it ran
  Trajectory trajectory;
  double median_step_seconds = 0.0;
  int max_contacts = 0;
  double mean_contacts = 0.0;
  double deepest_penetration = 0.0;        // [m], >= 0
  double object_displacement = 0.0;        // [m]
  double final_position_difference = 0.0;  // [m], against the reference
  double final_rotation_difference = 0.0;  // [rad], against the reference
  std::string failure;  // "<status>: <message>" of a run that stopped early; empty otherwise
  bool ran() const { return skipped.empty(); }
};

struct Comparison {
  std::string scene_name;
  double time_step = 0.0;           // h [s] of the compared runs
  int steps = 0;                    // N
  Trajectory reference;             // the scene's own formulation at h / R, over N·h
  std::vector<ComparisonRow> rows;  // in registration order
  // ComparisonOptions::cancel stopped it: `rows` are the runs finished before (none when the
  // reference was cut short), `planned` the rows a whole comparison has.
  bool interrupted = false;
  int planned = 0;
};

// Throws std::invalid_argument for bad options (N < 0, R < 1, an unknown formulation name) or a
// scene without a schedule when N is 0; the reference must run (its failure is thrown too).
Comparison CompareFormulations(const ScenePtr& scene, const ComparisonOptions& options = {});

// A fixed-width text table, one row per formulation, the skipped ones with their reason.
std::string ComparisonText(const Comparison& comparison);
// The same as CSV (a header row, then one row per formulation; numbers with 9 digits).
std::string ComparisonCsv(const Comparison& comparison);

}  // namespace quasidyn
