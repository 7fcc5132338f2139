#pragma once
// `quasidyn mpc SCENE [--horizon N] [--steps K] [--formulation stewart-trinkle|anitescu]
//  [--node-limit L] [--time-limit S] [--out run.json] [--html page.html] [--csv steps.csv]`:
// the MPC through contact of the 2D frictional contact notes (control/contact_mpc.h) in closed
// loop on the scene's second-order plant, with the scene's `mpc:` block (docs/scene-format.md).
// A progress bar while it runs (a line per step with --log-level debug); then a summary with
// the cost and the per-step MIQP solve time, nodes and gap. --out writes the plant's trajectory
// (docs/trajectory-format.md), --csv one row per control step (docs/mpc.md).
// Exit codes: 0 done; 2 bad input (message on stderr); 3 a plant step failed.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddMpcCommand(CLI::App& app);

}  // namespace quasidyn::cli
