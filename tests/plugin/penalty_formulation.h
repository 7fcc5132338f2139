#pragma once
// A formulation that lives in this test folder only, to show that a formulation is a plug-in
// (docs/adding-a-formulation.md walks through it): a penalty spring step, registered with
// RegisterFormulation and then stepped, linearised, rolled out and compared by the library,
// the command line and the planner's checks with no other file touching it.
//
// The step, state q, command q̄_a (the quasi-dynamic cost of dynamics/quasi_dynamic_cost.h,
// P = blockdiag(M_u, h² K_a), τ_h): every contact found penetrating at the step's start (φ_i < 0)
// is a spring of stiffness k along its normal, taken implicitly in v:
//
//   (P + h² k Σ_i J_n,iᵀ J_n,i) v = τ_h − h k Σ_i J_n,iᵀ φ_i,      q⁺ = q ⊕ h v,
//
// (the impulse h k (−φ_i − h J_n,i v) pushes the bodies apart; no friction). Its derivative is
// taken by central differences of the step (gradients/finite_difference.h), the formulation's
// "own method". Parameter: penalty_stiffness k [N/m] > 0, default 1e4.

#include "quasidyn/formulations/registry.h"

namespace quasidyn::plugin_test {

// A box on a table pushed by a round tip (the vertical plane, gravity −y), under the plug-in:
// the scene plugin_test.cc drives through the command line, and the plug-in's own scene of the
// conformance suite (FormulationPlugin::conformance_scenes).
extern const char* const kPenaltyPushScene;

FormulationPlugin PenaltyFormulation();

}  // namespace quasidyn::plugin_test
