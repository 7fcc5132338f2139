#pragma once
// A settings block's flags on a subcommand, made from its schema (model/settings_schema.h): one
// flag per setting, --<name> with '_' written '-' (`--kappa`, `--plant-check-substeps`), taking
// the setting's kind (a number, an integer, a name, one or more numbers or names; a bool is a
// switch, --<name> / --no-<name>), its help the setting's doc, unit, range and default. A flag
// given adds {name, value} to the overrides, which the block's resolver applies and checks
// (errors name the block's field: "planning.metric.kappa: must be > 0 ...").

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn::cli {

// Adds the flags of `specs` but those whose name is in `skip` (a subcommand that sets them
// itself). `overrides` must outlive the command's parsing.
void AddSettingFlags(CLI::App* command, const std::vector<SettingSpec>& specs,
                     SettingOverrides* overrides, const std::vector<std::string>& skip = {});

// The flag of a setting name: "plant_check_substeps" -> "--plant-check-substeps".
std::string SettingFlag(const std::string& name);
// The flag of a setting: its Flag's, else its name's ("u_std" with Flag "std" -> "--std").
std::string SettingFlag(const SettingSpec& spec);

}  // namespace quasidyn::cli
