#pragma once
// What a time-stepping formulation is and what it can do, as its registration declares it
// (formulations/registry.h) and as every step model carries it (StepModel::formulation()), so
// that the layers above a model (rollouts, the lineariser, the planner, the controllers, the
// command line, Python) decide by capability, never by the formulation's name.

#include <string>

namespace quasidyn {

// What the state x of a formulation's steps holds.
enum class StateKind {
  kConfiguration,             // x = q; v empty (the quasi-dynamic models, halm-posa)
  kConfigurationAndVelocity,  // x = (q, v), v of size n_v (second order, ecp)
};

// What the command u of a formulation's steps is.
enum class CommandKind {
  kRobotPositions,   // the robots' commanded positions q̄_a [m or rad], size n_q,a
  kRobotVelocities,  // the robots' commanded velocities [m/s or rad/s], size n_q,a
  kObjectImpulses,   // the objects' applied generalized impulse [N·s, N·m·s], size n_v,u
};

// "configuration" | "configuration and velocity"; "positions of the robots" | "velocities of the
// robots" | "impulses on the objects".
const char* StateKindName(StateKind kind);
const char* CommandKindName(CommandKind kind);

struct FormulationCapabilities {
  StateKind state = StateKind::kConfiguration;
  CommandKind command = CommandKind::kRobotPositions;
  bool planar_scenes = true;    // steps scenes of `dimension: 2`
  bool spatial_scenes = true;   // steps 3D scenes
  bool robots = true;           // steps scenes with robots (impedance-controlled instances)
  bool external_forces = true;  // takes τ_ext (Scene::external_force, StepData::external_force)
  bool joint_limits = true;     // enforces the robots' joint position limits
  // Uses the robots' mass matrix M_a (the second-order formulations): refuses a scene whose
  // robot has a link with a singular inertia (Body::singular_inertia). The quasi-dynamic
  // formulations replace M_a by h² K_a and never use it.
  bool robot_inertia = false;
  // Empty when the model's CalcDiff gives A and B; otherwise why it does not.
  std::string no_gradient;
  // The formulation whose derivative an "exact" linearisation of this one takes (its own name
  // when it has one; the pyramid QP for the quasistatic LCP and the pyramid log barrier), and
  // the log-barrier smoothing a "log-barrier" linearisation takes (empty: none).
  std::string exact_linearization;
  std::string smoothed_linearization;

  bool differentiable() const { return no_gradient.empty(); }
};

struct FormulationInfo {
  std::string name;   // the registered name: "qp", "socp", ...
  std::string title;  // the program and its source: "pyramid QP (Pang & Tedrake 2021, eq. 10)"
  std::string docs;   // the page that documents it, e.g. "docs/formulations.md#qp"
  FormulationCapabilities capabilities;
};

}  // namespace quasidyn
