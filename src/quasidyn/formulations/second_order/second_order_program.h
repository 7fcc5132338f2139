#pragma once
// The programs of the second-order step model (second_order_model.h): each solves the step's
// program with the second-order cost (program.h) and differentiates its own answer, so that
// the model's CalcDiff never switches on which program it holds (docs/gradients.md):
//
//   stewart-trinkle   stewart_trinkle/stewart_trinkle_program.h   the LCP on its active set
//   anitescu          anitescu/anitescu_program.h                 the pyramid QP's KKT
//   anitescu-cone     anitescu_cone/anitescu_cone_program.h       the exact-cone SOCP's KKT

#include <Eigen/Core>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/program.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// What the second-order model's CalcDiff knows of the step its last Calc solved.
struct SecondOrderDerivativeInput {
  const StepProblem& problem;
  const FormulationSolution& solution;  // v⁺ and the multipliers
  // The data contraction for A (the contact data's, with the inertia terms), or nullptr for B.
  StepDataContractor* contractor;
  // ∂τ_h/∂v − ∂(P v⁺)/∂v of the smooth data (n_v × n_v, second_order_data_derivative.h), for
  // ∂v⁺/∂v; used with a contractor only.
  const Eigen::MatrixXd* velocity_force;
};

class SecondOrderProgram : public ContactProgram {
 public:
  // ∂v⁺/∂q (tangent), ∂v⁺/∂u into *gradient and, for A, ∂v⁺/∂v into *dv_dv, of the answer the
  // last Solve left in `workspace`; a point where the derivative does not exist is
  // gradient->ok = false with a message.
  virtual void Differentiate(const SecondOrderDerivativeInput& input, ProgramWorkspace* workspace,
                             VelocityGradient* gradient, Eigen::MatrixXd* dv_dv) const = 0;
};

}  // namespace quasidyn
