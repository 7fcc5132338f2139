#include "settings_command.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include "log.h"
#include "quasidyn/control/settings_blocks.h"
#include "setting_flags.h"

namespace quasidyn::cli {
namespace {

// A table cell: '|' escaped.
std::string Cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string Code(const std::string& text) { return text.empty() ? "" : "`" + text + "`"; }

void PrintMarkdown(const SettingsBlockInfo& block, std::ostream& out) {
  out << "| key | flag, keyword | type | unit | range | default | what it does |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const SettingSectionSpec& section : block.sections)
    out << "| " << Code(section.name + ":") << " | | sub-block | | | absent | " << Cell(section.doc)
        << " |\n";
  for (const SettingSpec& spec : block.specs)
    out << "| " << Code(spec.path) << " | " << Code(SettingFlag(spec)) << ", "
        << Code(spec.name + "=") << " | " << SettingKindName(spec.kind) << " | " << Cell(spec.unit)
        << " | " << Cell(SettingRangeText(spec)) << " | "
        << Cell(spec.default_text == "[]" ? "" : spec.default_text) << " | " << Cell(spec.doc)
        << " |\n";
}

void PrintText(const SettingsBlockInfo& block, std::ostream& out) {
  out << block.name << ": " << block.doc << "\n";
  for (const SettingSectionSpec& section : block.sections)
    out << "  " << std::left << std::setw(34) << (section.name + ":")
        << " sub-block (absent: off): " << section.doc << "\n";
  for (const SettingSpec& spec : block.specs) {
    out << "  " << std::left << std::setw(34) << spec.path << " " << SettingFlag(spec) << " ("
        << SettingKindName(spec.kind);
    if (!spec.unit.empty()) out << ", " << spec.unit;
    if (SettingRangeText(spec) != "any") out << ", " << SettingRangeText(spec);
    if (!spec.default_text.empty() && spec.default_text != "[]")
      out << ", default " << spec.default_text;
    out << "): " << spec.doc << "\n";
  }
}

}  // namespace

void AddSettingsCommand(CLI::App& app) {
  auto block = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "settings",
      "List the settings blocks (planning, mpc, ...) or one block's settings: key, flag, type, "
      "unit, range, default");
  command->add_option("BLOCK", *block, "A block's name (default: list the blocks)");
  command->add_flag("--markdown", *markdown, "Print the block's table as the docs embed it");
  AddQuietFlag(command);
  command->callback([block, markdown] {
    if (block->empty()) {
      size_t width = 0;  // the longest name and a space
      for (const SettingsBlockInfo& info : SettingsBlocks())
        width = std::max(width, info.name.size() + 1);
      for (const SettingsBlockInfo& info : SettingsBlocks())
        std::cout << std::left << std::setw(static_cast<int>(width)) << info.name
                  << info.specs.size() << " settings: " << info.doc << "\n";
      return;
    }
    const SettingsBlockInfo info = FindSettingsBlock(*block);
    if (*markdown)
      PrintMarkdown(info, std::cout);
    else
      PrintText(info, std::cout);
  });
}

}  // namespace quasidyn::cli
