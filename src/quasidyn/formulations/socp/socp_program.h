#pragma once
// The quasi-dynamic step on the exact friction cone, an SOCP (Pang, Suh, Yang & Tedrake, T-RO
// 2023; programs/friction_cone_socp.h), as the quasi-dynamic model's program, and its implicit
// derivative (programs/socp_gradient.h).

#include "quasidyn/formulations/programs/friction_cone_socp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

// When the solver stops on a numerical failure (a non-finite iterate near a cone's apex, a
// known weakness of solvers/socp.h), it is run once more with tolerances 100× looser and a
// success is reported as kSolvedInaccurate. By default each step starts from the previous
// step's answer kept in the workspace (ClearWarmStart forgets it): the same answers to the
// solver's tolerance in fewer iterations (docs/performance.md, "The SOCP step warm-started").
// Its derivative: the KKT conditions with each cone's projection split into held rows and
// curvature (socp_gradient.h), solved by the range-space method (docs/gradients.md).
class SocpProgram final : public QuasiDynamicProgram {
 public:
  explicit SocpProgram(const SocpSettings& settings = {},
                       SocpStart start = SocpStart::kFromPreviousStep)
      : settings_(settings), start_(start) {}
  const char* description() const override {
    return "SOCP (Pang, Suh, Yang & Tedrake 2023, exact friction cone)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void ClearWarmStart(ProgramWorkspace* workspace) const override;
  bool LeavesOutJointLimitsOutOfReach() const override { return true; }
  void Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient) const override;

 private:
  SocpSettings settings_;
  SocpStart start_;
};

}  // namespace quasidyn
