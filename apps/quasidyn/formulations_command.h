#pragma once
// `quasidyn formulations [--json]`: every registered formulation (formulations/registry.h) with
// its capabilities, parameters and scene keys (formulations/registry_report.h).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddFormulationsCommand(CLI::App& app);

}  // namespace quasidyn::cli
