#pragma once
// What one time step returns, whatever the formulation.

#include <string>
#include <vector>

#include <Eigen/Core>

#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

// One contact of the step, with the force B exerts on A (world frame, N): the solver's
// impulse over the step divided by h.
struct ContactReport {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // witness point on B at the start [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ(); // unit, from B to A
  double phi_start = 0.0;  // φ at the start of the step [m] (from the geometry)
  double phi_end = 0.0;    // φ + h·J_n v, its first-order prediction at the end [m]
  double normal_force = 0.0;                              // c_n >= 0 [N], along normal
  Eigen::Vector3d friction_force = Eigen::Vector3d::Zero();  // tangential [N], world
};

struct StepResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;       // empty when solved; otherwise what failed and which contact
  Eigen::VectorXd q_next;    // q⁺ (size n_q); equal to q when the step failed
  Eigen::VectorXd v;         // (q⁺ ⊖ q)/h (size n_v); zero when the step failed
  std::vector<ContactReport> contacts;
  SolverInfo info;           // the solver's statistics
  bool ok() const {
    return status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate;
  }
};

}  // namespace quasidyn
