#pragma once
// The quasistatic LCP of Pang & Tedrake 2021, eq. (6) (programs/quasistatic_lcp.h: the contact
// LCP with the quasi-dynamic cost, ContactLcpCost::kQuasistatic) as the quasi-dynamic model's
// program.

#include "quasidyn/formulations/programs/quasistatic_lcp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

// The quasistatic LCP of eq. (6) as the quasi-dynamic model's program. It has no derivative
// here (the formulation declares why; its linearisations take the pyramid QP's).
class QuasistaticLcpProgram final : public QuasiDynamicProgram {
 public:
  explicit QuasistaticLcpProgram(const LemkeSettings& settings = {});
  const char* description() const override {
    return "quasistatic LCP (Pang & Tedrake 2021, eq. 6)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient) const override;

 private:
  LemkeSettings settings_;
};

}  // namespace quasidyn
