#pragma once
// One stepper for every formulation: q⁺ = f(q, u).
//   contacts at q (ContactEngine) → cost (quasi_dynamic_cost.h) → the formulation's convex
//   program → v → q⁺ = q ⊕ h·v (floating bodies: exponential map, then the quaternion is
//   normalised).
// A failed solve never throws: the result carries the status and a message naming the most
// violated contact, and q⁺ = q. Bad input (wrong sizes, NaN) throws std::invalid_argument.

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/solvers/qp.h"

namespace quasidyn {

class QuasiDynamicStepper {
 public:
  // Keeps a reference to scene, which must outlive the stepper.
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
};

}  // namespace quasidyn
