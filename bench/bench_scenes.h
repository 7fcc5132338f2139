#pragma once
// Shared by the benchmark programs (header-only, benchmarks only): the example scenes and the
// states the benchmarks measure at, computed once:
//   arm_cubes    the arm + 10 cubes scene of Pang & Tedrake 2021, Fig. 1, after 200 QP steps
//                (t = 2 s): the gripper holds the red cube (≈ 52 contacts, 69 velocities);
//   planar_hand  after 60 QP steps (the ball turns between the fingertips).
// Also the malloc counter of the test utilities, so a benchmark can report allocations.

#include <Eigen/Core>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn::bench {

enum class Example { kArmCubes, kPlanarHand, kPlanarGripper };

inline const char* ExampleName(Example example) {
  switch (example) {
    case Example::kArmCubes:
      return "arm_cubes";
    case Example::kPlanarHand:
      return "planar_hand";
    case Example::kPlanarGripper:
      return "planar_gripper";
  }
  return "";
}

inline ScenePtr SceneOf(Example example) {
  static ScenePtr scenes[3];
  ScenePtr& scene = scenes[static_cast<int>(example)];
  if (!scene) {
    scene = std::make_shared<const Scene>(LoadScene(
        std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + ExampleName(example) + "/scene.yaml"));
  }
  return scene;
}

// The model of formulation `formulation` ("qp", "socp", ...) with the scene's h and parameters.
inline std::shared_ptr<const StepModel> ModelOf(Example example, const std::string& formulation) {
  return MakeStepModel(SceneOf(example), FormulationChoice(formulation));
}

// A state of a scene's schedule and the command of the next step.
struct SceneState {
  State x;
  Eigen::VectorXd u;
  double t = 0.0;  // the time of x [s]
};

// x after `steps` QP steps from q0 under the scene's schedule; throws when a step fails, so
// that a benchmark never measures a broken state.
inline SceneState AdvanceWithQp(Example example, int steps) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, "qp");
  const Scene& scene = model->scene();
  const std::unique_ptr<StepData> data = model->CreateData();
  State x = InitialState(scene);
  const double h = model->time_step();
  for (int k = 0; k < steps; ++k) {
    model->Calc(x, scene.CommandAt((k + 1) * h), data.get());
    if (!data->result.ok())
      throw std::runtime_error("QP step " + std::to_string(k) + ": " + data->result.message);
    x = data->result.next;
  }
  return {x, scene.CommandAt((steps + 1) * h), steps * h};
}

inline const SceneState& StateOf(Example example) {
  static const SceneState arm = AdvanceWithQp(Example::kArmCubes, 200);  // the grasp, t = 2 s
  static const SceneState hand = AdvanceWithQp(Example::kPlanarHand, 60);
  static const SceneState gripper = AdvanceWithQp(Example::kPlanarGripper, 15);
  switch (example) {
    case Example::kArmCubes:
      return arm;
    case Example::kPlanarHand:
      return hand;
    case Example::kPlanarGripper:
      return gripper;
  }
  return arm;
}

}  // namespace quasidyn::bench
