#pragma once
// `quasidyn linearize SCENE [--step K] [--mode exact|log-barrier|randomized]
//  [--samples N --std S --seed X --std-q SQ --estimator first-order|zeroth-order]
//  [--formulation F] [--kappa K] [--threads T] [--json]`:
// runs the scene's command schedule for K − 1 steps from q0 with the scene's formulation
// (simulation/rollout.h, as `quasidyn simulate`), then linearises step K,
// q_K = f(q_{K−1}, u_K) with u_K = CommandAt(K·h) (the step the trajectory file records as
// step K), and prints q_{K−1}, u_K, q⁺ = q_K, A = ∂f/∂q and B = ∂f/∂u with coordinate names,
// and the gradient mode used (docs/gradients.md, "Command line"; --json: one JSON object).
// Exit codes: 0 done; 2 bad input (message on stderr); 3 a step of the rollout or the
// linearisation failed (message on stderr).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddLinearizeCommand(CLI::App& app);

}  // namespace quasidyn::cli
