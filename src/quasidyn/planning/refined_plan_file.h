#pragma once
// A planner's plan refined by the trajectory optimiser (`quasidyn optimize --initial plan.json`,
// control/trajectory_optimizer.h) written as a plan file (docs/plan-format.md, "Refined plans"),
// so that what reads a plan file reads the refined one too: `quasidyn track` executes its
// regrasps (plan.path.step_edges) as motions, `track --replan` plans again with its
// plan.settings and plan.goal, and `optimize --initial` refines it again with its regrasps kept.
//
// The file is the refined trajectory (docs/trajectory-format.md) with the source plan file's
// "plan" member, in which
//   path.step_edges   is one kind per refined step (a regrasp stays a regrasp: the optimiser
//                     keeps its command and its reset; extend for every other step);
//   path.step_nodes   is kept for the source's steps and −1 for steps beyond them;
//   refinement        is added: what the optimiser did (PlanRefinement below);
// and every other member (status, goal, settings, statistics, the tree, path.nodes) is the
// search's, unchanged: they describe how the path being refined was found.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quasidyn/planning/rrt.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

struct PlanRefinement {
  std::string initial_guess;         // the plan file refined, as the user named it
  double initial_cost = 0.0;         // exact cost J of the plan's commands [-]
  double cost = 0.0;                 // exact cost J of the refined commands [-]
  int iterations = 0;                // iterations run
  int accepted = 0;                  // of which accepted
  double initial_penetration = 0.0;  // deepest overlap of the plan's exact rollout [m]; NaN:
                                     // not measured
  double max_penetration = 0.0;      // the same of the refined plan [m]
  double seconds = 0.0;              // the optimiser's wall time [s]
};

// The refined plan file's content (above): `source`, a plan file's JSON (PlanFromJson reads
// it), `refined` the optimiser's trajectory, `step_edges` one kind (kExtend or kRegrasp) per
// refined step. Throws std::invalid_argument when `source` has no "plan" member, step_edges has
// another size than refined.steps or holds kRoot, or the result would not read back as a plan
// file (PlanFromJson's message).
nlohmann::json RefinedPlanToJson(const nlohmann::json& source, const Trajectory& refined,
                                 const std::vector<EdgeKind>& step_edges,
                                 const PlanRefinement& refinement);

// Reads the plan file `source_file` and writes RefinedPlanToJson to `file` atomically
// (common/atomic_file_writer.h). Throws std::runtime_error naming a file that cannot be read or
// written, std::invalid_argument (prefixed with source_file) on bad content.
void WriteRefinedPlanFile(const std::string& source_file, const Trajectory& refined,
                          const std::vector<EdgeKind>& step_edges, const PlanRefinement& refinement,
                          const std::string& file);

}  // namespace quasidyn
