#pragma once
// The tasks the control tests share (header only, tests and benchmarks): the planar hand
// turning its ball by 30° (the talk's trajectory-optimisation task) and planar pushing to a
// goal pose, each with its model, horizon, goal and initial guess.

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/stepping/formulation_table.h"

namespace quasidyn::testing {

struct ControlTask {
  std::shared_ptr<const StepModel> model;
  TrajectoryOptimizerSettings settings;
  Eigen::VectorXd q0;
  std::vector<Eigen::VectorXd> u0;  // initial guess: the robots hold q_a(0) + offset
};

// The scene of `source_dir`/examples/<name>/scene.yaml stepped with time step h [s].
inline std::shared_ptr<const StepModel> ControlTaskModel(const std::string& source_dir,
                                                         const std::string& name, double h) {
  auto scene =
      std::make_shared<const Scene>(LoadScene(source_dir + "/examples/" + name + "/scene.yaml"));
  FormulationSettings settings = SettingsFromScene(*scene);
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

// Planar pushing: h = 0.1 s, T = 10 steps, box goal 0.1 m to the right, turned by 0.
inline ControlTask PlanarPushingGoal(const std::string& source_dir) {
  ControlTask task;
  task.model = ControlTaskModel(source_dir, "planar_pushing", 0.1);
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

}  // namespace quasidyn::testing
