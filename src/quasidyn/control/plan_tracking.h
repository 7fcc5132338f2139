#pragma once
// Executing a plan on a plant that differs from the planning model (issue "Plant ≠ model";
// the talk's slide "Stabilizing contact-rich plans": the object's start pose off by 3 mm):
// open loop (the plan's commands, as they are) or closed loop (each command from a
// PlanController, plan_controller.h, on the measured configuration).
//
// The plant is any StepModel whose coordinates match the model's; a smaller plant time step
// h_p = h / n takes n plant steps per control step under the same command.
//
// A plan with regrasps (a planner's path, docs/plan-format.md) is tracked segment by segment: the
// steps between regrasps open or closed loop as above, each regrasp step by the open-loop motion
// of regrasp_motion.h (release, transfer, close, one command per plant step), so a controller
// is asked for the contact-continuous steps only.

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/control/plan_controller.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/model/settings_schema.h"
#include "quasidyn/planning/regrasp_motion.h"
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

// The objects' error of q against q_ref (the first object's position and angle: planar x, y and
// |θ| wrapped to [0, π]; 3D p and the rotation angle of the quaternion error), as TrackingResult
// reports it.
struct ObjectError {
  double position = 0.0;  // [m]
  double angle = 0.0;     // [rad]
};
// One regrasp as the plant executed it (TrackPlan, regrasp_motion.h).
struct RegraspRecord {
  int step = 0;                  // the plan's step k (0-based) of the regrasp
  int fingers_moved = 0;         // fingers whose joints the regrasp changes
  int plant_steps = 0;           // plant steps of its motion
  double lifted_distance = 0.0;  // RegraspCommands::min_lifted_distance [m]
  ObjectError error_before;      // the plant's objects against the plan's q_k at its start
  ObjectError error_after;       // against the plan's q_{k+1} at its end
  ObjectError moved;             // the objects' motion from its start to its end
};

struct TrackingResult {
  std::vector<Eigen::VectorXd> q;  // the plant's configurations at the control steps, q_0 … q_T
  std::vector<Eigen::VectorXd> u;  // the commands sent
  bool stopped = false;            // TrackingSettings::stop ended the run before the plan's end
  bool interrupted = false;        // TrackingSettings::cancel did (stopped is set too)
  // Against the plan's configuration where the run ended (q_ref,T, or q_ref,t when stopped at t).
  Eigen::VectorXd final_object_error;  // q^u_T − q^u_ref,T
  double final_position_error = 0.0;   // ‖position part‖ [m] (planar x, y; 3D p)
  double final_angle_error = 0.0;      // |θ| [rad] planar; rotation angle of the quaternion
                                       // error in 3D
  SolverStatus status = SolverStatus::kSolved;
  std::string message;  // the plant step that failed or the regrasp refused, if one did (the run
                        // stops there)
  bool regrasp_refused = false;  // it was a regrasp whose motion was refused (max_motion_steps):
                                 // no plant step of it was taken
  // The regrasps executed (regrasp_motion.h) and what the plant saw during them:
  int regrasps = 0;
  int regrasp_plant_steps = 0;               // plant steps of all regrasp motions
  double max_regrasp_penetration = 0.0;      // deepest overlap of two shapes at a regrasp's plant
                                             // steps [m] (PenetrationMeter::StepDepth)
  double max_regrasp_object_motion = 0.0;    // largest ‖Δ position‖ of the objects from a
                                             // regrasp's start to any of its plant steps [m]
  double max_regrasp_object_rotation = 0.0;  // the same for the angle [rad]
  double min_lifted_distance = 0.0;  // smallest robot–object distance of the lifted postures [m]
                                     // (RegraspCommands; the clearance when every lift reached it)
  double max_penetration = 0.0;      // deepest overlap over every plant step of the run [m]
  double start_penetration = 0.0;    // the overlap at q0, before any plant step [m] (apart)
  std::vector<RegraspRecord> regrasp_records;  // one per regrasp executed, in order
};

// Runs the plan (q_ref: T + 1 configurations, u_ref: T commands) on the plant from q0 (the
// plant's start, size n_q; a plant with a velocity state starts at v = 0 and keeps its v from
// step to step), with `substeps` plant steps per command: closed loop when
// controller is given, open loop otherwise; `settings` below. std::invalid_argument when the
// plant's coordinates do not match the plan's (n_q, n_q,u, n_q,a), on sizes or NaN, or on
// settings out of range ("tracking.<field>: ...").
//
// The user settings (regrasp, ramp_substeps) are declared once, with their keys, units, ranges,
// defaults and docs, in TrackingSettingsSchema (plan_tracking.cc); the comments here say what the
// fields mean to the code.
struct TrackingSettings {
  // Steps k with regrasp_steps[k] (T entries, or empty: none) are executed by a RegraspMotion
  // (the plant's scene, `regrasp`) from the plan's q_k to q_{k+1}, begun where the plant is
  // (RegraspMotion::Plan's measured configuration), its target positions sent
  // through plant.CommandToward, whatever the loop; the controller is not asked for them.
  std::vector<bool> regrasp_steps;
  RegraspMotionSettings regrasp;
  // A diagnostic, not an execution: true puts the plant's robots at each regrasp's new grasp
  // (q_a of q_{k+1}, their velocities zeroed; the objects as the plant has them, moving on as
  // they were) with no plant step, the planner's jump that no plant makes. Tracking a plan so
  // measures how much of its miss the regrasp motions cause (docs/qsim-files.md).
  bool regrasp_jump = false;
  // With n > 1 substeps and a position command u: substep j (1 … n) is commanded
  // a + (j/n)(u − a), a the robots' configuration at the step's start (the planner's substeps,
  // docs/planning.md, "Plans that stay physical"); false: u on every substep, so the first
  // substep takes the whole jump of the target (the plant's overlap: docs/control.md, "The
  // stabiliser's bound").
  bool ramp_substeps = true;
  // A plant with a velocity state (the second-order formulations) runs its robots as impedances
  // K (u − q) − D v damped toward rest (second_order_cost.h), so a joint tracking a command
  // that moves at rate u̇ trails it by D u̇ / K (0.12 s on the first joint of qsim's planar iiwa
  // arms, longer than the planner's step). true adds D K⁻¹ u̇ to every substep's command, u̇ =
  // (u − a)/h the control step's rate (a where the robots are at its start, h the control
  // step): the impedance then acts as K (u − q) + D (u̇ − v), a PD on the command and its rate,
  // as the reference simulator's own second-order runs command their hands (Drake's
  // PidController fed the commanded trajectory and its derivative, qsim/examples/
  // setup_simulations.py, run_mbp_sim). Regrasp motions are sent without it. Refused for a plant
  // without velocity or whose command is not the robots' positions.
  bool velocity_feedforward = false;
  // Called after each control step t with (t + 1, the plant's configuration q_{t+1}); when it
  // returns true the run stops there (TrackingResult::stopped). Empty: the plan runs to its end.
  std::function<bool(int, const Eigen::VectorXd&)> stop;
  // Checked before every control step (common/cancellation.h): when set, the run stops there as
  // `stop` stops it (TrackingResult::stopped and ::interrupted), the steps done kept. Null:
  // never. Not a user setting; the caller owns it and it must outlive the call.
  const CancellationToken* cancel = nullptr;
};
// Tracking's settings, each declared once (model/settings_schema.h): the block "tracking"
// (ramp_substeps, and the regrasp motion's settings as `regrasp.*`, RegraspMotionSettingsSchema),
// `quasidyn track`'s flags, and replanning's `tracking.*` keys (ReplanningSettingsSchema).
const SettingsSchema<TrackingSettings>& TrackingSettingsSchema();

TrackingResult TrackPlan(const StepModel& plant, int substeps, const Eigen::VectorXd& q0,
                         const std::vector<Eigen::VectorXd>& q_ref,
                         const std::vector<Eigen::VectorXd>& u_ref, PlanController* controller,
                         const TrackingSettings& settings = {});

ObjectError ObjectErrorOf(const Scene& scene, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& q_ref);

// Throws std::invalid_argument naming the first coordinate count in which the plant's scene
// differs from the model's.
void CheckSameCoordinates(const Scene& model, const Scene& plant);

}  // namespace quasidyn
