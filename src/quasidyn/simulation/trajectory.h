#pragma once
// A simulated trajectory held in memory: what a rollout (rollout.h) produced and what a
// trajectory file (trajectory_json.h, docs/trajectory-format.md) stores.
//
// Time convention: step k (k = 1 … N) advances the scene from t_{k−1} = (k−1)·h to
// t_k = k·h. Its record holds t_k, the configuration q(t_k) after the step, the command
// u = q̄_a(t_k) the step was solved with (Scene::CommandAt(t_k)), the contacts found at
// q(t_{k−1}) with the forces they carried during the step, and the solver's statistics.
// q(0) is Trajectory::q0.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

// One contact of one step, with the force shape_b exerts on shape_a over the step
// (dynamics/step_result.h: ContactReport, with scene names instead of indices).
struct ContactRecord {
  std::string shape_a, shape_b;                       // Scene::geometries names
  std::string body_a, body_b;                         // Scene::bodies names
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // witness point on shape_b, world [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, world, from shape_b to shape_a
  double phi_start = 0.0;     // signed distance at the start of the step [m]
  double phi_end = 0.0;       // its first-order prediction at the end of the step [m]
  double normal_force = 0.0;  // >= 0 [N], along normal
  Eigen::Vector3d friction_force = Eigen::Vector3d::Zero();    // tangential, world [N]
  double normal_impulse = 0.0;                                 // h · normal_force [N·s]
  Eigen::Vector3d friction_impulse = Eigen::Vector3d::Zero();  // h · friction_force [N·s]
  // ecp only (0 otherwise; written to files of ecp runs): the torsional friction about `normal`
  // through `point` (then the equivalent contact point), on shape_a [N·m·s] and its moment
  // over the step [N·m].
  double torsional_impulse = 0.0;
  double torsional_moment = 0.0;
};

struct TrajectoryStep {
  int k = 0;          // the step's number, 1 … N (steps may be thinned: --every K)
  double t = 0.0;     // t_k = k·h [s], the time at the end of the step
  Eigen::VectorXd q;  // q(t_k), size n_q
  // v(t_k), size n_v [m/s, rad/s], for the models with a velocity state (stewart-trinkle,
  // anitescu); empty for the others and in files without it.
  Eigen::VectorXd v;
  // The command the step was solved with, size Trajectory::nu: q̄_a(t_k) (n_q,a), halm-posa's
  // commanded velocity (n_q,a), or ecp's applied generalized impulse on the objects (n_v,u).
  Eigen::VectorXd u;
  std::vector<ContactRecord> contacts;
  SolverStatus status = SolverStatus::kNotRun;  // solved or solved_inaccurate
  SolverSummary solver;            // the solver's iterations, residuals and solve time [s]
  double step_time_seconds = 0.0;  // wall-clock time of the whole step (contacts + solve) [s]
  // StepResult::max_body_motion [m] and large_motion: the step moved a body further than the
  // distance within which it saw contacts (informational; the status is the solve's). 0 and
  // false in files without them.
  double max_body_motion = 0.0;
  bool large_motion = false;
  // StepResult::momentum_force: s·M_u·v_u/h (size n_v,u) [N, N·m]; empty in files without it.
  Eigen::VectorXd momentum_force;
  // StepResult::joint_limit_impulse: the joint limits' generalized impulse (size n_v) [N·s or
  // N·m·s]; recorded for scenes with joint limits, empty otherwise and in files without it.
  Eigen::VectorXd joint_limit_impulse;
  // The step's derivatives when the rollout was asked for them (RolloutOptions::gradients):
  // A = ∂x_k/∂x_{k−1} and B = ∂x_k/∂u_k with x = q (n_q × n_q and n_q × n_q,a) or, for the
  // models with velocities, x = (q, v) ((n_q + n_v) square and (n_q + n_v) × n_q,a); empty
  // otherwise or where gradient_status says they failed (a point where the derivative does not
  // exist).
  Eigen::MatrixXd A, B;
  SolverStatus gradient_status = SolverStatus::kNotRun;
  std::string gradient_message;
};

struct Trajectory;

// True when some contact of the trajectory carries a torsional impulse or moment (a formulation
// with torsional friction: ecp's equivalent contact point); the files then record both.
bool HasTorsionalFriction(const Trajectory& trajectory);

struct Trajectory {
  // Where it came from.
  std::string scene_name;
  std::string scene_file;   // Scene::source_file; empty for scenes built in memory
  std::string formulation;  // the registered name: qp | socp | ... | anitescu | ecp
  double time_step = 0.0;   // h [s], > 0
  // The formulation's number parameters as the model stepped with them (StepModel::
  // parameters(), defaults included): kappa [1/(N·m)] of a log barrier, object_mass_scale [-]
  // of the quasi-dynamic formulations, c and tracking_gain of halm-posa, e_t, e_o, e_r of ecp.
  ParameterBlock parameters;

  // The layout of q (model/scene.h): q = [q_u; q_a].
  int nq = 0, nv = 0, nq_u = 0;
  // The size of each step's command u: n_q,a, or n_v,u for ecp (the objects' applied impulse);
  // -1 (unset): n_q,a.
  int nu = -1;
  int CommandSize() const { return nu >= 0 ? nu : nq - nq_u; }
  std::vector<std::string> coordinate_names;  // size n_q (coordinate_names.h)
  Eigen::VectorXd q0;                         // q(0), size n_q
  Eigen::VectorXd v0;  // v(0), size n_v, for models with velocities; empty otherwise

  std::vector<TrajectoryStep> steps;  // the steps recorded, in order (every one, or every K-th)

  // How the rollout ended. Solved (or solved_inaccurate) when every requested step was done;
  // otherwise the status and message of the step that failed, step number steps_done + 1,
  // which would have ended at (steps_done + 1)·h and is not in `steps`.
  int steps_requested = 0;
  int steps_done = 0;  // steps simulated; steps.size() unless the record was thinned
  // The steps (of all simulated, thinned or not) whose StepResult::large_motion was set: a body
  // moved further than the distance within which the step saw contacts, so a contact may have
  // been missed (dynamics/step_result.h). A warning, not a failure: 0 for a well-resolved run.
  int large_motion_steps = 0;
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;

  // The scene object the trajectory was simulated on, when it is in memory (rollouts, Python);
  // not written to files (scene_file names it there).
  ScenePtr scene;

  // True when every requested step was done (a failed step stops the rollout early).
  bool completed() const { return steps_done == steps_requested; }
  // The configuration at the end: q of the last step, q0 when no step was done.
  const Eigen::VectorXd& FinalConfiguration() const { return steps.empty() ? q0 : steps.back().q; }
  // The velocity at the end: v of the last step, v0 when no step was done (empty for the models
  // without velocities).
  const Eigen::VectorXd& FinalVelocity() const { return steps.empty() ? v0 : steps.back().v; }
};

}  // namespace quasidyn
