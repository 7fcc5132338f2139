#pragma once
// The formulations quasidyn steps scenes with, by name: the one table of them. A formulation
// is one folder, formulations/<name>/, that holds its parameters, the scene keys it reads, its
// step model (Calc and CalcDiff) and its registration (a FormulationPlugin); everything above
// the formulations (the scene loader, the command line, Python, the lineariser, the planner,
// the controllers, the viewer, the benchmarks) asks this registry and the model's
// FormulationInfo (stepping/formulation_info.h), never a list of names.
//
//   FormulationRegistry::Global()        the built-in ten (formulations/builtin.cc)  and any
//                                        registered since (RegisterFormulation)
//   MakeStepModel(scene, {"socp"})       a model of a registered formulation
//
// docs/adding-a-formulation.md walks through a new one (a test-only formulation registered
// from tests/plugin/ alone runs through simulate, linearize, rollout and compare).

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "quasidyn/formulations/parameters.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/stepping/formulation_info.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// What a formulation's factory gets: the scene, the time step, and the parameters (the
// scene's block with the caller's values on top), checked against the formulation's specs.
struct FormulationInputs {
  ScenePtr scene;
  double time_step = 0.0;  // h [s], finite and > 0
  FormulationParameters parameters;
};

// A key a formulation reads from scene files outside its `formulation:` block (ecp's
// objects[].impulses, halm-posa's objects[].limit_surface).
struct SceneKeySpec {
  std::string key;          // e.g. "impulses"
  std::string container;    // the list whose entries carry it: "objects"
  std::string description;  // one line, for `quasidyn formulations` and the docs
};

struct FormulationPlugin {
  FormulationInfo info;
  std::vector<ParameterSpec> parameters;
  std::vector<SceneKeySpec> scene_keys;
  // Checks what a parameter block naming this formulation must satisfy as a whole (failing at the
  // offending value through FailAt); the scene loader and WithFormulation call it
  // (scenes/scene_loading.h). May be empty.
  std::function<void(const ParameterBlock& parameters)> check_parameters;
  // After a scene file's models are read: reads this formulation's scene keys (scene_keys) from
  // `root` (io/scene_document.h) into scene->extensions (model/scene.h) and checks what the
  // formulation needs of a scene that names it (at formulation.type). May be empty.
  std::function<void(const YamlValue& root, Scene* scene)> read_scene_keys;
  // Makes the model; throws std::invalid_argument or SceneError naming what is wrong (a
  // parameter at its source, what the scene lacks for this formulation).
  std::function<std::shared_ptr<const StepModel>(const FormulationInputs& inputs)> make_model;
  // Scenes (YAML texts, as a scene file holds them) the conformance suite steps this formulation
  // on besides the shared set it can step (tests/conformance/formulation_conformance.h): a
  // plug-in declares here a scene from its own folder. The library never reads them. May be
  // empty.
  std::vector<std::string> conformance_scenes;
};

class FormulationRegistry final {
 public:
  // The process's registry, holding the built-in formulations (formulations/builtin.cc).
  static FormulationRegistry& Global();

  FormulationRegistry() = default;
  FormulationRegistry(const FormulationRegistry&) = delete;
  FormulationRegistry& operator=(const FormulationRegistry&) = delete;

  // Adds a formulation. Throws std::invalid_argument for an empty or taken name, a missing
  // factory, or a parameter key that another formulation declares with another meaning (unit
  // or range). Safe to call while other threads look formulations up.
  void Register(FormulationPlugin plugin);

  // nullptr when no formulation has this name.
  const FormulationPlugin* Find(const std::string& name) const;
  // Throws std::invalid_argument("unknown formulation 'x' (did you mean ...? registered: ...)").
  const FormulationPlugin& Get(const std::string& name) const;
  // In registration order.
  std::vector<const FormulationPlugin*> Plugins() const;
  // The spec of `key` as some formulation declares it; nullptr when none does.
  const ParameterSpec* FindParameter(const std::string& key) const;
  // FindParameter's spec; fails at `source` (FailAt) naming the closest declared key when no
  // formulation declares `key`.
  const ParameterSpec& CheckParameterKey(const std::string& key, const ValueSource& source) const;

  // The names of the registered formulations, in registration order.
  std::vector<std::string> FormulationNames() const;
  // Checks a value of `key` given outside a scene (a program's argument): some formulation
  // must declare the key (CheckParameterKey) and the value must be in its range.
  void CheckParameter(const std::string& key, const Eigen::MatrixXd& value,
                      const ValueSource& source) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<const FormulationPlugin>> plugins_;
};

// Registers `plugin` in the global registry (FormulationRegistry::Global().Register).
void RegisterFormulation(FormulationPlugin plugin);

// The plugin of the formulation `choice` names (the scene's own when it names none).
const FormulationPlugin& ChosenFormulation(const Scene& scene, const FormulationChoice& choice);

// A model of `choice` (name, parameters on top of the scene's block, h; unset parts are the
// scene's). Throws std::invalid_argument or SceneError naming what is wrong.
std::shared_ptr<const StepModel> MakeStepModel(ScenePtr scene,
                                               const FormulationChoice& choice = {});

// The choice that makes a model like `model`: its formulation, the parameter values it steps
// with (defaults resolved, the scene's block ignored) and its time step.
FormulationChoice ChoiceOf(const StepModel& model);

// The inputs MakeStepModel gives the plugin's factory (resolved and checked), for a caller
// that needs them without a model.
FormulationInputs ResolveFormulationInputs(ScenePtr scene, const FormulationPlugin& plugin,
                                           const FormulationChoice& choice);

// The scene's initial state for its own formulation: q0, and v = v0 (Scene::v0; zeros when the
// file gives none) when that formulation's state has velocities, else v empty. A model's own
// state is InitialState(model) (step_model.h), which a caller should prefer when the model's
// formulation may differ from the scene's.
State InitialState(const Scene& scene);

// Why `plugin`'s declared capabilities do not fit `scene` (2D/3D, robots), or empty.
std::string WhyCannotStepCapabilities(const Scene& scene, const FormulationPlugin& plugin);

// Why `plugin` cannot step `scene` (a missing capability, or what its factory rejects), or
// empty when it can: builds the model to find out.
std::string WhyCannotStep(const ScenePtr& scene, const FormulationPlugin& plugin,
                          const FormulationChoice& choice = {});

}  // namespace quasidyn
