#pragma once
// The tasks the control tests share (header only, tests and benchmarks): the planar hand
// turning its ball by 30° (the talk's trajectory-optimisation task), planar pushing to a goal
// pose and, in 3D, a pusher turning a box on a table, each with its model, horizon, goal and
// initial guess.

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn::testing {

struct ControlTask {
  std::shared_ptr<const StepModel> model;
  TrajectoryOptimizerSettings settings;
  Eigen::VectorXd q0;
  std::vector<Eigen::VectorXd> u0;  // initial guess: the robots hold q_a(0) + offset
};

// The scene of `source_dir`/examples/<name>/scene.yaml stepped with time step h [s]; with a
// contact tolerance ε [m] when `contact_tolerance` > 0 (else the scene's own).
//
// ε must cover what a step can move at the task's h: a pair further apart than ε at the start of
// a step is not in its program, so a pusher that closes faster than ε per step enters the object
// unseen. The optimiser rejects such candidates (trajectory_optimizer.h); at the scenes' own ε
// (2 cm and 1 cm) its first candidates on planar pushing and box turning passed 15.7 mm and
// 22.7 mm into the objects, and the best plans before that check were accepted that way.
inline std::shared_ptr<const StepModel> ControlTaskModel(const std::string& source_dir,
                                                         const std::string& name, double h,
                                                         double contact_tolerance = 0.0) {
  Scene loaded = LoadScene(source_dir + "/examples/" + name + "/scene.yaml");
  if (contact_tolerance > 0.0) loaded.contact_tolerance = contact_tolerance;
  auto scene = std::make_shared<const Scene>(std::move(loaded));
  ProgramSettings settings = SceneProgramSettings(*scene);
  settings.time_step = h;
  return MakeStepModel(scene, settings);
}

// Planar hand: h = 0.1 s, T = 10 steps, ball goal θ = +30° at its start position.
inline ControlTask PlanarHandTurn(const std::string& source_dir) {
  ControlTask task;
  task.model = ControlTaskModel(source_dir, "planar_hand", 0.1);
  const Scene& scene = task.model->scene();
  task.q0 = scene.q0;
  task.settings.horizon = 10;
  task.settings.object_goal = scene.q0.head(3);
  task.settings.object_goal(2) += M_PI / 6.0;
  task.settings.object_weight = Eigen::Vector3d(10.0, 10.0, 1.0);
  task.settings.rate_weight = 0.1;
  task.settings.trust_region = 0.1;
  // Squeeze: the distal joints close by 0.2 rad (the scene's own squeeze command).
  Eigen::VectorXd squeeze = scene.q0.tail(4);
  squeeze(1) += 0.2;
  squeeze(3) -= 0.2;
  task.u0.assign(task.settings.horizon, squeeze);
  return task;
}

// Planar pushing: h = 0.1 s, T = 10 steps, box goal 0.1 m to the right, turned by 0;
// ε = 5 cm (ControlTaskModel: the pusher starts 8 cm from the box and may close 5 cm per step).
inline ControlTask PlanarPushingGoal(const std::string& source_dir) {
  ControlTask task;
  task.model = ControlTaskModel(source_dir, "planar_pushing", 0.1, 0.05);
  const Scene& scene = task.model->scene();
  task.q0 = scene.q0;
  task.settings.horizon = 10;
  task.settings.object_goal = scene.q0.head(3);
  task.settings.object_goal(0) += 0.1;
  task.settings.object_weight = Eigen::Vector3d(100.0, 100.0, 1.0);
  task.settings.rate_weight = 1.0;
  task.settings.trust_region = 0.05;
  task.u0.assign(task.settings.horizon, scene.q0.tail(2));
  for (int k = 0; k < task.settings.horizon; ++k) task.u0[k](0) += 0.01 * (k + 1);
  return task;
}

// 3D (examples/box_turning): a round pusher on x, y, z pushes the box on the table below its
// middle, so that it slides and turns. h = 0.05 s, T = 12 steps; goal: the box 0.05 m along x
// and turned by 0.3 rad about z (unit quaternion (cos 0.15, 0, 0, sin 0.15)), on the table.
// Weights 100 on the position, 10 on the quaternion's entries (a yaw error δ costs about
// 10·δ²/4), ρ = 10 on the command changes [1/m²] and a trust region of at most 2 cm: the
// pusher moves smoothly instead of hopping over the box between steps. Initial guess: the
// pusher moves along x at 8 mm per step, at its start y and z. ε = 5 cm (ControlTaskModel).
inline ControlTask BoxTurn(const std::string& source_dir) {
  ControlTask task;
  task.model = ControlTaskModel(source_dir, "box_turning", 0.05, 0.05);
  const Scene& scene = task.model->scene();
  task.q0 = scene.q0;
  task.settings.horizon = 12;
  task.settings.object_goal = scene.q0.head(7);
  task.settings.object_goal(0) += 0.05;
  task.settings.object_goal(3) = std::cos(0.15);
  task.settings.object_goal(6) = std::sin(0.15);
  task.settings.object_weight.resize(7);
  task.settings.object_weight << 100.0, 100.0, 100.0, 10.0, 10.0, 10.0, 10.0;
  task.settings.rate_weight = 10.0;  // smooth pushes: a plan that does not hop over the box
  task.settings.trust_region = 0.01;
  task.settings.trust_region_max = 0.02;
  for (int k = 0; k < task.settings.horizon; ++k) {
    Eigen::VectorXd u = scene.q0.tail(3);
    u(0) += 0.008 * (k + 1);
    task.u0.push_back(u);
  }
  return task;
}

}  // namespace quasidyn::testing
