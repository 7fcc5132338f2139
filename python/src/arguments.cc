// The argument checks of the bindings (bindings.h): every message names the Python function and
// argument the caller wrote.

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "bindings.h"
#include "quasidyn/common/argument_check.h"
#include "quasidyn/stepping/step_model.h"

namespace py = pybind11;

namespace quasidyn::python {

void RequireScene(const char* who, const std::shared_ptr<Scene>& scene) {
  if (!scene) throw py::value_error(std::string(who) + ": scene is None");
}

FormulationSettings ResolveSettings(const char* who, const std::shared_ptr<Scene>& scene,
                                    const std::optional<std::string>& formulation,
                                    std::optional<double> h, std::optional<double> kappa,
                                    std::optional<double> object_mass_scale) {
  RequireScene(who, scene);
  SettingsOverrides overrides;
  if (formulation) {
    try {
      overrides.type = ParseFormulation(*formulation);
    } catch (const std::invalid_argument& e) {
      throw py::value_error(std::string(who) + ": " + e.what());
    }
  }
  if (h) CheckPositive(who, "h", *h);
  if (kappa) CheckPositive(who, "kappa", *kappa);
  if (object_mass_scale) CheckNonNegative(who, "object_mass_scale", *object_mass_scale);
  overrides.time_step = h;
  overrides.kappa = kappa;
  overrides.object_mass_scale = object_mass_scale;
  return SettingsFromScene(*scene, overrides);
}

void CheckConfiguration(const char* who, const Scene& scene, const Eigen::VectorXd& q,
                        const char* name) {
  CheckVector(who, name, q, scene.nq, "n_q");
}

void CheckCommand(const char* who, const Scene& scene, const Eigen::VectorXd& u, const char* name) {
  CheckVector(who, name, u, scene.nq_a, "n_q,a");
}

GradientMode ParseGradients(const char* who, const std::string& gradients) {
  for (GradientMode mode : {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB})
    if (gradients == GradientModeName(mode)) return mode;
  throw py::value_error(std::string(who) + ": gradients must be 'a_and_b', 'b_only' or 'none' " +
                        "(got '" + gradients + "')");
}

}  // namespace quasidyn::python
