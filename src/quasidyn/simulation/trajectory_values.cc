#include "quasidyn/simulation/trajectory_values.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

[[noreturn]] void NotFinite(const std::string& where, double value) {
  std::ostringstream message;
  message << where << ": must be a finite number, got " << value
          << " (only a step's solver residuals may be non-finite)";
  throw std::invalid_argument(message.str());
}

void CheckNumber(double value, const std::string& where) {
  if (!std::isfinite(value)) NotFinite(where, value);
}

template <typename Vector>
void CheckVector(const Vector& x, const std::string& where) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) NotFinite(where + "[" + std::to_string(i) + "]", x[i]);
}

void CheckMatrix(const Eigen::MatrixXd& m, const std::string& where) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (!std::isfinite(m(r, c)))
        NotFinite(where + "[" + std::to_string(r) + "][" + std::to_string(c) + "]", m(r, c));
}

void CheckContact(const ContactRecord& c, const std::string& where) {
  CheckVector(c.point, where + ".point");
  CheckVector(c.normal, where + ".normal");
  CheckNumber(c.phi_start, where + ".phi_start");
  CheckNumber(c.phi_end, where + ".phi_end");
  CheckNumber(c.normal_force, where + ".normal_force");
  CheckVector(c.friction_force, where + ".friction_force");
  CheckNumber(c.normal_impulse, where + ".normal_impulse");
  CheckVector(c.friction_impulse, where + ".friction_impulse");
  CheckNumber(c.torsional_impulse, where + ".torsional_impulse");
  CheckNumber(c.torsional_moment, where + ".torsional_moment");
}

void CheckStep(const TrajectoryStep& step, const std::string& where) {
  CheckNumber(step.t, where + ".t");
  CheckVector(step.q, where + ".q");
  CheckVector(step.v, where + ".v");
  CheckVector(step.u, where + ".u");
  for (size_t j = 0; j < step.contacts.size(); ++j)
    CheckContact(step.contacts[j], where + ".contacts[" + std::to_string(j) + "]");
  CheckNumber(step.solver.solve_time_seconds, where + ".solver.solve_time");
  CheckNumber(step.step_time_seconds, where + ".step_time");
  CheckVector(step.momentum_force, where + ".momentum_force");
  CheckVector(step.joint_limit_impulse, where + ".joint_limit_impulse");
  CheckMatrix(step.A, where + ".A");
  CheckMatrix(step.B, where + ".B");
}

}  // namespace

void CheckTrajectoryValuesFinite(const Trajectory& trajectory) {
  CheckNumber(trajectory.time_step, "formulation.time_step");
  for (const ParameterValue& p : trajectory.parameters.values()) {
    if (p.value.size() == 1) {
      CheckNumber(p.value(0, 0), "formulation." + p.key);
    } else {
      CheckMatrix(p.value, "formulation." + p.key);
    }
  }
  CheckVector(trajectory.q0, "q0");
  CheckVector(trajectory.v0, "v0");
  for (size_t i = 0; i < trajectory.steps.size(); ++i) {
    CheckStep(trajectory.steps[i], "steps[" + std::to_string(i) +
                                       "] (k = " + std::to_string(trajectory.steps[i].k) + ")");
  }
}

}  // namespace quasidyn
