#pragma once
// Shared pieces of the Python bindings (docs/python.md): how a Scene is held, and one
// Bind*() per file, each adding its part of the module `quasidyn._quasidyn`.
//
// Lifetime: a Python Scene owns its C++ Scene through a shared_ptr; every object that reads the
// scene later (Stepper, results with names) keeps that shared_ptr, so the C++ rule "the scene
// must outlive the stepper" holds whatever order Python frees things in.

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn::python {

using ScenePtr = std::shared_ptr<const Scene>;

// The scene's own settings (SettingsFromScene) with the given overrides. The values are not
// range-checked here: the C++ stepper / rollout checks them and raises its own message.
FormulationSettings ResolveSettings(const Scene& scene,
                                    const std::optional<std::string>& formulation,
                                    std::optional<double> h, std::optional<double> kappa,
                                    std::optional<double> object_mass_scale);

void BindScene(pybind11::module_& m);      // scene_bindings.cc
void BindStep(pybind11::module_& m);       // step_bindings.cc
void BindRollout(pybind11::module_& m);    // rollout_bindings.cc
void BindGeometry(pybind11::module_& m);   // geometry_bindings.cc
void BindGradients(pybind11::module_& m);  // gradients_bindings.cc (issue 4, in progress)

}  // namespace quasidyn::python
