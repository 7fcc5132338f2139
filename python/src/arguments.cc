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

void CheckCommand(const char* who, FormulationType type, const Scene& scene,
                  const Eigen::VectorXd& u, const char* name) {
  if (type == FormulationType::kEcp) {  // the objects' applied impulse (stepping/ecp_model.h)
    CheckVector(who, name, u, scene.nv_u, "n_v,u (ecp: the impulse applied to each object)");
  } else {
    CheckCommand(who, scene, u, name);
  }
}

Eigen::VectorXd StateVelocity(const char* who, const StepModel& model, const Eigen::VectorXd* v,
                              const char* name, const Eigen::VectorXd* fallback) {
  return StateVelocity(who, model.settings().type, model.scene(), v, name, fallback);
}

Eigen::VectorXd StateVelocity(const char* who, FormulationType type, const Scene& scene,
                              const Eigen::VectorXd* v, const char* name,
                              const Eigen::VectorXd* fallback) {
  const std::string formulation = FormulationName(type);
  const int nv = HasVelocityState(type) ? scene.nv : 0;
  if (nv == 0) {
    if (v != nullptr)
      throw py::value_error(std::string(who) + ": " + name + " is for the formulations with a " +
                            "velocity state (stewart-trinkle, anitescu, ecp), not " + formulation);
    return Eigen::VectorXd();
  }
  if (v == nullptr) {
    if (fallback == nullptr)
      throw py::value_error(std::string(who) + ": " + name + " (n_v = " + std::to_string(nv) +
                            ",) is required: " + formulation + " has a velocity state");
    return *fallback;
  }
  CheckVector(who, name, *v, nv, "n_v");
  return *v;
}

GradientMode ParseGradients(const char* who, const std::string& gradients) {
  for (GradientMode mode : {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB})
    if (gradients == GradientModeName(mode)) return mode;
  throw py::value_error(std::string(who) + ": gradients must be 'a_and_b', 'b_only' or 'none' " +
                        "(got '" + gradients + "')");
}

Eigen::MatrixXd RowsToMatrix(const std::vector<Eigen::VectorXd>& rows, Eigen::Index columns) {
  Eigen::MatrixXd m(rows.size(), rows.empty() ? columns : rows[0].size());
  for (size_t i = 0; i < rows.size(); ++i) m.row(i) = rows[i].transpose();
  return m;
}

}  // namespace quasidyn::python
