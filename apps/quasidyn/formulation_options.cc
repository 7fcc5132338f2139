#include "formulation_options.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn::cli {
namespace {

std::string Number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

}  // namespace

std::string FormulationNamesText() {
  return JoinNames(FormulationRegistry::Global().FormulationNames(), " | ");
}

void AddFormulationOptions(CLI::App* command, FormulationOptions* options,
                           const std::string& formulation_help, bool time_step) {
  options->formulation_option = command->add_option(
      "--formulation", options->formulation, FormulationNamesText() + " " + formulation_help);
  if (time_step)
    options->time_step_option = command->add_option("--h", options->time_step,
                                                    "Time step h [s] > 0 (default: the scene's)");
  options->kappa_option = command->add_option(
      "--kappa", options->kappa,
      "Log-barrier weight kappa [1/(N·m)] > 0, of the log barriers and of log-barrier "
      "linearisations (default: the scene's, else scaled from the scene: docs/scene-format.md)");
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
    if (!std::isfinite(options.time_step) || !(options.time_step > 0))
      throw std::invalid_argument("--h: the time step must be a finite number > 0 s (got " +
                                  Number(options.time_step) + ")");
    choice.time_step = options.time_step;
  }
  if (options.kappa_option != nullptr && options.kappa_option->count() > 0) {
    if (!std::isfinite(options.kappa) || !(options.kappa > 0))
      throw std::invalid_argument("--kappa: the barrier weight must be a finite number > 0 (got " +
                                  Number(options.kappa) + ")");
    choice.parameters.Set("kappa", options.kappa, ValueSource{"", 0, "--kappa"});
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
