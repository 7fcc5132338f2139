#pragma once
// `quasidyn compare SCENE [--steps N] [--reference-refinement R] [--formulations a,b,...]
//  [--csv table.csv] [--html page.html] [--quiet]`: every registered formulation that can step
// the scene, run side by side in one process against the finest-step reference of the scene
// (simulation/formulation_comparison.h); prints the table, writes it as CSV, and writes one
// viewer page with the reference and every run overlaid (each formulation a colour). The
// formulations that cannot step the scene are listed with the reason.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddCompareCommand(CLI::App& app);

}  // namespace quasidyn::cli
