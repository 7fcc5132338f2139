#pragma once
// `quasidyn convert FILE --out scene.yaml`: the scene file (docs/scene-format.md) equivalent to
// a file of the reference quasistatic simulator (a system file or a Drake model-directive file,
// docs/qsim-files.md), which loads and steps bitwise like it.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddConvertCommand(CLI::App& app);

}  // namespace quasidyn::cli
