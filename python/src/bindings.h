#pragma once
// Shared pieces of the Python bindings (docs/python.md): how Python's arguments become the C++
// library's (a FormulationChoice from formulation=, h=, parameters=, ...), how the
// library's errors name the Python function and argument, and one Bind*() per file, each adding
// its part of the module `quasidyn._quasidyn`.
//
// Thin bindings: the files convert types and call the library; the library checks the values
// (sizes, finiteness, ranges, names) and throws std::invalid_argument, which Named() turns into
// ValueError("<python function>: <python argument> ..."), e.g. "Stepper.step: q has size 5,
// expected n_q = 6" from the library's "Calc: x.q has size 5, expected n_q = 6".
//
// Lifetime: a Python Scene owns its C++ Scene through a shared_ptr, and every model made from
// it (stepping/step_model.h) keeps a share, so Python may free objects in any order.
//
// Threads: the calls that run C++ code release the GIL. A Stepper, Linearizer or
// BatchLinearizer owns mutable data (its StepData, its lineariser's batch), so each holds a
// mutex taken, after the GIL is released, around every use of that data: one Python object
// shared by several threads serialises its calls and gives the results of a single thread;
// separate objects run in parallel.

#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/rollout_settings.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn::python {

// The library's message `message` as the Python function `who` reports it: the C++ function
// that checked ("Calc: ", "MakeStepModel: ", "point 3: ") becomes `who`, and the C++ names of
// the arguments become the Python ones (x.q -> q, x0.v -> v0, commands row 2 -> U[2], the time
// step h -> h; with `points`, the batch's point i's x.q -> Q[i], u -> U[i], x.v -> V[i]).
// A message that already starts with "<who>: " is kept. With `items`, a batch's item i
// ("point i: " of BatchStepper, "rollout i: " of RolloutBatch) names its argument's row: x.q ->
// Q[i], u -> U[i], x.v -> V[i]; x0.q -> q0s[i], x0.v -> v0s[i], commands row k -> Us[i][k].
// errors.cc holds the table.
std::string PythonMessage(const char* who, const std::string& message, bool items = false);

// Runs `call`; a std::invalid_argument of the library becomes ValueError(PythonMessage(...)).
template <typename Call>
decltype(auto) Named(const char* who, Call&& call, bool items = false) {
  try {
    return call();
  } catch (const std::invalid_argument& e) {
    throw pybind11::value_error(PythonMessage(who, e.what(), items));
  }
}

// A missing file in Python's words: the class `name` of module m, a subclass of `base` (a
// quasidyn error or a built-in one) and of FileNotFoundError, so that `except FileNotFoundError`
// and `except base` both catch it; str(e) is the library's message (errors.cc).
pybind11::object FileNotFoundClass(pybind11::module_& m, const char* name, pybind11::handle base,
                                   const char* doc);
// An instance of such a class with the library's message, errno ENOENT, its strerror and
// filename = path (decoded as os.fsdecode does), as Python's own open() sets them.
pybind11::object FileNotFoundInstance(pybind11::handle cls, const std::string& message,
                                      const std::string& path);

// The formulation keywords of Stepper, rollout, Trajectory, Linearizer, ...: formulation=
// (a registered name; None: the scene's), h= (the time step), parameters= (any formulation
// parameter by key) and **by_key: every number parameter a registered formulation declares, by
// its key as a keyword of its own (the registry is the list, formulations/parameters.h; a
// function's docstring ends with kParameterKeywordsDoc, whose marker the stubs expand).
struct FormulationKeywords {
  std::optional<std::string> formulation;
  std::optional<double> h;
  std::optional<std::map<std::string, double>> parameters;
  pybind11::kwargs by_key;
};

// The FormulationChoice of the keywords, each value's source the Python function `who` (so that
// the registry's message reads "<who>: <key> must be ..."). The values are checked where the
// choice is used (MakeStepModel: FormulationRegistry::CheckParameter, the time step).
// ValueError when a parameter is given twice (by its keyword and in parameters); TypeError
// "<who>: unexpected keyword argument 'x' (did you mean ...?)" for a keyword that no registered
// formulation declares, or "<who>: keyword 'x' cannot take a str" for a value that is not a
// number (None: not given).
FormulationChoice Choice(const char* who, const FormulationKeywords& keywords);

// What a docstring says of **by_key, with the marker scripts/generate_python_stubs.py expands
// into every registered number parameter ("[parameters]").
extern const char* const kParameterKeywordsDoc;

// Read-only properties of `cls` (Stepper, Trajectory) named after every number parameter the
// registered formulations declare (NumberParameterKeys): `parameters_of(self)`'s
// value of that key, or None. A key that is already an attribute of `cls` is left out.
template <typename Class, typename ParametersOf>
void AddParameterProperties(Class& cls, ParametersOf parameters_of);

// Every number parameter key the registered formulations declare, in registration order
// (formulations/registry.h).
std::vector<std::string> NumberParameterKeys();

// A parameter block as {key: value}: a number as a float, a list as a numpy array.
pybind11::dict ParameterDict(const ParameterBlock& block);
// The block's number parameters (1 × 1 values) as {key: value}.
std::map<std::string, double> NumberParameters(const ParameterBlock& block);
// The value of number parameter `key`; None when the block has none.
std::optional<double> NumberParameter(const ParameterBlock& block, const std::string& key);

// The scene a page of `trajectory` shows (quasidyn.view, Trajectory in a notebook): `scene`
// when given, else the trajectory's in-memory scene, else its scene_file loaded. ValueError
// "<who>: the trajectory records no scene file: pass scene=" when there is none.
std::shared_ptr<const Scene> SceneToShow(const char* who, const Trajectory& trajectory,
                                         std::shared_ptr<const Scene> scene);

// What `_repr_html_` and `notebook_html(height=...)` of Trajectory, Plan and compare's result say
// of the frame (docstrings).
extern const char* const kNotebookHtmlDoc;

// "a_and_b", "b_only", "none" (GradientModeName); ValueError "<who>: gradients must be ..."
GradientMode ParseGradients(const char* who, const std::string& gradients);

// The scene a trajectory was simulated on; ValueError "<who>: the trajectory has no scene in
// memory ..." for one read from a file without it.
const Scene& SceneOf(const Trajectory& trajectory, const char* who);

// The rollout block's settings among a rollout's keywords (rollout, rollout_batch: steps,
// duration, gradients; not `every`, a trajectory file's), checked (ValueError "<who>:
// rollout.steps: must be >= 0 (got -1)"); the keywords left, the formulation's parameters by key,
// in *by_key. TypeError for a keyword that is neither, or for a value of the wrong type.
RolloutSettings TakeRolloutKeywords(const char* who, pybind11::kwargs* by_key);
// The rollout block's specs those functions take as keywords, and their docstring's marker.
std::vector<SettingSpec> RolloutKeywordSpecs();
std::string RolloutKeywordsDoc();
// The steps of a rollout of the scene's schedule (rollout, rollout_batch): RolloutStepCount
// (steps, or those covering duration [s], or those to the end of the scene's command schedule
// when neither is given, as `quasidyn simulate`). ValueError "<who>: ..." for no schedule.
int ScheduleSteps(const char* who, const StepModel& model, const RolloutSettings& settings);
// ValueError "<who>: formulation '...' has no gradients: <why>" when `mode` asks derivatives of
// a model that has none.
void CheckGradientsAvailable(const char* who, const StepModel& model, GradientMode mode);

// Equal-length vectors as the rows of a matrix (rows.size() × their size; `columns` columns
// when there is no row), for dicts of numpy arrays.
Eigen::MatrixXd RowsToMatrix(const std::vector<Eigen::VectorXd>& rows, Eigen::Index columns = 0);

// A step's result with its contacts named after the scene's shapes and bodies (StepResult in
// Python); Trajectory.append takes one.
struct PyStepResult {
  StepResult result;
  std::vector<ContactRecord> contacts;
};

using PyScene = pybind11::class_<Scene, std::shared_ptr<Scene>>;
using PyTrajectory = pybind11::class_<Trajectory, std::shared_ptr<Trajectory>>;

// Each part of the module, defined in the file named after it (BindScene: scene_bindings.cc,
// BindSceneEdits: scene_edit_bindings.cc, BindTrajectoryArrays: trajectory_array_bindings.cc,
// BindGradients: gradients_bindings.cc, BindRolloutBatch: rollout_batch_bindings.cc, ...);
// module.cc calls them in this order.
PyScene BindScene(pybind11::module_& m);
void BindSceneEdits(pybind11::module_& m, PyScene& scene);
void BindFormulations(pybind11::module_& m);
void BindComparison(pybind11::module_& m);
void BindStepResult(pybind11::module_& m);
void BindStep(pybind11::module_& m);
PyTrajectory BindTrajectory(pybind11::module_& m);
void BindTrajectoryArrays(PyTrajectory& trajectory);
void BindTrajectoryFiles(pybind11::module_& m, PyTrajectory& trajectory);
void BindRollout(pybind11::module_& m, PyTrajectory& trajectory);
void BindRolloutBatch(pybind11::module_& m);
void BindGeometry(pybind11::module_& m);
void BindInverseKinematics(pybind11::module_& m);
void BindLinearizations(pybind11::module_& m);
void BindGradients(pybind11::module_& m);
void BindBatchLinearizer(pybind11::module_& m);
void BindPlan(pybind11::module_& m);
void BindControl(pybind11::module_& m);
void BindMpc(pybind11::module_& m);
void BindParkedThreadSpin(pybind11::module_& m);                    // parked_thread_bindings.cc
void BindNotebook(pybind11::module_& m, PyTrajectory& trajectory);  // notebook_bindings.cc

template <typename Class, typename ParametersOf>
void AddParameterProperties(Class& cls, ParametersOf parameters_of) {
  for (const std::string& key : NumberParameterKeys()) {
    if (pybind11::hasattr(cls, key.c_str())) continue;
    cls.def_property_readonly(
        key.c_str(),
        [parameters_of, key](const typename Class::type& self) {
          return NumberParameter(parameters_of(self), key);
        },
        ("The model's formulation parameter '" + key +
         "' (parameters[key]); None for a formulation without it (quasidyn.formulations()).")
            .c_str());
  }
}

}  // namespace quasidyn::python
