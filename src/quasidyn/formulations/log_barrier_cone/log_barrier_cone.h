#pragma once
// The exact-cone SOCP (quasi_dynamic_socp.h) with its cones moved into a log barrier, the
// smoothed quasi-dynamic step of Pang, Suh, Yang & Tedrake, T-RO 2023 (log-barrier smoothing of
// the second-order cone constraints):
//
//   minimise_v  ½ vᵀ P v − τ_hᵀ v − (1/κ) Σ_i log(t_i² − ‖z_i‖²),
//   t_i = φ_i/h + J_n,i v,   z_i = μ_i J_t,i v   [m/s]   (the cone of FrictionConeOfContact).
//
// Pang et al. write the argument as t_i²/μ_i² − ‖J_t,i v‖² = (t_i² − ‖z_i‖²)/μ_i²: the two
// differ by the constant −2 log μ_i, so the minimiser is the same. A contact with μ_i = 0
// gets the one-dimensional cone t_i >= 0, whose barrier log(t_i²) = 2 log t_i is the μ → 0
// limit of the cone's, so the smoothed step is continuous in μ. Units: objective in N·m,
// κ (the formulation's kappa) in 1/(N·m); κ → ∞ recovers the SOCP's solution.
//
// Implied impulses. With ψ_i = t_i² − ‖z_i‖² > 0, the gradient of −(1/κ) log ψ_i is
//   −(2/κψ_i) (t_i J_n,i − μ_i z_iᵀ J_t,i)ᵀ,
// so stationarity P v − τ_h = Σ_i (J_n,iᵀ λ_n,i + J_t,iᵀ λ̂_t,i) holds with
//   λ_n,i = 2 t_i / (κ ψ_i),   λ̂_t,i = −2 μ_i z_i / (κ ψ_i)   [N·s]
// (i.e. y_i = (2/κ) J u_i / ψ_i, the cone dual of the SOCP, scaled), and
//   ‖λ̂_t,i‖ = μ_i (2‖z_i‖/(κψ_i)) < μ_i λ_n,i  because ‖z_i‖ < t_i:
// strictly inside the friction cone, with the friction opposing the tangential velocity.
// The smoothed complementarity is y_iᵀu_i = (2/κ)(t_i² − ‖z_i‖²)/ψ_i = 2/κ per contact
// (the barrier of a second-order cone has degree 2; Boyd & Vandenberghe, §11.6).
// The joint-limit rows o_l + d_l v_j > 0 (joint_limit_rows.h) are linear barriers
// −(1/κ) log g_l, as in the pyramid barrier, with the impulse λ_l = 1/(κ g_l).

#include "quasidyn/formulations/programs/log_barrier_pyramid.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

// One cone per contact in contact order (dimension 1 + n_t, or 1 when μ_i = 0) and the
// joint-limit rows as the linear barriers, weight κ = kappa [1/(N·m)], into *barrier. No heap
// allocation once *barrier has held a problem of this size, or, with `storage`, once its
// vectors' sizes have been met (its spares).
void BuildConeLogBarrier(const StepProblem& problem, double kappa, LogBarrierProblem* barrier,
                         SizedStoragePool* storage = nullptr);

// Its derivative: the stationarity of the barrier objective differentiated in (q, u)
// (log_barrier_cone_gradient.h).
class ConeLogBarrierProgram final : public QuasiDynamicProgram {
 public:
  // kappa: κ [1/(N·m)], finite and > 0 (std::invalid_argument otherwise).
  explicit ConeLogBarrierProgram(double kappa, const LogBarrierSettings& settings = {});
  double kappa() const { return kappa_; }
  const char* description() const override {
    return "log-barrier cone (Pang, Suh, Yang & Tedrake 2023)";
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
