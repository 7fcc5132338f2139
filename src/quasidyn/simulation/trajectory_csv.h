#pragma once
// Trajectory files as CSV, for spreadsheets and plotting tools (docs/trajectory-format.md,
// "CSV"): a header row of column names, then one row per recorded step, preceded by a row for
// the start (k = 0, t = 0, q0, v0):
//
//   k,t,status,iterations,contacts,q:<name>…,v:<name>…,u:<name>…
//   0,0,initial,0,0,<q0>,<v0>,                      (no command before the first step)
//   1,0.01,solved,9,2,<q(t_1)>,<v(t_1)>,<u_1>
//
// q columns are named by Trajectory::coordinate_names; v columns (the models with a velocity
// state only) by simulation/coordinate_names.h's VelocityNames when the trajectory holds its
// scene, else by index (v:0, v:1, …); u columns by the actuated coordinates' names, or ecp's
// ImpulseNames (index names without the scene). Numbers are written in the shortest form that
// reads back to the same double. Names holding a comma, a quote or a line break are quoted
// (RFC 4180). The per-contact records, the momentum force, the joint-limit impulse and A, B
// are not in the CSV: the .json and .npz files hold them. A CSV file is written, not read back.

#include <string>

#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

// The whole file's text as described above.
std::string TrajectoryToCsv(const Trajectory& trajectory);

}  // namespace quasidyn
