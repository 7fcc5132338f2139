#pragma once
// The quasi-dynamic step with Anitescu's friction pyramid as a convex QP, Pang & Tedrake 2021,
// eq. (10) (pyramid_qp.h), and its implicit derivative: the KKT conditions of the active
// pyramid rows differentiated in (q, u) (programs/qp_gradient.h; docs/gradients.md).
// By default each step's interior point starts from the previous step's answer kept in the
// workspace (programs/pyramid_qp_warm_start.h; ClearWarmStart forgets it): the same answers to the
// solver's tolerance in fewer iterations (docs/performance.md, "Warm starts in the step").

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

class QpProgram final : public QuasiDynamicProgram {
 public:
  explicit QpProgram(const QpSettings& settings = ContactQpSettings(),
                     QpStart start = QpStart::kFromPreviousStep)
      : settings_(settings), start_(start) {}
  const char* description() const override { return "QP (Pang & Tedrake 2021, eq. 10)"; }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void ClearWarmStart(ProgramWorkspace* workspace) const override;
  bool LeavesOutJointLimitsOutOfReach() const override { return true; }
  void Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient) const override;

 private:
  QpSettings settings_;
  QpStart start_;
};

}  // namespace quasidyn
