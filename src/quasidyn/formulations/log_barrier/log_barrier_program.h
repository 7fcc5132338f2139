#pragma once
// The pyramid log barrier (Pang, Suh, Yang & Tedrake, T-RO 2023; programs/log_barrier_pyramid.h)
// as the quasi-dynamic model's program: κ, the barrier's stand-off as the contact candidates'
// distance (quasi_dynamic/barrier_stand_off.h), and the derivative of its stationarity
// (programs/log_barrier_gradient.h).

#include "quasidyn/formulations/programs/log_barrier_pyramid.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

// Its derivative: the stationarity of the barrier objective differentiated in (q, u)
// (log_barrier_gradient.h).
class PyramidLogBarrierProgram final : public QuasiDynamicProgram {
 public:
  // kappa: κ [1/(N·m)], finite and > 0 (std::invalid_argument otherwise).
  explicit PyramidLogBarrierProgram(double kappa, const LogBarrierSettings& settings = {});
  double kappa() const { return kappa_; }
  const char* description() const override {
    return "log-barrier pyramid (Pang, Suh, Yang & Tedrake 2023)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void ClearWarmStart(ProgramWorkspace* workspace) const override;
  double CandidateDistance(const Scene& scene) const override;
  void ReportParameters(ParameterBlock* report) const override { report->Set("kappa", kappa_); }
  void Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient) const override;

 private:
  double kappa_;
  LogBarrierSettings settings_;
};

}  // namespace quasidyn
