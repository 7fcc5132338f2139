#pragma once
// Shared pieces of the Python bindings (docs/python.md): how a Scene is held, and one
// Bind*() per file, each adding its part of the module `quasidyn._quasidyn`.
//
// Lifetime: a Python Scene owns its C++ Scene through a shared_ptr, and every model made from
// it (stepping/step_model.h) keeps a share, so Python may free objects in any order.
//
// Threads: the calls that run C++ code release the GIL. A Stepper, Linearizer or
// BatchLinearizer owns mutable data (its StepData, its batch's data), so each holds a mutex
// taken, after the GIL is released, around every use of that data: one Python object shared
// by several threads serialises its calls and gives the results of a single thread; separate
// objects run in parallel.

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn::python {

// The scene's own settings (SettingsFromScene) with the given overrides; `who` names the
// caller in the ValueError raised for a None scene. The values are not range-checked here:
// the C++ model checks them and raises its own message.
FormulationSettings ResolveSettings(const char* who, const std::shared_ptr<Scene>& scene,
                                    const std::optional<std::string>& formulation,
                                    std::optional<double> h, std::optional<double> kappa,
                                    std::optional<double> object_mass_scale);

void BindScene(pybind11::module_& m);      // scene_bindings.cc
void BindStep(pybind11::module_& m);       // step_bindings.cc
void BindRollout(pybind11::module_& m);    // rollout_bindings.cc
void BindGeometry(pybind11::module_& m);   // geometry_bindings.cc
void BindGradients(pybind11::module_& m);  // gradients_bindings.cc
void BindControl(pybind11::module_& m);    // control_bindings.cc

}  // namespace quasidyn::python
