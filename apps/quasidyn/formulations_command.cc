#include "formulations_command.h"

#include <iostream>
#include <memory>

#include "log.h"
#include "quasidyn/formulations/registry_report.h"

namespace quasidyn::cli {

void AddFormulationsCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "formulations",
      "List the registered formulations with their capabilities, parameters and scene keys");
  command->add_flag("--json", *json, "Print JSON instead of text");
  AddQuietFlag(command);
  command->callback([json] {
    const FormulationRegistry& registry = FormulationRegistry::Global();
    if (*json)
      std::cout << DescribeFormulations(registry).dump(2) << "\n";
    else
      std::cout << FormulationsText(registry);
  });
}

}  // namespace quasidyn::cli
