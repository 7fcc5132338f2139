// The command line (cli.h): one file per subcommand; this one wires them and turns every error
// into a message on stderr and a non-zero exit code.
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "compare_command.h"
#include "convert_command.h"
#include "demo_command.h"
#include "formulations_command.h"
#include "info_command.h"
#include "linearize_command.h"
#include "log.h"
#include "mpc_command.h"
#include "optimize_command.h"
#include "plan_command.h"
#include "quasidyn/common/closest_name.h"
#include "scene_file.h"
#include "settings_command.h"
#include "simulate_command.h"
#include "sweep_command.h"
#include "track_command.h"
#include "view_command.h"

namespace quasidyn::cli {
namespace {

// The first word of the command line that is neither an option nor the value of --log-level or
// --package, when it names no subcommand of `app`: "unknown command 'simulat' (did you mean
// 'simulate'?); commands: ..." (CLI11 itself says only "A subcommand is required"). Empty when
// it names one, or when there is no such word (CLI11 reports that).
std::string UnknownCommand(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--log-level" || word == "--package") {
      ++i;  // its value
      continue;
    }
    if (word.empty() || word[0] == '-') continue;
    for (const std::string& name : names)
      if (word == name) return "";
    return "unknown command '" + word + "'" + DidYouMean(word, names) +
           "; commands: " + JoinNames(names);
  }
  return "";
}

// For a command line CLI11 refused with "The following argument was not expected: ...": the
// first long option (`--word` or `--word=value`) that neither the subcommand it follows nor the
// program knows, with the closest known one: "unknown option '--stesp' for 'simulate' (did you
// mean '--steps'?); see quasidyn simulate --help". Empty when every long option is known (an
// extra positional argument: CLI11's own message says which).
std::string UnknownOption(const CLI::App& app, int argc, char** argv) {
  const auto long_names = [](const CLI::App& from, std::vector<std::string>* names) {
    for (const CLI::Option* option : from.get_options())
      for (const std::string& name : option->get_lnames()) names->push_back("--" + name);
  };
  std::vector<std::string> known;
  long_names(app, &known);
  std::string command;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word == "--log-level") {
      ++i;  // its value
      continue;
    }
    if (word.rfind("--", 0) != 0) {
      if (!command.empty()) continue;
      for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() != word) continue;
        command = word;
        long_names(*sub, &known);  // and the program's, which it falls through to
      }
      continue;
    }
    const std::string name = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string where = command.empty() ? "" : " for '" + command + "'";
    return "unknown option '" + name + "'" + where + DidYouMean(name, known) + "; see quasidyn " +
           (command.empty() ? "" : command + " ") + "--help";
  }
  return "";
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  CLI::App app{"quasidyn: convex quasi-dynamic simulation of contact-rich manipulation"};
  app.set_version_flag("--version", std::string("quasidyn ") + QUASIDYN_VERSION);
  app.require_subcommand(1);
  // --log-level (log.h) before or after the subcommand: the subcommands fall through to it.
  app.fallthrough();
  app.add_option_function<std::string>(
         "--log-level",
         [](const std::string& name) {
           quasidyn::cli::SetLogLevel(quasidyn::cli::ParseLogLevel(name));
         },
         "error | warning | info (default: the progress bar when stderr is a terminal) | "
         "debug (one line per step)")
      ->check(CLI::IsMember({"error", "warning", "info", "debug"}));
  quasidyn::cli::AddPackageOption(app);  // --package NAME=DIR, for every scene loaded
  quasidyn::cli::AddInfoCommand(app);
  quasidyn::cli::AddFormulationsCommand(app);
  quasidyn::cli::AddSettingsCommand(app);
  quasidyn::cli::AddSimulateCommand(app);
  quasidyn::cli::AddViewCommand(app);
  quasidyn::cli::AddLinearizeCommand(app);
  quasidyn::cli::AddDemoCommand(app);
  quasidyn::cli::AddPlanCommand(app);
  quasidyn::cli::AddOptimizeCommand(app);
  quasidyn::cli::AddTrackCommand(app);
  quasidyn::cli::AddMpcCommand(app);
  quasidyn::cli::AddCompareCommand(app);
  quasidyn::cli::AddConvertCommand(app);
  quasidyn::cli::AddSweepCommand(app);
  // `sweep` is a Python program (sweep_command.h): every argument after it, --help included, is
  // its own.
  if (argc >= 2 && std::string(argv[1]) == "sweep")
    return quasidyn::cli::RunSweepCommand(std::vector<std::string>(argv + 2, argv + argc));
  if (const std::string unknown = UnknownCommand(app, argc, argv); !unknown.empty()) {
    std::cerr << "quasidyn: error: " << unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0 and a subcommand's CLI::RuntimeError carries its own code
    // (3: a failed step); every malformed command line exits 2, like bad input.
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      if (const std::string unknown = UnknownOption(app, argc, argv); !unknown.empty()) {
        std::cerr << "quasidyn: error: " << unknown << "\n";
        return 2;
      }
    }
    const int code = app.exit(e);
    if (code == 0 || dynamic_cast<const CLI::RuntimeError*>(&e) != nullptr) return code;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "quasidyn: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace quasidyn::cli
