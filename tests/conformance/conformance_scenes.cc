// The scenes of the conformance suite (formulation_conformance.h): small examples and inline
// scenes, each stepped by every formulation that can step it.

#include <memory>
#include <string>
#include <vector>

#include "formulation_conformance.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/gjk_scene.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn::conformance {
namespace {

// A 0.1 m box (1 kg) resting on a plane, struck sideways at t = 0.05 s by an impulse of
// 0.4 N·s (ecp's objects[].impulses): it slides at 0.4 m/s and stops after ~0.08 s (μ = 0.5).
// No robot: the formulations whose command is the objects' applied impulse step it, and so do
// the others that take scenes without robots. The scene names the formulation whose scene key
// `impulses` is (the loader refuses the key otherwise); the others step it by choice.
constexpr const char* kStruckBoxYaml = R"(
name: struck_box
dimension: 3
gravity: [0, 0, -9.81]
time_step: 0.01
contact_tolerance: 0.01
formulation: {type: ecp}
environment:
  - {name: plane, type: half_space, friction: 0.5}
objects:
  - name: box
    joint: floating
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{name: block, type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]
    initial: [0, 0, 0.05, 1, 0, 0, 0]
    impulses:
      - {t: 0.05, p: [0.4, 0.1, 0, 0, 0, 0.002]}
)";

ScenePtr Example(const std::string& name) {
  return testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

}  // namespace

const std::vector<ConformanceScene>& ConformanceScenes() {
  static const std::vector<ConformanceScene> scenes = [] {
    std::vector<ConformanceScene> s;
    // name, scene, rollout steps, probe step, finite differences
    s.push_back({"planar_pushing_top_down", Example("planar_pushing_top_down"), 30, 15, true});
    s.push_back({"planar_gripper", Example("planar_gripper"), 30, 15, true});
    s.push_back({"gjk_scene", testing::GjkScene(), 30, 15, false});
    s.push_back({"arm_cubes", Example("arm_cubes"), 30, 15, false});
    s.push_back({"dynamic_push", Example("dynamic_push"), 30, 10, true});
    s.push_back({"pinch", Example("pinch"), 40, 34, true});
    s.push_back({"struck_box",
                 testing::Shared(LoadSceneFromString(kStruckBoxYaml, "struck_box.yaml", "")), 30, 7,
                 true});
    return s;
  }();
  return scenes;
}

std::vector<ConformanceScene> ScenesFor(const FormulationPlugin& plugin) {
  std::vector<ConformanceScene> scenes;
  for (const ConformanceScene& s : ConformanceScenes())
    if (WhyCannotStep(s.scene, plugin).empty()) scenes.push_back(s);
  for (size_t i = 0; i < plugin.conformance_scenes.size(); ++i) {
    const std::string file =
        plugin.info.name + " conformance scene " + std::to_string(i + 1) + ".yaml";
    ConformanceScene own;
    own.scene = testing::Shared(LoadSceneFromString(plugin.conformance_scenes[i], file, ""));
    own.name = own.scene->name;
    scenes.push_back(own);
  }
  return scenes;
}

}  // namespace quasidyn::conformance
