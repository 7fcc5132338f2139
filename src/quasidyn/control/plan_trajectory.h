#pragma once
// A plan (configurations q_0 … q_T at the control steps and commands u_0 … u_{T−1}) as a
// simulation::Trajectory, so that `quasidyn optimize` and `quasidyn track` write the trajectory
// file of docs/trajectory-format.md (and their viewer pages show the contacts), and back. Step
// k's record holds t_k = k·h, q_k and the command u_{k−1} it was solved with, and the contacts,
// forces, status and solver statistics of solving that step again with the model from q_{k−1}
// (the plan's q_k is kept as it is).
// A trajectory file or a planner's plan file (docs/plan-format.md, with its regrasp steps) as
// the iterative MPC's initial guess.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/planning/rrt.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// The contacts are those found at q_{k−1}, so they are right for any plan of the scene; their
// forces are the model's under u_{k−1}: the plan's own when the model stepped it (`quasidyn
// optimize`), the model's estimate for a plant that differs from it (`quasidyn track`). Steps
// not solved record no contact: regrasps (regrasp_steps[k − 1], T entries or empty: none; the
// robots move to u_{k−1}, docs/plan-format.md), every step of a model with a velocity state
// (a plan carries no v), and a step whose solve fails. std::invalid_argument when q has not one
// more entry than u, regrasp_steps has another size, or on sizes.
Trajectory PlanToTrajectory(const StepModel& model, const std::vector<Eigen::VectorXd>& q,
                            const std::vector<Eigen::VectorXd>& u,
                            const std::vector<bool>& regrasp_steps = {});

// A file read as an initial guess: a trajectory file (JSON or .npz), or a plan file of `quasidyn
// plan` (a JSON trajectory file with a "plan" member), whose path steps are extensions or
// regrasps (plan.path.step_edges).
struct GuessFile {
  Trajectory trajectory;
  std::vector<EdgeKind> step_edges;  // one per trajectory step for a plan file, else empty
  // One per trajectory step for a plan file (planning/plan_path.h, PhysicalRegraspSteps), else
  // empty.
  std::vector<bool> physical_regrasp_steps;
};
// std::runtime_error naming the file when it cannot be read, std::invalid_argument (prefixed
// with the file) on bad content.
GuessFile ReadGuessFile(const std::string& file);

// The iterative MPC's initial guess: T commands, and which steps are regrasps (their command is
// the robots' new configuration; TrajectoryOptimizerSettings::regrasp_steps).
struct InitialGuess {
  std::vector<Eigen::VectorXd> u;
  std::vector<bool> regrasp;  // T entries
};

// The first `steps` records of a trajectory (a planner's path or an earlier optimisation):
// u_k of record k + 1, a regrasp where step_edges[k] is kRegrasp (step_edges empty: none; else
// one per record). When the trajectory is shorter, its last command is held, as a stepper step
// (its q_a(0) when it has no step). std::invalid_argument when its coordinates do not match the
// model's (n_q, n_q,a), step_edges has another size, or steps < 1.
InitialGuess GuessFromTrajectory(const Trajectory& trajectory,
                                 const std::vector<EdgeKind>& step_edges, const StepModel& model,
                                 int steps);

}  // namespace quasidyn
