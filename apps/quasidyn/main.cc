// quasidyn: simulate, differentiate and plan contact-rich manipulation.
// One file per subcommand; this one wires them and turns every error into a message
// on stderr and a non-zero exit code.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "info_command.h"
#include "simulate_command.h"
#include "view_command.h"

int main(int argc, char** argv) {
  CLI::App app{"quasidyn: convex quasi-dynamic simulation of contact-rich manipulation"};
  app.set_version_flag("--version", std::string("quasidyn ") + QUASIDYN_VERSION);
  app.require_subcommand(1);
  quasidyn::cli::AddInfoCommand(app);
  quasidyn::cli::AddSimulateCommand(app);
  quasidyn::cli::AddViewCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "quasidyn: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
