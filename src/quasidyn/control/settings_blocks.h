#pragma once
// Every settings block of the library, by name, as its schema declares it
// (model/settings_schema.h): what `quasidyn settings` prints, the docs' tables are made from
// and Python's `_settings()` (the stubs' keywords) lists. The control layer is the top of the
// library, where every block's schema is visible.

#include <string>
#include <vector>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

struct SettingsBlockInfo {
  std::string name;  // "planning"
  std::string doc;
  std::vector<SettingSpec> specs;
  std::vector<SettingSectionSpec> sections;
};

// In a fixed order: planning, mpc, optimizer, smoothing, stabilizer, tracking, regrasp_motion,
// replanning, rollout, linearization.
std::vector<SettingsBlockInfo> SettingsBlocks();

// The block `name`; std::invalid_argument naming the blocks when there is none.
SettingsBlockInfo FindSettingsBlock(const std::string& name);

}  // namespace quasidyn
