#pragma once
// Trajectories for the tests of the trajectory files (header only; include it from tests that
// link the simulation layer): one with awkward numbers in every field, and a bitwise
// comparison of two trajectories.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "quasidyn/simulation/trajectory.h"

namespace quasidyn::testing {

// Bitwise equality of doubles (NaN equals NaN, 0.0 differs from -0.0): "lossless".
inline bool SameBits(double a, double b) {
  return std::signbit(a) == std::signbit(b) && ((std::isnan(a) && std::isnan(b)) || a == b);
}

inline void ExpectSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                           const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    EXPECT_TRUE(SameBits(a[i], b[i])) << what << "[" << i << "]: " << a[i] << " vs " << b[i];
}

inline void ExpectSameTrajectory(const Trajectory& a, const Trajectory& b) {
  EXPECT_EQ(a.scene_name, b.scene_name);
  EXPECT_EQ(a.scene_file, b.scene_file);
  EXPECT_EQ(a.formulation, b.formulation);
  EXPECT_TRUE(SameBits(a.time_step, b.time_step));
  ASSERT_EQ(a.parameters.values().size(), b.parameters.values().size());
  for (const ParameterValue& p : a.parameters.values()) {
    const ParameterValue* q = b.parameters.Find(p.key);
    ASSERT_NE(q, nullptr) << p.key;
    EXPECT_TRUE(SameBits(p.value(0, 0), q->value(0, 0))) << p.key;
  }
  EXPECT_EQ(a.nq, b.nq);
  EXPECT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.nq_u, b.nq_u);
  EXPECT_EQ(a.coordinate_names, b.coordinate_names);
  ExpectSameBits(a.q0, b.q0, "q0");
  EXPECT_EQ(a.steps_requested, b.steps_requested);
  EXPECT_EQ(a.steps_done, b.steps_done);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.message, b.message);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (size_t k = 0; k < a.steps.size(); ++k) {
    const TrajectoryStep& x = a.steps[k];
    const TrajectoryStep& y = b.steps[k];
    const std::string at = "steps[" + std::to_string(k) + "].";
    EXPECT_EQ(x.k, y.k) << at << "k";
    EXPECT_TRUE(SameBits(x.t, y.t)) << at << "t";
    ExpectSameBits(x.momentum_force, y.momentum_force, at + "momentum_force");
    ExpectSameBits(x.joint_limit_impulse, y.joint_limit_impulse, at + "joint_limit_impulse");
    EXPECT_EQ(x.gradient_status, y.gradient_status) << at;
    EXPECT_EQ(x.gradient_message, y.gradient_message) << at;
    ExpectSameBits(x.A.reshaped(), y.A.reshaped(), at + "A");
    ExpectSameBits(x.B.reshaped(), y.B.reshaped(), at + "B");
    EXPECT_EQ(x.A.rows(), y.A.rows()) << at;
    EXPECT_EQ(x.B.cols(), y.B.cols()) << at;
    ExpectSameBits(x.q, y.q, at + "q");
    ExpectSameBits(x.u, y.u, at + "u");
    EXPECT_EQ(x.status, y.status) << at;
    EXPECT_EQ(x.solver.iterations, y.solver.iterations) << at;
    EXPECT_TRUE(SameBits(x.solver.primal_residual, y.solver.primal_residual)) << at;
    EXPECT_TRUE(SameBits(x.solver.dual_residual, y.solver.dual_residual)) << at;
    EXPECT_TRUE(SameBits(x.solver.complementarity_gap, y.solver.complementarity_gap)) << at;
    EXPECT_TRUE(SameBits(x.solver.solve_time_seconds, y.solver.solve_time_seconds)) << at;
    EXPECT_EQ(x.solver.polished, y.solver.polished) << at;
    EXPECT_TRUE(SameBits(x.step_time_seconds, y.step_time_seconds)) << at;
    ASSERT_EQ(x.contacts.size(), y.contacts.size()) << at;
    for (size_t i = 0; i < x.contacts.size(); ++i) {
      const ContactRecord& c = x.contacts[i];
      const ContactRecord& d = y.contacts[i];
      const std::string ci = at + "contacts[" + std::to_string(i) + "].";
      EXPECT_EQ(c.shape_a, d.shape_a) << ci;
      EXPECT_EQ(c.shape_b, d.shape_b) << ci;
      EXPECT_EQ(c.body_a, d.body_a) << ci;
      EXPECT_EQ(c.body_b, d.body_b) << ci;
      ExpectSameBits(c.point, d.point, ci + "point");
      ExpectSameBits(c.normal, d.normal, ci + "normal");
      EXPECT_TRUE(SameBits(c.phi_start, d.phi_start)) << ci;
      EXPECT_TRUE(SameBits(c.phi_end, d.phi_end)) << ci;
      EXPECT_TRUE(SameBits(c.normal_force, d.normal_force)) << ci;
      ExpectSameBits(c.friction_force, d.friction_force, ci + "friction_force");
      EXPECT_TRUE(SameBits(c.normal_impulse, d.normal_impulse)) << ci;
      ExpectSameBits(c.friction_impulse, d.friction_impulse, ci + "friction_impulse");
    }
  }
}

// A small hand-made trajectory holding the awkward numbers: non-terminating binary
// fractions, extremes, a subnormal, −0 and the non-finite values.
inline Trajectory AwkwardTrajectory() {
  Trajectory t;
  t.scene_name = "awkward \"quoted\" ü";
  t.scene_file = "dir/scene.yaml";
  t.formulation = "log-barrier";
  t.time_step = 0.1;
  t.parameters.Set("kappa", 1.0 / 3.0);
  t.parameters.Set("object_mass_scale", 0.0);
  t.nq = 3;
  t.nv = 3;
  t.nq_u = 1;
  t.coordinate_names = {"a/x", "b", "c"};
  t.q0 = Eigen::Vector3d(0.1, -0.0, 2.0 / 3.0);
  t.steps_requested = 2;
  t.steps_done = 1;
  t.status = SolverStatus::kMaxIterations;
  t.message = "step 2 (t = 0.2 s) failed: max_iterations";
  TrajectoryStep step;
  step.k = 1;
  step.t = 0.1;
  step.q = Eigen::Vector3d(std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(), 1e-300);
  step.u = Eigen::Vector2d(std::nextafter(1.0, 2.0), -7.25);
  step.status = SolverStatus::kSolvedInaccurate;
  step.solver.iterations = 17;
  step.solver.primal_residual = std::numeric_limits<double>::quiet_NaN();
  step.solver.dual_residual = std::numeric_limits<double>::infinity();
  step.solver.complementarity_gap = -std::numeric_limits<double>::infinity();
  step.solver.solve_time_seconds = 1.234e-5;
  step.solver.polished = true;
  step.step_time_seconds = 2.5e-5;
  ContactRecord c;
  c.shape_a = "a/disk";
  c.shape_b = "world/ground";
  c.body_a = "a";
  c.body_b = "world";
  c.point = Eigen::Vector3d(0.3, 1e-17, -0.0);
  c.normal = Eigen::Vector3d(0.6, 0.8, 0.0);
  c.phi_start = -1e-9;
  c.phi_end = 3.3e-4;
  c.normal_force = 9.81;
  c.friction_force = Eigen::Vector3d(-4.905, 0.0, 0.0);
  c.normal_impulse = 0.981;
  c.friction_impulse = Eigen::Vector3d(-0.4905, 0.0, 0.0);
  step.contacts = {c, c};
  step.momentum_force = Eigen::VectorXd::Constant(1, -1.0 / 7.0);
  step.joint_limit_impulse = Eigen::Vector3d(0.0, -2.5e-3, 1.0 / 3.0);
  step.gradient_status = SolverStatus::kSolved;
  step.A = Eigen::MatrixXd::Identity(3, 3) / 3.0;
  step.B = Eigen::MatrixXd::Constant(3, 2, 1e-300);
  t.steps = {step};
  return t;
}

}  // namespace quasidyn::testing
