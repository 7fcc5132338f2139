#pragma once
// The MPC through contact in closed loop (contact_mpc.h) on a plant: any StepModel with a
// velocity state (stepping/second_order_model.h: stewart-trinkle or anitescu) of the same
// scene coordinates and time step. Each control step solves the MIQP at the plant's state,
// sends the setpoint of the first force, and steps the plant; the plant's trajectory (states,
// setpoints, contacts with their forces) is recorded as a Trajectory (trajectory files,
// docs/trajectory-format.md) beside the controller's statistics per step.

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "quasidyn/control/contact_mpc.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// The controller's side of one control step.
struct MpcRunStep {
  MiqpStatus status = MiqpStatus::kNotRun;
  bool has_solution = false;
  double cost = 0.0;                     // J* [-]
  double gap = 0.0, relative_gap = 0.0;  // of the MIQP's answer
  int nodes = 0;                         // node relaxations solved
  int qp_iterations = 0;                 // interior-point iterations over the tree
  double solve_seconds = 0.0;            // the MIQP's wall time [s]
  double cpu_seconds = 0.0;              // the MIQP's CPU time [s] (independent of the load)
  double build_seconds = 0.0;            // linearisation and assembly [s]
  int contacts = 0;                      // contacts in the model
  int binding_caps = 0;                  // impulses at their big-M cap
  Eigen::VectorXd force;                 // τ_0 sent (as a setpoint) [N, N·m]
  Eigen::VectorXd predicted_state;       // x̂_1 (empty without a solution)
};

struct MpcRun {
  Trajectory trajectory;          // the plant's run under the setpoints
  std::vector<MpcRunStep> steps;  // one per control step done
  std::string message;            // empty, or why the run stopped early (a plant step failed)
  bool completed() const { return trajectory.completed(); }
};

struct MpcRunOptions {
  int steps = 0;  // K >= 0 control steps
  // Called after every control step with its number (1 … K) and the controller's answer.
  std::function<void(int step, const MpcStep& answer)> progress;
};

// Runs K steps from x0 (sizes of the plant's state). std::invalid_argument when the plant has
// no velocity state, its scene's coordinates or time step differ from the controller's, or x0
// has wrong sizes. A failed plant step ends the run (message); an MIQP without a solution does
// not (its step sends the zero-force setpoint and records the status).
MpcRun RunMpc(const StepModel& plant, ContactMpc* controller, const State& x0,
              const MpcRunOptions& options);

}  // namespace quasidyn
