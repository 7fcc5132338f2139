#pragma once
// Everything a formulation needs to build and solve one step, assembled once by the
// stepper: the contact set at q, the quasi-dynamic cost, and the settings.

#include <Eigen/Core>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_result.h"

namespace quasidyn {

struct StepProblem {
  const Scene& scene;
  const ContactSet& contacts;
  const QuasiDynamicCost& cost;
  const FormulationSettings& settings;
};

// A formulation's answer before integration: the velocity and, per contact, the impulse
// split into its normal part (N·s, along n_i) and its friction part (N·s, world).
struct FormulationSolution {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd v;                         // n_v
  Eigen::VectorXd normal_impulse;            // n_c [N·s]
  Eigen::Matrix3Xd friction_impulse;         // 3 × n_c [N·s]
  SolverInfo info;
};

// Fills the per-contact reports of a solved step (forces = impulses / h, φ at both ends).
void FillContactReports(const StepProblem& problem, const FormulationSolution& solution,
                        StepResult* result);

// The contact row of the pyramid constraints that is most violated at v, as
// "contact i (shape_a / shape_b), φ = … m": for messages of failed steps.
std::string DescribeWorstContact(const StepProblem& problem, const Eigen::VectorXd& v);

}  // namespace quasidyn
