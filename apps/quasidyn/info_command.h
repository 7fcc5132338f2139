#pragma once
// `quasidyn info SCENE [--json]`: the model summary and the contact candidates at the
// scene's initial configuration.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddInfoCommand(CLI::App& app);

}  // namespace quasidyn::cli
