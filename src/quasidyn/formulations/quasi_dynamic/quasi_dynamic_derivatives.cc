// CalcDiff of the quasi-dynamic models (quasi_dynamic_model.h): A = ∂q⁺/∂q and B = ∂q⁺/∂u of
// the step the last Calc solved, by implicit differentiation of its program (docs/gradients.md):
//
//   f(q, u) = q ⊕ h v*(q, u),
//   B = ∂(q ⊕ h v)/∂v · ∂v*/∂u,
//   A = ∂(q ⊕ h v)/∂q + ∂(q ⊕ h v)/∂v · ∂v*/∂q_tangent · T(q)     (configuration_map.h),
//
// with ∂v*/∂q containing every q-dependence of the program (φ, J_n, J_d or J_t with ∂J/∂q,
// M_u, τ_u, q_a in τ_h) through the data contractions of contact_data_derivative.h. The
// program differentiates its own answer (QuasiDynamicProgram::Differentiate); nothing is
// solved again: the contact set, the cost, v* and the multipliers are the data's.

#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {

void QuasiDynamicModel::DoCalcDiff(GradientMode mode, StepData* data_in) const {
  QuasiDynamicData& data = static_cast<QuasiDynamicData&>(*data_in);  // CalcDiff: CreateData's
  StepDerivatives& out = data.derivatives;
  const bool want_a = mode == GradientMode::kAAndB;
  if (scene().nv == 0) {  // nothing moves: A and B are 0 x 0, and no program has a KKT system to
    out.active_rows = 0;  // factor (Eigen's QR of a 0 x 0 matrix reads its empty data: UBSan)
    out.A.resize(0, 0);
    out.B.resize(0, 0);
    return;
  }
  const StepProblem problem = ProblemOf(data);
  ContactDataContractor contractor(contact_, cost_parameters_, scene_ptr(), &data.chain_kinematics_,
                                   &data.derivative_buffers_, &data.contraction_, data.q(),
                                   data.u(), data.contact_.contacts(), data.solution_.v);
  const QuasiDynamicDerivativeInput input{problem, data.solution_, data.q(),
                                          want_a ? &contractor : nullptr};
  VelocityGradient& gradient = data.gradient_;
  gradient.ok = true;
  gradient.failure.clear();
  program_->Differentiate(input, data.workspace_.get(), &gradient);
  if (!gradient.ok) return FailDerivatives(gradient.failure, &out);
  out.active_rows = gradient.active_rows;
  ChainToConfiguration(scene(), data.q(), data.solution_.v, time_step(), gradient.dv_dq,
                       gradient.dv_du, &out.A, &out.B);
}

}  // namespace quasidyn
