#pragma once
// `quasidyn plan SCENE [--goal Q...] [--seed N] [--max-nodes N] [--time-limit S]
//  [--metric exact|log-barrier|randomized] [... every field of the scene's planning block]
//  --out plan.json [--html plan.html] [--threads T] [--quiet]`:
// RRT through contact (src/quasidyn/planning/rrt.h) from the scene's q0 toward the goal of its
// `planning:` block (docs/scene-format.md, "Planning"), each field overridable here. A progress
// line (nodes, best goal distance) goes to stderr, a summary to stdout; plan.json holds the path
// as a trajectory that `quasidyn view` plays and the whole tree (docs/plan-format.md); the HTML
// page animates the path and shows the tree's object positions as points.
// Exit codes: 0 goal reached; 2 bad input (message on stderr naming the field or option);
// 4 goal not reached within the limits (the plan file, with the best node's path and the tree,
// is still written).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddPlanCommand(CLI::App& app);

}  // namespace quasidyn::cli
