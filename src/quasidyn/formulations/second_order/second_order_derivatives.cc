// CalcDiff of the second-order models (second_order_model.h): A = ∂(q⁺, v⁺)/∂(q, v) and
// B = ∂(q⁺, v⁺)/∂u of the step the last Calc solved, by implicit differentiation of its program
// (SecondOrderProgram::Differentiate; anitescu: the pyramid QP, programs/qp_gradient.h;
// anitescu-cone: the exact-cone SOCP, programs/socp_gradient.h; stewart-trinkle: the LCP on its
// active set, stewart_trinkle/lcp_step_gradient.h):
//
//   v⁺ = v*(q, v, u),   q⁺ = q ⊕ h v⁺,
//   ∂v⁺/∂q = ∂v*/∂q_tangent · T(q),   ∂v⁺/∂v, ∂v⁺/∂u  from the program's KKT / active rows,
//   A = [ ∂(q ⊕ h v)/∂q + ∂(q ⊕ h v)/∂v · ∂v⁺/∂q    ∂(q ⊕ h v)/∂v · ∂v⁺/∂v ]
//       [ ∂v⁺/∂q                                    ∂v⁺/∂v                 ],
//   B = [ ∂(q ⊕ h v)/∂v · ∂v⁺/∂u ;  ∂v⁺/∂u ]          (configuration_map.h, at v = v⁺).
//
// The right-hand sides: for q, dτ_h − d(P v⁺) + d(Jᵀλ) and the constraint rows, with the contact
// data's contractions of contact_data_derivative.h taken with object_mass_scale = 0 (so that
// their d_tau_h is the objects' weight and the robots' stiffness, and their d_P_v is zero) plus
// ∂(M(q)(v⁺ − v))/∂q + h ∂(C(q, v) v)/∂q (second_order_data_derivative.h); for v, ∂τ_h/∂v =
// M − h ∂(C v)/∂v; for u, [0; h K_a]. Nothing is solved again.

#include <Eigen/SparseCore>

#include "quasidyn/formulations/second_order/second_order_model.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {

void SecondOrderModel::DoCalcDiff(GradientMode mode, StepData* data_in) const {
  SecondOrderData& data = static_cast<SecondOrderData&>(*data_in);  // CalcDiff: CreateData's
  StepDerivatives& out = data.derivatives;
  const bool want_a = mode == GradientMode::kAAndB;
  const Scene& scene = this->scene();
  const int nq = scene.nq, nv = scene.nv, na = scene.nq_a;
  const double h = time_step();
  if (nv == 0) {  // nothing moves: A and B are 0 x 0 (no Jacobian to differentiate, and Eigen's
    out.active_rows = 0;  // reductions over empty vectors read their empty data: UBSan)
    out.A.resize(0, 0);
    out.B.resize(0, 0);
    return;
  }
  const ContactSet& contacts = data.contact_.contacts();
  const Eigen::VectorXd& q = data.q();
  const Eigen::VectorXd& v = data.v();
  const Eigen::VectorXd& v_next = data.solution_.v;

  if (want_a) {
    if (data.kinematics_ == nullptr)
      data.kinematics_ = std::make_unique<Kinematics>(contact_.kinematics());
    DifferentiateSecondOrderData(data.kinematics_.get(), q, v, v_next - v, h, kContactDataStep,
                                 &data.smooth_);
  }
  // The contact data's contraction (weight and stiffness in d_tau_h, no d_P_v) plus the
  // inertia and velocity-product terms, in d_P_v.
  // (object_mass_scale = 0: the objects' weight and the robots' stiffness in d_tau_h.)
  ContactDataContractor contractor(contact_, QuasiDynamicCostParameters{h, 0.0}, scene_ptr(),
                                   &data.chain_kinematics_, &data.derivative_buffers_,
                                   &data.contraction_, q, data.u(), contacts, v_next,
                                   &data.smooth_.inertia_force);
  const StepProblem problem = ProblemOf(data);
  const SecondOrderDerivativeInput input{problem, data.solution_, want_a ? &contractor : nullptr,
                                         &data.smooth_.velocity_force};
  VelocityGradient gradient;
  Eigen::MatrixXd dv_dv;
  program_->Differentiate(input, data.workspace_.get(), &gradient, &dv_dv);
  if (!gradient.ok) return FailDerivatives(gradient.failure, &out);
  out.active_rows = gradient.active_rows;

  const Eigen::SparseMatrix<double> dq_dv =
      IntegrationJacobianWrtVelocity(scene, q, v_next, h).sparseView();
  out.B.resize(nq + nv, na);
  if (na > 0) {  // a scene without robots: B has no column (a block of its null data is UBSan)
    out.B.topRows(nq) = dq_dv * gradient.dv_du;
    out.B.bottomRows(nv) = gradient.dv_du;
  }
  if (!want_a) {
    out.A.resize(0, 0);
    return;
  }
  const Eigen::SparseMatrix<double> tangent = TangentFromConfiguration(scene, q).sparseView();
  const Eigen::MatrixXd dv_dq = gradient.dv_dq * tangent;
  out.A.resize(nq + nv, nq + nv);
  out.A.topLeftCorner(nq, nq) = IntegrationJacobianWrtConfiguration(scene, q, v_next, h);
  out.A.topLeftCorner(nq, nq) += dq_dv * dv_dq;
  out.A.topRightCorner(nq, nv) = dq_dv * dv_dv;
  out.A.bottomLeftCorner(nv, nq) = dv_dq;
  out.A.bottomRightCorner(nv, nv) = dv_dv;
}

}  // namespace quasidyn
