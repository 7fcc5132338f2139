#pragma once
// The LCP of Stewart & Trinkle 1996 (Anitescu & Potra 1997) with the second-order cost
// (programs/quasistatic_lcp.h, ContactLcpCost::kStewartTrinkle: Lemke warm-started from the
// previous step's basis, retried on rescaled data), differentiated on its active set
// (lcp_step_gradient.h).

#include "quasidyn/formulations/programs/quasistatic_lcp.h"
#include "quasidyn/formulations/second_order/second_order_program.h"

namespace quasidyn {

class StewartTrinkleProgram final : public SecondOrderProgram {
 public:
  explicit StewartTrinkleProgram(const LemkeSettings& settings = {});
  const char* description() const override {
    return "Stewart-Trinkle LCP (Stewart & Trinkle 1996; Anitescu & Potra 1997)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void ClearWarmStart(ProgramWorkspace* workspace) const override;
  void Differentiate(const SecondOrderDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient, Eigen::MatrixXd* dv_dv) const override;

 private:
  LemkeSettings settings_;
};

}  // namespace quasidyn
