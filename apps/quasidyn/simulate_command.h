#pragma once
// `quasidyn simulate SCENE [--formulation qp|socp|log-barrier|log-barrier-cone|lcp] [--h H]
//  [--kappa K] [--steps N | --duration T] [--out traj.json] [--quiet]`:
// runs the scene's command schedule (simulation/rollout.h), shows a progress bar on stderr,
// prints a summary on stdout and writes the trajectory (docs/trajectory-format.md).
// The outputs are checked before the run (output_paths.h: not empty, not the scene or one of
// its URDFs, not each other) and written atomically.
// Exit codes: 0 done; 2 bad input (message on stderr); 3 a step failed (message on stderr
// naming the contact; the trajectory up to the failure is still written).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddSimulateCommand(CLI::App& app);

}  // namespace quasidyn::cli
