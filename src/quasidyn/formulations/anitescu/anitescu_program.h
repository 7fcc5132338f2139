#pragma once
// Anitescu's convex relaxation of the Stewart–Trinkle LCP (Anitescu 2006, "Optimization-based
// simulation of nonsmooth rigid multibody dynamics", Math. Program. 105): the pyramid QP of
// programs/pyramid_qp.h with the second-order cost, differentiated through its KKT conditions
// (programs/qp_gradient.h).

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/second_order/second_order_program.h"

namespace quasidyn {

class AnitescuProgram final : public SecondOrderProgram {
 public:
  explicit AnitescuProgram(const QpSettings& settings = ContactQpSettings())
      : settings_(settings) {}
  const char* description() const override {
    return "Anitescu QP (Anitescu 2006, the relaxed LCP)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void Differentiate(const SecondOrderDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient, Eigen::MatrixXd* dv_dv) const override;

 private:
  QpSettings settings_;
};

}  // namespace quasidyn
