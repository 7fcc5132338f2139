#pragma once
// Shared pieces of the Python bindings (docs/python.md): how a Scene is held, the argument
// checks that name the Python argument, and one Bind*() per file, each adding its part of the
// module `quasidyn._quasidyn`.
//
// Lifetime: a Python Scene owns its C++ Scene through a shared_ptr, and every model made from
// it (stepping/step_model.h) keeps a share, so Python may free objects in any order.
//
// Threads: the calls that run C++ code release the GIL. A Stepper, Linearizer or
// BatchLinearizer owns mutable data (its StepData, its batch's data), so each holds a mutex
// taken, after the GIL is released, around every use of that data: one Python object shared
// by several threads serialises its calls and gives the results of a single thread; separate
// objects run in parallel.
//
// Errors name the Python function and argument ("Stepper.step: q has size 5, expected n_q =
// 6"), never a C++ function: every public entry point checks its arguments here before the
// library sees them.

#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn::python {

// The scene's own settings (SettingsFromScene) with the given overrides, each checked under its
// Python name: "<who>: h must be finite and > 0 (got -1)", "<who>: formulation: unknown ...".
FormulationSettings ResolveSettings(const char* who, const std::shared_ptr<Scene>& scene,
                                    const std::optional<std::string>& formulation,
                                    std::optional<double> h, std::optional<double> kappa,
                                    std::optional<double> object_mass_scale);

// ValueError "<who>: scene is None" for a null scene.
void RequireScene(const char* who, const std::shared_ptr<Scene>& scene);

// ValueError "<who>: <name> has size 5, expected n_q = 6" / "<who>: <name>[1] is not finite".
void CheckConfiguration(const char* who, const Scene& scene, const Eigen::VectorXd& q,
                        const char* name = "q");
void CheckCommand(const char* who, const Scene& scene, const Eigen::VectorXd& u,
                  const char* name = "u");
// The same for a model of formulation `type`: u of size n_v,u for ecp (the objects' applied
// impulse), n_q,a otherwise.
void CheckCommand(const char* who, FormulationType type, const Scene& scene,
                  const Eigen::VectorXd& u, const char* name = "u");

// The velocity of a state of `model` from the caller's optional argument `name` (may be null):
// for a model with a velocity state (stewart-trinkle, anitescu, ecp) v of size n_v, finite, or when
// absent *fallback (e.g. the scene's v0; null: ValueError "<who>: <name> (n_v,) is required
// ..."); for a model without, an empty vector, and ValueError when v is given.
Eigen::VectorXd StateVelocity(const char* who, const StepModel& model, const Eigen::VectorXd* v,
                              const char* name, const Eigen::VectorXd* fallback);
// The same for models of formulation `type` on `scene` (not made yet).
Eigen::VectorXd StateVelocity(const char* who, FormulationType type, const Scene& scene,
                              const Eigen::VectorXd* v, const char* name,
                              const Eigen::VectorXd* fallback);

// "a_and_b", "b_only", "none" (GradientModeName); ValueError "<who>: gradients must be ..."
GradientMode ParseGradients(const char* who, const std::string& gradients);

// Equal-length vectors as the rows of a matrix (rows.size() × their size; `columns` columns
// when there is no row), for dicts of numpy arrays.
Eigen::MatrixXd RowsToMatrix(const std::vector<Eigen::VectorXd>& rows, Eigen::Index columns = 0);

// A step's result with its contacts named after the scene's shapes and bodies (StepResult in
// Python); Trajectory.append takes one.
struct PyStepResult {
  StepResult result;
  std::vector<ContactRecord> contacts;
};

void BindScene(pybind11::module_& m);      // scene_bindings.cc
void BindStep(pybind11::module_& m);       // step_bindings.cc
void BindRollout(pybind11::module_& m);    // rollout_bindings.cc
void BindGeometry(pybind11::module_& m);   // geometry_bindings.cc
void BindGradients(pybind11::module_& m);  // gradients_bindings.cc
void BindPlan(pybind11::module_& m);       // plan_bindings.cc
void BindControl(pybind11::module_& m);    // control_bindings.cc
void BindMpc(pybind11::module_& m);        // mpc_bindings.cc

}  // namespace quasidyn::python
