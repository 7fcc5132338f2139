#include "formulation_options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn::cli {

std::string FormulationNamesText() {
  return JoinNames(FormulationRegistry::Global().FormulationNames(), " | ");
}

void AddFormulationOptions(CLI::App* command, FormulationOptions* options,
                           const std::string& formulation_help, bool time_step) {
  options->formulation_option = command->add_option(
      "--formulation", options->formulation, FormulationNamesText() + " " + formulation_help);
  if (time_step)
    options->time_step_option = command->add_option(
        "--h", options->time_step,
        "Time step h [s], " + PhysicalRangeText(kTimeStepRange) + " (default: the scene's)");
  // One flag per number parameter the registered formulations declare (the first declaration of
  // a key: the registry checks that every formulation means the same by it).
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    for (const ParameterSpec& spec : plugin->parameters) {
      std::string flag = "--" + spec.key;
      std::replace(flag.begin(), flag.end(), '_', '-');
      if (!spec.number || spec.key.size() < 2 || command->get_option_no_throw(flag) != nullptr)
        continue;
      std::string help = spec.description + " [" + spec.unit + "], " + spec.range +
                         " (default: the scene's, else " + spec.default_text + ")";
      help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
      command->add_option_function<double>(
          flag,
          [options, key = spec.key, flag](const double& value) {
            options->flags.Set(key, value, ValueSource{"", 0, flag});
          },
          help);
    }
  }
  command->add_option("--param", options->parameters,
                      "KEY=VALUE: a formulation parameter (repeatable; `quasidyn formulations` "
                      "lists each formulation's), e.g. --param object_mass_scale=0.5");
}

FormulationChoice ChoiceFrom(const FormulationOptions& options) {
  const FormulationRegistry& registry = FormulationRegistry::Global();
  FormulationChoice choice;
  if (options.formulation_option != nullptr && options.formulation_option->count() > 0) {
    if (registry.Find(options.formulation) == nullptr) {
      const std::vector<std::string> names = registry.FormulationNames();
      throw std::invalid_argument("--formulation: unknown formulation '" + options.formulation +
                                  "'" + DidYouMean(options.formulation, names) + " (" +
                                  JoinNames(names, " | ") + ")");
    }
    choice.name = options.formulation;
  }
  if (options.time_step_option != nullptr && options.time_step_option->count() > 0) {
    if (!InPhysicalRange(kTimeStepRange, options.time_step))  // the scene file's range
      throw std::invalid_argument("--h: " +
                                  PhysicalRangeProblem(kTimeStepRange, options.time_step));
    choice.time_step = options.time_step;
  }
  for (const ParameterValue& given : options.flags.values()) {
    registry.CheckParameter(given.key, given.value, given.source);
    choice.parameters.Set(given.key, given.value, given.source);
  }
  for (const std::string& text : options.parameters) {
    const size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument("--param: expected KEY=VALUE (got '" + text + "')");
    const std::string key = text.substr(0, equals), value_text = text.substr(equals + 1);
    char* end = nullptr;
    const double value = std::strtod(value_text.c_str(), &end);
    if (value_text.empty() || end == nullptr || *end != '\0')
      throw std::invalid_argument("--param " + key + ": '" + value_text + "' is not a number");
    const ValueSource source{"", 0, "--param " + key};
    registry.CheckParameter(key, Eigen::MatrixXd::Constant(1, 1, value), source);
    choice.parameters.Set(key, value, source);
  }
  return choice;
}

}  // namespace quasidyn::cli
