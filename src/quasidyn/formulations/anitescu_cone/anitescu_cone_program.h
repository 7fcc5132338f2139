#pragma once
// Anitescu's convex relaxation on the exact Coulomb cone (Anitescu 2006, "Optimization-based
// simulation of nonsmooth rigid multibody dynamics", Math. Program. 105, its cone-constrained
// quadratic program; written as in Pang's 2022 talk, slide "What about friction?", with the
// second-order cost of the issue-17 notes' eqs. (1)–(5), dynamics/second_order_cost.h):
//
//   minimise_v⁺  ½ v⁺ᵀ M̂ v⁺ − τ_hᵀ v⁺
//   subject to   (φ_i/h + J_n,i v⁺,  μ_i J_t,i v⁺) ∈ SOC_i   for every contact i,
//                o_l + d_l v⁺_j >= 0                           for every joint-limit row l,
//
// the SOCP of programs/friction_cone_socp.h (its builder and solver, and its cone duals as the
// contact impulses) with M̂ and τ_h in place of the quasi-dynamic P and τ_h. Where a contact
// slides, the relaxation keeps Coulomb's friction on the cone's boundary against the sliding
// velocity (the tangential motion of backward Euler with exact Coulomb friction) and, as on the
// pyramid (anitescu), lets the contact separate at the normal speed μ_i ‖J_t,i v⁺‖ (the boundary
// layer). Its derivative: the cone KKT conditions of programs/socp_gradient.h, with ∂v⁺/∂v from
// the same factors (SocpSensitivity::CostSensitivity).

#include "quasidyn/formulations/programs/friction_cone_socp.h"
#include "quasidyn/formulations/second_order/second_order_program.h"

namespace quasidyn {

class AnitescuConeProgram final : public SecondOrderProgram {
 public:
  explicit AnitescuConeProgram(const SocpSettings& settings = {}) : settings_(settings) {}
  const char* description() const override {
    return "Anitescu SOCP (Anitescu 2006, the relaxation on the exact friction cone)";
  }
  std::unique_ptr<ProgramWorkspace> CreateWorkspace() const override;
  void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
             FormulationSolution* solution) const override;
  void Differentiate(const SecondOrderDerivativeInput& input, ProgramWorkspace* workspace,
                     VelocityGradient* gradient, Eigen::MatrixXd* dv_dv) const override;

 private:
  SocpSettings settings_;
};

}  // namespace quasidyn
