#pragma once
// The values a trajectory read from a file may hold (docs/trajectory-format.md, "Numbers"):
// every number finite, except a step's solver residuals (primal and dual residual,
// complementarity gap), which a solver that stopped short may report as NaN or ±∞ and files
// therefore write as "NaN", "Infinity", "-Infinity". A NaN time, configuration, command, force
// or derivative is not a record of a step but a damaged file.

#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

// Throws std::invalid_argument naming the first non-finite value outside the solver residuals:
// the header field (`q0[2]`, `formulation.kappa`) or the step, as `steps[i] (k = K).t`,
// `steps[i] (k = K).contacts[j].normal_force`, `steps[i] (k = K).A[r][c]`, with the value.
// i is the step's index in the file, K its number.
void CheckTrajectoryValuesFinite(const Trajectory& trajectory);

}  // namespace quasidyn
