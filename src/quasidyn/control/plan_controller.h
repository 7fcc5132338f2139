#pragma once
// What closes the loop around a plan (plan_tracking.h): at control step t it turns the measured
// configuration q into the command sent to the plant. The talk's one-step stabiliser
// (stabilizer.h) and the shrinking-horizon MPC (shrinking_horizon_mpc.h) are two.

#include <Eigen/Core>

namespace quasidyn {

class PlanController {
 public:
  virtual ~PlanController() = default;
  // T, the number of plan steps it can command.
  virtual int steps() const = 0;
  // The command of step t (0 <= t < T) from the measured q (size n_q); std::invalid_argument
  // on t out of range, sizes or NaN. The reference stays valid until the next call.
  virtual const Eigen::VectorXd& Command(int t, const Eigen::VectorXd& q) = 0;
};

}  // namespace quasidyn
