#pragma once
// The state x of a time-stepping model: the configuration q (size n_q, model/scene.h) and,
// for the models with inertia (second-order time stepping), the generalized velocity v
// (size n_v). The quasi-static and quasi-dynamic models of Pang & Tedrake 2021 have no
// velocity in their state: their v is empty (size 0).

#include <Eigen/Core>

namespace quasidyn {

struct State {
  Eigen::VectorXd q;  // n_q [m, rad; quaternions (w, x, y, z)]
  Eigen::VectorXd v;  // n_v [m/s, rad/s], or empty for models without velocity state
};

}  // namespace quasidyn
