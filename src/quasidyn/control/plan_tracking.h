#pragma once
// Executing a plan on a plant that differs from the planning model (issue "Plant ≠ model";
// the talk's slide "Stabilizing contact-rich plans": the object's start pose off by 3 mm):
// open loop (the plan's commands, as they are) or closed loop (each command from a
// PlanController, plan_controller.h, on the measured configuration).
//
// The plant is any StepModel whose coordinates match the model's; a smaller plant time step
// h_p = h / n takes n plant steps per control step under the same command.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/control/plan_controller.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

struct PlantPerturbation {
  Eigen::Vector3d object_offset = Eigen::Vector3d::Zero();  // [m], added to every object's start
                                                            // position (planar: x, y)
  double friction_scale = 1.0;                              // > 0, multiplies every shape's μ
  int substeps = 1;                                         // n >= 1: h_p = h / n
};

// The scene with the perturbation applied (q0, friction, time_step = h / n).
// std::invalid_argument on a scale <= 0, n < 1 or a non-finite offset.
ScenePtr PerturbedScene(const Scene& scene, const PlantPerturbation& perturbation);

// A perturbation drawn with a fixed seed: offset of norm `offset` [m] in a random direction
// (in the x-y plane for planar scenes), friction scale uniform in [1 − f, 1 + f], n substeps.
PlantPerturbation RandomPerturbation(const Scene& scene, std::uint64_t seed, double offset,
                                     double friction_spread, int substeps);

struct TrackingResult {
  std::vector<Eigen::VectorXd> q;  // the plant's configurations at the control steps, q_0 … q_T
  std::vector<Eigen::VectorXd> u;  // the commands sent
  Eigen::VectorXd final_object_error;  // q^u_T − q^u_ref,T
  double final_position_error = 0.0;   // ‖position part‖ [m] (planar x, y; 3D p)
  double final_angle_error = 0.0;      // |θ| [rad] planar; rotation angle of the quaternion
                                       // error in 3D
  SolverStatus status = SolverStatus::kSolved;
  std::string message;  // the plant step that failed, if one did (the run stops there)
};

// Runs the plan (q_ref: T + 1 configurations, u_ref: T commands) on the plant from q0 (the
// plant's start, size n_q; a plant with a velocity state starts at v = 0 and keeps its v from
// step to step), with `substeps` plant steps per command: closed loop when
// controller is given, open loop otherwise. std::invalid_argument when the plant's coordinates
// do not match the plan's (n_q, n_q,u, n_q,a), on sizes or NaN.
TrackingResult TrackPlan(const StepModel& plant, int substeps, const Eigen::VectorXd& q0,
                         const std::vector<Eigen::VectorXd>& q_ref,
                         const std::vector<Eigen::VectorXd>& u_ref, PlanController* controller);

// Throws std::invalid_argument naming the first coordinate count in which the plant's scene
// differs from the model's.
void CheckSameCoordinates(const Scene& model, const Scene& plant);

}  // namespace quasidyn
