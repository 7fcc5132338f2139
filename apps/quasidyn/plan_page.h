#pragma once
// What a plan's viewer page shows (`quasidyn plan --html`; Python's Plan in a notebook,
// docs/python.md "In a notebook"): the path animated, the objects' positions of every tree node
// as markers joined to their parents, the objects at the goal as translucent copies, and the
// plan's summary (the lines `quasidyn plan` prints) with where the time went, as the panel's notes.

#include <ostream>
#include <string>

#include "quasidyn/model/scene.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/viewer/viewer_data.h"

namespace quasidyn::cli {

// How the plan was run and where its files went, for the summary's lines.
struct PlanRunFacts {
  int threads = 1;        // the planner's threads, >= 1
  std::string plan_path;  // plan.json written; empty: no "plan" line
  std::string html_path;  // the page written; empty: no "viewer" line
};

// The summary `quasidyn plan` prints, one fact a line ("scene", "metric", "result", "nodes",
// "wall time", ..., "goal distance", "penetration").
void PrintPlanSummary(const Scene& scene, const PlanResult& plan, const ReplayedPath& path,
                      const PlanRunFacts& facts, std::ostream& out);

// The page's options: markers, goal and notes (the summary and the time shares). `path` is
// ReplayPlan(scene, plan).
ViewerDataOptions PlanViewerOptions(const Scene& scene, const PlanResult& plan,
                                    const ReplayedPath& path, const PlanRunFacts& facts);

}  // namespace quasidyn::cli
