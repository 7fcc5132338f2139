#include "quasidyn/formulations/registry.h"

#include <cmath>
#include <exception>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/closest_name.h"
#include "quasidyn/formulations/builtin.h"
#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {

FormulationRegistry& FormulationRegistry::Global() {
  static FormulationRegistry* registry = [] {
    auto* built = new FormulationRegistry();  // never destroyed: models may outlive main's locals
    RegisterBuiltinFormulations(built);
    return built;
  }();
  return *registry;
}

void FormulationRegistry::Register(FormulationPlugin plugin) {
  const std::string& name = plugin.info.name;
  QUASIDYN_CHECK_ARGUMENT(!name.empty(), "RegisterFormulation", "the formulation has no name");
  QUASIDYN_CHECK_ARGUMENT(static_cast<bool>(plugin.make_model), "RegisterFormulation",
                          "formulation '" + name + "' has no make_model");
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& existing : plugins_) {
    QUASIDYN_CHECK_ARGUMENT(existing->info.name != name, "RegisterFormulation",
                            "a formulation named '" + name + "' is already registered");
    for (const ParameterSpec& theirs : existing->parameters) {
      for (const ParameterSpec& ours : plugin.parameters) {
        QUASIDYN_CHECK_ARGUMENT(
            ours.key != theirs.key || (ours.unit == theirs.unit && ours.range == theirs.range),
            "RegisterFormulation",
            "parameter '" + ours.key + "' of " + name + " [" + ours.unit + ", " + ours.range +
                "] differs from that of " + existing->info.name + " [" + theirs.unit + ", " +
                theirs.range + "]: a scene's formulation block gives one value per key");
      }
    }
  }
  plugins_.push_back(std::make_unique<const FormulationPlugin>(std::move(plugin)));
}

const FormulationPlugin* FormulationRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& plugin : plugins_)
    if (plugin->info.name == name) return plugin.get();
  return nullptr;
}

const FormulationPlugin& FormulationRegistry::Get(const std::string& name) const {
  if (const FormulationPlugin* plugin = Find(name)) return *plugin;
  const std::vector<std::string> names = FormulationNames();
  ThrowInvalidArgument("formulation", "unknown formulation '" + name + "'" +
                                          DidYouMean(name, names) +
                                          "; registered: " + JoinNames(names));
}

std::vector<const FormulationPlugin*> FormulationRegistry::Plugins() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<const FormulationPlugin*> out;
  for (const auto& plugin : plugins_) out.push_back(plugin.get());
  return out;
}

const ParameterSpec* FormulationRegistry::FindParameter(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& plugin : plugins_)
    for (const ParameterSpec& spec : plugin->parameters)
      if (spec.key == key) return &spec;
  return nullptr;
}

std::vector<std::string> FormulationRegistry::FormulationNames() const {
  std::vector<std::string> names;
  for (const FormulationPlugin* plugin : Plugins()) names.push_back(plugin->info.name);
  return names;
}

const ParameterSpec& FormulationRegistry::CheckParameterKey(const std::string& key,
                                                            const ValueSource& source) const {
  const ParameterSpec* spec = FindParameter(key);
  if (spec == nullptr) {
    std::vector<std::string> keys;
    for (const FormulationPlugin* plugin : Plugins())
      for (const ParameterSpec& s : plugin->parameters) keys.push_back(s.key);
    FailAt(source, "unknown formulation parameter '" + key + "'" + DidYouMean(key, keys) +
                       " (the formulations' parameters: " + JoinNames(keys) +
                       "; `quasidyn formulations` lists them)");
  }
  return *spec;
}

void FormulationRegistry::CheckParameter(const std::string& key, const Eigen::MatrixXd& value,
                                         const ValueSource& source) const {
  ::quasidyn::CheckParameter(CheckParameterKey(key, source), value, source);
}

void RegisterFormulation(FormulationPlugin plugin) {
  FormulationRegistry::Global().Register(std::move(plugin));
}

const FormulationPlugin& ChosenFormulation(const Scene& scene, const FormulationChoice& choice) {
  return FormulationRegistry::Global().Get(choice.name.empty() ? scene.formulation.name
                                                               : choice.name);
}

FormulationChoice ChoiceOf(const StepModel& model) {
  FormulationChoice choice(model.formulation().name, model.parameters(), model.time_step());
  choice.use_scene_parameters = false;
  return choice;
}

FormulationInputs ResolveFormulationInputs(ScenePtr scene, const FormulationPlugin& plugin,
                                           const FormulationChoice& choice) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, "MakeStepModel", "the scene is null");
  const double h = choice.time_step ? *choice.time_step : scene->time_step;
  QUASIDYN_CHECK_ARGUMENT(InPhysicalRange(kTimeStepRange, h), "MakeStepModel",
                          "the time step h " + PhysicalRangeProblem(kTimeStepRange, h));
  // The caller's values are checked as the loader checks the scene's (an unknown key is an
  // error wherever it comes from).
  const FormulationRegistry& registry = FormulationRegistry::Global();
  for (const ParameterValue& value : choice.parameters.values())
    registry.CheckParameter(value.key, value.value, value.source);
  ParameterBlock block = choice.use_scene_parameters
                             ? scene->formulation.parameters.With(choice.parameters)
                             : choice.parameters;
  return FormulationInputs{
      scene, h, FormulationParameters(plugin.info.name, plugin.parameters, std::move(block))};
}

namespace {

// The first robot link with a singular inertia (Body::singular_inertia) when `plugin` uses the
// robots' mass matrix; nullptr otherwise.
const Body* SingularRobotLinkFor(const Scene& scene, const FormulationPlugin& plugin) {
  if (!plugin.info.capabilities.robot_inertia) return nullptr;
  for (const Body& body : scene.bodies) {
    const ValueSource& at = body.singular_inertia;
    if (!at.file.empty() || at.line > 0 || !at.field.empty()) return &body;
  }
  return nullptr;
}

std::string SingularRobotLinkProblem(const Body& link, const FormulationPlugin& plugin) {
  return plugin.info.name + " uses the robots' mass matrix, and robot link '" + link.name +
         "' has a singular inertia (a zero principal moment); give the link a positive definite "
         "inertia, or step the scene with a formulation that never uses a robot's inertia (qp, "
         "socp, log-barrier, log-barrier-cone, lcp)";
}

// The first joint of a robot that hangs from another robot's body (a gripper on an arm,
// docs/scene-format.md `base_parent`) when `plugin` uses the robots' mass matrix, which it
// builds robot by robot (dynamics/second_order_cost.h: no coupling between two robots' blocks);
// nullptr otherwise.
const Joint* MountedRobotJointFor(const Scene& scene, const FormulationPlugin& plugin) {
  if (!plugin.info.capabilities.robot_inertia) return nullptr;
  for (const Joint& joint : scene.joints) {
    const int child = scene.bodies[joint.child_body].instance;
    const int parent = scene.bodies[joint.parent_body].instance;
    if (joint.parent_body != 0 && child != parent) return &joint;
  }
  return nullptr;
}

std::string MountedRobotProblem(const Scene& scene, const Joint& joint,
                                const FormulationPlugin& plugin) {
  return plugin.info.name + " uses the robots' mass matrix one robot at a time, and robot '" +
         scene.instances[scene.bodies[joint.child_body].instance].name + "' hangs from '" +
         scene.bodies[joint.parent_body].name + "' of another robot (joint '" + joint.name +
         "'), whose motion couples their inertias; step the scene with a formulation that never "
         "uses a robot's inertia (qp, socp, log-barrier, log-barrier-cone, lcp)";
}

}  // namespace

std::shared_ptr<const StepModel> MakeStepModel(ScenePtr scene, const FormulationChoice& choice) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, "MakeStepModel", "the scene is null");
  const FormulationPlugin& plugin = ChosenFormulation(*scene, choice);
  if (const Body* link = SingularRobotLinkFor(*scene, plugin))
    FailAt(link->singular_inertia, SingularRobotLinkProblem(*link, plugin));
  if (const Joint* mount = MountedRobotJointFor(*scene, plugin))
    throw std::invalid_argument(MountedRobotProblem(*scene, *mount, plugin));
  return plugin.make_model(ResolveFormulationInputs(scene, plugin, choice));
}

State InitialState(const Scene& scene) {
  const FormulationPlugin& plugin = FormulationRegistry::Global().Get(scene.formulation.name);
  if (plugin.info.capabilities.state == StateKind::kConfiguration)
    return State{scene.q0, Eigen::VectorXd()};
  return State{scene.q0, scene.v0.size() == scene.nv ? scene.v0 : Eigen::VectorXd::Zero(scene.nv)};
}

std::string WhyCannotStepCapabilities(const Scene& scene, const FormulationPlugin& plugin) {
  const FormulationCapabilities& can = plugin.info.capabilities;
  if (scene.planar && !can.planar_scenes)
    return plugin.info.name + " steps 3D scenes only; this scene is planar";
  if (!scene.planar && !can.spatial_scenes)
    return plugin.info.name + " steps planar scenes only; this scene is 3D";
  if (scene.nq_a > 0 && !can.robots)
    return plugin.info.name + " steps scenes without robots; this scene has " +
           std::to_string(scene.nq_a) + " actuated coordinates";
  if (const Body* link = SingularRobotLinkFor(scene, plugin)) {
    const ValueSource& at = link->singular_inertia;
    return at.file + (at.line > 0 ? ":" + std::to_string(at.line) : std::string()) + ": " +
           at.field + ": " + SingularRobotLinkProblem(*link, plugin);
  }
  if (const Joint* mount = MountedRobotJointFor(scene, plugin))
    return MountedRobotProblem(scene, *mount, plugin);
  return "";
}

std::string WhyCannotStep(const ScenePtr& scene, const FormulationPlugin& plugin,
                          const FormulationChoice& choice) {
  if (std::string why = WhyCannotStepCapabilities(*scene, plugin); !why.empty()) return why;
  try {
    FormulationChoice named = choice;
    named.name = plugin.info.name;
    MakeStepModel(scene, named);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace quasidyn
