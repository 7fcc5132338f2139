// The command line (cli.h): one file per subcommand; this one wires them and turns every error
// into a message on stderr and a non-zero exit code.
#include "cli.h"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "compare_command.h"
#include "demo_command.h"
#include "formulations_command.h"
#include "info_command.h"
#include "linearize_command.h"
#include "log.h"
#include "mpc_command.h"
#include "optimize_command.h"
#include "plan_command.h"
#include "simulate_command.h"
#include "track_command.h"
#include "view_command.h"

namespace quasidyn::cli {

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
  quasidyn::cli::AddInfoCommand(app);
  quasidyn::cli::AddFormulationsCommand(app);
  quasidyn::cli::AddSimulateCommand(app);
  quasidyn::cli::AddViewCommand(app);
  quasidyn::cli::AddLinearizeCommand(app);
  quasidyn::cli::AddDemoCommand(app);
  quasidyn::cli::AddPlanCommand(app);
  quasidyn::cli::AddOptimizeCommand(app);
  quasidyn::cli::AddTrackCommand(app);
  quasidyn::cli::AddMpcCommand(app);
  quasidyn::cli::AddCompareCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0 and a subcommand's CLI::RuntimeError carries its own code
    // (3: a failed step); every malformed command line exits 2, like bad input.
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
