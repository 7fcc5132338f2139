#pragma once
// A plan (configurations q_0 … q_T at the control steps and commands u_0 … u_{T−1}) as a
// simulation::Trajectory, so that `quasidyn optimize` and `quasidyn track` write the trajectory
// file of docs/trajectory-format.md, and back. Contacts and solver statistics are not recorded
// (empty, zero); step k's record holds t_k = k·h, q_k and the command u_{k−1} it was solved with.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// std::invalid_argument when q has not one more entry than u, or on sizes.
Trajectory PlanToTrajectory(const StepModel& model, const std::vector<Eigen::VectorXd>& q,
                            const std::vector<Eigen::VectorXd>& u);

// The commands of the first `steps` records of a trajectory (a planner's path or an earlier
// optimisation): u_k of record k + 1; when the trajectory is shorter, its last command is held
// (its q_a(0) when it has no step). std::invalid_argument when its coordinates do not match the
// model's (n_q, n_q,a) or steps < 1.
std::vector<Eigen::VectorXd> CommandsFromTrajectory(const Trajectory& trajectory,
                                                    const StepModel& model, int steps);

}  // namespace quasidyn
