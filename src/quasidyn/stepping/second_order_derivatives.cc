// CalcDiff of the second-order models (second_order_model.h): A = ∂(q⁺, v⁺)/∂(q, v) and
// B = ∂(q⁺, v⁺)/∂u of the step the last Calc solved, by implicit differentiation of its program
// (anitescu: the pyramid QP, gradients/qp_gradient.h; stewart-trinkle: the LCP on its active
// set, gradients/lcp_step_gradient.h):
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
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasistatic_lcp.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/lcp_step_gradient.h"
#include "quasidyn/gradients/qp_gradient.h"
#include "quasidyn/stepping/second_order_model.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
namespace {

// ε_data of the data differences [m or rad]: ∛ε, as quasi_dynamic_derivatives.cc.
constexpr double kDataStep = 6.0555e-6;

void FailDerivatives(std::string message, StepDerivatives* out) {
  out->status = SolverStatus::kNumericalFailure;
  out->message = std::move(message);
  out->A.resize(0, 0);
  out->B.resize(0, 0);
}

}  // namespace

void SecondOrderModel::CalcDiff(GradientMode mode, StepData* data_in) const {
  SecondOrderData& data = DataOf(data_in, "CalcDiff");
  QUASIDYN_CHECK_ARGUMENT(data.calculated_, "CalcDiff",
                          "no step to differentiate: call Calc on this data first");
  StepDerivatives& out = data.derivatives;
  if (!StartDerivatives(mode, data.result, &out)) return;
  const bool want_a = mode == GradientMode::kAAndB;
  const Scene& scene = this->scene();
  const int nq = scene.nq, nv = scene.nv, na = scene.nq_a;
  const double h = time_step();
  const ContactSet& contacts = data.contact_.contacts();
  const Eigen::VectorXd& q = data.q_;
  const Eigen::VectorXd& v = data.v_;
  const Eigen::VectorXd& v_next = data.solution_.v;

  // The contact data's contraction (weight and stiffness in d_tau_h, no d_P_v) plus the
  // inertia and velocity-product terms, in d_P_v.
  const auto contract = [&](const Eigen::VectorXd& lambda) {
    if (data.chain_kinematics_ == nullptr)
      data.chain_kinematics_ = std::make_unique<ChainKinematics>(scene_ptr());
    FormulationSettings contact_settings = settings();
    contact_settings.object_mass_scale = 0.0;
    std::string failure;
    if (!DifferentiateStepData(contact_, contact_settings, q, data.u_, contacts, v_next, lambda,
                               kDataStep, data.chain_kinematics_.get(), &data.derivative_buffers_,
                               &data.contraction_, &failure)) {
      FailDerivatives("A: " + failure, &out);
      return false;
    }
    data.contraction_.d_P_v += data.smooth_.inertia_force;
    return true;
  };
  if (want_a) {
    if (data.kinematics_ == nullptr) data.kinematics_ = std::make_unique<Kinematics>(scene_ptr());
    DifferentiateSecondOrderData(data.kinematics_.get(), q, v, v_next - v, h, kDataStep,
                                 &data.smooth_);
  }

  VelocityGradient gradient;
  Eigen::MatrixXd dv_dv;
  if (settings().type == FormulationType::kAnitescu) {
    BuildPyramidStepData(ProblemOf(data), &data.pyramid_);
    const auto& workspace = static_cast<const PyramidQpWorkspace&>(*data.workspace_);
    const QpSensitivity sensitivity(&scene, h, &data.pyramid_, v_next, workspace.solver.result().z);
    if (want_a && !contract(sensitivity.ActiveContactImpulse())) return;
    gradient = sensitivity.Gradient(want_a ? &data.contraction_ : nullptr);
    if (want_a) dv_dv = sensitivity.CostSensitivity(data.smooth_.velocity_force);
  } else {
    const auto& workspace = static_cast<const QuasistaticLcpWorkspace&>(*data.workspace_);
    const LcpStepSensitivity sensitivity(&scene, &contacts, h, &workspace.built, workspace.z);
    if (want_a && !contract(sensitivity.ContactImpulse())) return;
    gradient = sensitivity.Gradient(want_a ? &data.contraction_ : nullptr);
    if (want_a) dv_dv = sensitivity.CostSensitivity(data.smooth_.velocity_force);
  }
  if (!gradient.ok) return FailDerivatives(gradient.failure, &out);
  out.active_rows = gradient.active_rows;

  const Eigen::SparseMatrix<double> dq_dv =
      IntegrationJacobianWrtVelocity(scene, q, v_next, h).sparseView();
  out.B.resize(nq + nv, na);
  out.B.topRows(nq) = dq_dv * gradient.dv_du;
  out.B.bottomRows(nv) = gradient.dv_du;
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
