#pragma once
// The options of every subcommand that steps a scene, choosing and tuning its formulation:
//   --formulation NAME   a registered formulation (`quasidyn formulations` lists them; default:
//                        the scene's)
//   --h H                the time step [s] > 0 (default: the scene's)
//   --<key> VALUE        every number parameter a registered formulation declares, by its key
//                        with '_' written '-' (--kappa, --object-mass-scale, --tracking-gain,
//                        ...; formulations/parameters.h), its help the declaration's; a key of
//                        one letter (halm-posa's c) only through --param
//   --param KEY=VALUE    any formulation parameter (repeatable)
// each checked by the registry as a scene's formulation block is
// ChoiceFrom turns them into a FormulationChoice (model/formulation_choice.h); a bad value is an
// std::invalid_argument naming the option.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "quasidyn/model/formulation_choice.h"

namespace quasidyn::cli {

struct FormulationOptions {
  std::string formulation;
  double time_step = 0.0;
  ParameterBlock flags;                 // the parameters given by their own flags
  std::vector<std::string> parameters;  // KEY=VALUE
  CLI::Option* formulation_option = nullptr;
  CLI::Option* time_step_option = nullptr;
};

// Adds the options above to `command` (--h only when `time_step`); `formulation_help` describes
// --formulation's default and limits for this command.
void AddFormulationOptions(CLI::App* command, FormulationOptions* options,
                           const std::string& formulation_help =
                               "(default: the scene's; `quasidyn formulations` lists them)",
                           bool time_step = true);

FormulationChoice ChoiceFrom(const FormulationOptions& options);

// "qp | socp | ..." in registration order.
std::string FormulationNamesText();

}  // namespace quasidyn::cli
