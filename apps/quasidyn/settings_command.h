#pragma once
// `quasidyn settings [BLOCK] [--markdown]`: the library's settings blocks (planning, mpc, ...)
// and each block's settings as their schemas declare them (control/settings_blocks.h): key,
// flag and Python keyword, type, unit, range, default and what it does. `--markdown` prints the
// table the docs embed (scripts/settings_docs.py keeps the docs equal to it).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddSettingsCommand(CLI::App& app);

}  // namespace quasidyn::cli
