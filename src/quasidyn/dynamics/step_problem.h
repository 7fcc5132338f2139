#pragma once
// Everything a formulation needs to build and solve one step, assembled by the step model:
// the contact set at q, the cost (quasi-dynamic or second order), and the time step; and what a
// formulation answers. A program's own parameters (a barrier's κ) are the program's.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_result.h"

namespace quasidyn {

struct StepProblem {
  const Scene& scene;
  const ContactSet& contacts;
  const QuasiDynamicCost& cost;
  double time_step;  // h [s], > 0
};

// A formulation's answer before integration: the velocity and, per contact, the impulse
// split into its normal part (N·s, along n_i) and its friction part (N·s, world). The
// per-contact arrays are std::vectors so that a step with fewer contacts than an earlier one
// keeps their storage.
struct FormulationSolution {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd v;                              // n_v
  std::vector<double> normal_impulse;             // n_c [N·s]
  std::vector<Eigen::Vector3d> friction_impulse;  // n_c [N·s]
  // The multipliers λ_l >= 0 of the joint-limit rows (cost.limits, joint_limit_rows.h), n_l
  // [N·s or N·m·s].
  Eigen::VectorXd limit_impulse;
  SolverSummary solver;

  // Sets the status and statistics, v, and zero impulses for n_c contacts and n_l limit rows.
  void Start(SolverStatus solver_status, const SolverSummary& summary, const Eigen::VectorXd& x,
             int contact_count, int limit_count);
};

// The per-contact reports of a solved step (forces = impulses / h, φ at both ends), into
// *reports (resized to n_c; no heap allocation once it has held n_c reports).
void FillContactReports(const StepProblem& problem, const FormulationSolution& solution,
                        std::vector<ContactReport>* reports);

// The index of the first contact with a non-finite field or Jacobian entry, or −1 (a step
// model's check of the contact query before it builds its program).
int FirstNonFiniteContact(const ContactSet& contacts);

// The contact row of the pyramid constraints that is most violated at v, as
// "contact i (shape_a / shape_b), φ = … m": for messages of failed steps.
std::string DescribeWorstContact(const StepProblem& problem, const Eigen::VectorXd& v);

// When the step starts with two shapes overlapping (some φ_i < 0): "the start overlaps: deepest
// a / b (φ = … m); the step must separate them at J_n v >= −φ/h = … m/s" and what keeps the
// row from holding when that can be told from the rows alone: a normal row J_n,i = 0 (neither
// body moves along the normal: pinned), or the joint-limit rows of the bodies' joints. Empty
// when no shapes overlap. For messages of failed steps (failure_message.h).
std::string DescribeOverlap(const StepProblem& problem);

}  // namespace quasidyn
