#pragma once
// One stepper for every formulation: q⁺ = f(q, u).
//   contacts at q (ContactEngine) → cost (quasi_dynamic_cost.h) → the formulation's convex
//   program → v → q⁺ = q ⊕ h·v (floating bodies: exponential map, then the quaternion is
//   normalised).
// A failed solve never throws: the result carries the status and a message naming the most
// violated contact, and q⁺ = q. Bad input (wrong sizes, NaN) throws std::invalid_argument.
// The formulation is FormulationSettings::type (docs/formulations.md):
//   qp                quasi_dynamic_qp.h     Pang & Tedrake 2021, eq. (10)
//   socp              quasi_dynamic_socp.h   exact friction cone, Pang 2022
//   log-barrier       log_barrier_pyramid.h  eq. (10) smoothed by a log barrier, Pang 2022
//   log-barrier-cone  log_barrier_cone.h     the SOCP smoothed by a log barrier, Pang 2022
//   lcp               quasistatic_lcp.h      Pang & Tedrake 2021, eq. (6)

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/solvers/log_barrier_newton.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn {

class QuasiDynamicStepper {
 public:
  // Keeps a reference to scene, which must outlive the stepper. Throws std::invalid_argument
  // when a setting is out of its documented range (h > 0, κ > 0, object_mass_scale >= 0).
  QuasiDynamicStepper(const Scene& scene, const FormulationSettings& settings);

  // One step from configuration q (size n_q) under the command u = q̄_a (size n_q,a).
  StepResult Step(const Eigen::VectorXd& q, const Eigen::VectorXd& u);

  const FormulationSettings& settings() const { return settings_; }
  const ContactEngine& engine() const { return engine_; }

 private:
  const Scene& scene_;
  FormulationSettings settings_;
  ContactEngine engine_;
  QpSolver qp_solver_;
  SocpSolver socp_solver_;
  LogBarrierSolver barrier_solver_;
  LemkeSolver lemke_solver_;
};

}  // namespace quasidyn
