#pragma once
// `quasidyn optimize SCENE --goal G... [--horizon T] [--iterations K] [--h H]
//  [--smoothing log-barrier|randomized] [--initial traj.json] [--shrinking-horizon]
//  [--object-weight W...] [--rate-weight R] [--trust-region D] --out traj.json [--html page.html]
//  [--plot cost.svg] [--quiet]`:
// trajectory optimisation by iterative MPC (control/trajectory_optimizer.h) from the scene's q0;
// prints one line per iteration (smoothing parameter, trust region, exact cost, best cost, time,
// what failed), a summary, and writes the best plan as a trajectory file (and an HTML viewer,
// and the cost per iteration as an SVG plot). The initial guess is the scene's command schedule
// at the control steps, or the commands of --initial (a planner's path, an earlier plan).
// Exit codes: 0 done; 2 bad input (message on stderr).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddOptimizeCommand(CLI::App& app);

}  // namespace quasidyn::cli
