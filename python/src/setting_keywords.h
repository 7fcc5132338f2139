#pragma once
// A settings block's keywords in Python, made from its schema (model/settings_schema.h): every
// setting by its name (`quasidyn.plan(scene, goal, kappa=50, plant_check_substeps=4)`), None
// meaning "not given", converted to the setting's kind (bool, int, float, str, a sequence of
// floats, a str or a sequence of str) or a TypeError naming the keyword. The module's
// `_settings()` lists every block's specs, from which scripts/generate_python_stubs.py writes
// the keywords into the stubs.

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn::python {

// Takes the keywords of `kwargs` that name a setting of `specs` into *overrides (in the order
// given); returns the others, for the caller's own keywords. `who` names the Python function in
// errors.
pybind11::dict TakeSettingKeywords(const char* who, const std::vector<SettingSpec>& specs,
                                   const pybind11::kwargs& kwargs, SettingOverrides* overrides);

// Refuses what TakeSettingKeywords left over but `allowed`: TypeError "<who>: unexpected keyword
// argument 'x' (did you mean 'y'?)".
void RefuseUnknownKeywords(const char* who, const pybind11::dict& rest,
                           const std::vector<SettingSpec>& specs,
                           const std::vector<std::string>& allowed);

// The marker a function's docstring carries for the stub generator: its **kwargs are the
// settings of `block` ("[settings: planning]").
std::string SettingsDocMarker(const std::string& block);
// The same for some of the block's settings alone ("[settings: linearization: samples, u_std]"):
// the function takes those.
std::string SettingsDocMarker(const std::string& block, const std::vector<std::string>& names);

void BindSettings(pybind11::module_& m);

}  // namespace quasidyn::python
