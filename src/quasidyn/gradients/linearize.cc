#include "quasidyn/gradients/linearize.h"

#include <Eigen/SparseCore>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/dynamics/log_barrier_cone.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/log_barrier_cone_gradient.h"
#include "quasidyn/gradients/log_barrier_gradient.h"
#include "quasidyn/gradients/qp_gradient.h"
#include "quasidyn/gradients/socp_gradient.h"
#include "quasidyn/gradients/socp_gradient_blocks.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

namespace {

// Checks the solved velocity out->v and sets q⁺; false (q⁺ = q, status and message set) when
// the step failed.
bool IntegrateSolvedStep(const Scene& scene, const Eigen::VectorXd& q, double h,
                         Linearization* out) {
  if (out->ok() && (out->v.size() != scene.nv || !out->v.allFinite())) {
    out->status = SolverStatus::kNumericalFailure;
    out->message = "the solver reported success but returned a non-finite velocity";
  }
  if (!out->ok()) {
    out->q_next = q;
    return false;
  }
  out->q_next = IntegrateConfiguration(scene, q, out->v, h);
  return true;
}

// The data contractions of contact_data_derivative.h for A; false (status and message set)
// when a contact of q has no match at a perturbed configuration.
bool ContractStepData(ContactEngine* engine, const FormulationSettings& settings,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                      const ContactSet& contacts, const Eigen::VectorXd& lambda, double data_step,
                      StepDataContraction* contraction, Linearization* out) {
  try {
    *contraction =
        DifferentiateStepData(engine, settings, q, u, contacts, out->v, lambda, data_step);
    return true;
  } catch (const std::runtime_error& error) {
    out->status = SolverStatus::kNumericalFailure;
    out->message = std::string("A: ") + error.what();
    return false;
  }
}

// B = ∂(q ⊕ h v)/∂v · ∂v/∂u and, when want_a, A (linearize.h, configuration_map.h).
void ChainToConfiguration(const Scene& scene, const Eigen::VectorXd& q, double h,
                          const VelocityGradient& gradient, bool want_a, Linearization* out) {
  out->active_rows = gradient.active_rows;
  // Both maps are block diagonal by joint (identity outside the floating joints' blocks).
  const Eigen::SparseMatrix<double> dq_dv =
      IntegrationJacobianWrtVelocity(scene, q, out->v, h).sparseView();
  out->B = dq_dv * gradient.dv_du;
  if (want_a) {
    const Eigen::SparseMatrix<double> tangent = TangentFromConfiguration(scene, q).sparseView();
    out->A = IntegrationJacobianWrtConfiguration(scene, q, out->v, h);
    out->A += dq_dv * (gradient.dv_dq * tangent);
  }
}

}  // namespace

LinearizeSettings::LinearizeSettings() : qp(ContactQpSettings()) {
  // A linearisation is a function of (q, u) alone: no start from an earlier call's minimiser,
  // so that batches give bitwise identical results whatever the thread count.
  barrier.use_previous_solution = false;
}

Linearizer::Linearizer(const Scene& scene, const FormulationSettings& settings,
                       const LinearizeSettings& linearize_settings)
    : scene_(scene), settings_(settings), linearize_settings_(linearize_settings), engine_(scene) {
  if (!(settings.time_step > 0) || !std::isfinite(settings.time_step))
    throw std::invalid_argument("Linearizer: time step h must be finite and > 0");
  if (!(settings.kappa > 0) || !std::isfinite(settings.kappa))
    throw std::invalid_argument("Linearizer: formulation kappa must be finite and > 0");
  if (!(settings.object_mass_scale >= 0) || !std::isfinite(settings.object_mass_scale))
    throw std::invalid_argument("Linearizer: object_mass_scale must be finite and >= 0");
  if (!(linearize_settings.data_step > 0) || !std::isfinite(linearize_settings.data_step))
    throw std::invalid_argument("Linearizer: data_step must be finite and > 0");
}

Linearization Linearizer::Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                    GradientMode mode, GradientMethod method) {
  const double h = settings_.time_step;
  // The contact set stays in the engine: DifferentiateStepData uses its own kinematics.
  const ContactSet& contacts = engine_.Compute(q);  // validates q
  const QuasiDynamicCost cost = BuildQuasiDynamicCost(engine_.kinematics(), u, settings_);
  if (settings_.type == FormulationType::kSocp ||
      settings_.type == FormulationType::kLogBarrierCone)
    return LinearizeCone(q, u, contacts, cost, mode, method);  // linearize.h: the mapping
  const PyramidStepData data = BuildPyramidStepData(StepProblem{scene_, contacts, cost, settings_});
  Linearization out;
  Eigen::VectorXd beta;
  if (method == GradientMethod::kExact) {
    QpProblem qp{data.P, -data.tau_h, data.G, -data.offset};
    const QpResult result = qp_solver_.Solve(qp, linearize_settings_.qp);
    out.status = result.status;
    out.message = result.message;
    out.v = result.x;
    beta = result.z;
  } else {
    LogBarrierProblem barrier;
    barrier.Q = data.P;
    barrier.b = -data.tau_h;
    barrier.G = data.G;
    barrier.h = data.offset;
    barrier.kappa = settings_.kappa;
    const LogBarrierResult result = barrier_solver_.Solve(barrier, linearize_settings_.barrier);
    out.status = result.status;
    out.message = result.message;
    out.v = result.x;
  }
  if (!IntegrateSolvedStep(scene_, q, h, &out) || mode == GradientMode::kNone) return out;

  // Pyramid formulations: the data derivatives contracted with v and the impulse of the
  // differentiated conditions (contact_data_derivative.h), one factorisation for A and B.
  const bool want_a = mode == GradientMode::kAAndB;
  StepDataContraction contraction;
  auto contract = [&](const Eigen::VectorXd& lambda) {
    return ContractStepData(&engine_, settings_, q, u, contacts, lambda,
                            linearize_settings_.data_step, &contraction, &out);
  };
  VelocityGradient gradient;
  if (method == GradientMethod::kExact) {
    const QpSensitivity sensitivity(scene_, h, data, out.v, beta);
    if (want_a && !contract(sensitivity.ActiveContactImpulse())) return out;
    gradient = sensitivity.Gradient(want_a ? &contraction : nullptr);
  } else {
    if (want_a && !contract(BarrierContactImpulse(data, settings_.kappa, out.v))) return out;
    gradient = LogBarrierVelocityGradient(scene_, h, settings_.kappa, data,
                                          want_a ? &contraction : nullptr, out.v);
  }
  ChainToConfiguration(scene_, q, h, gradient, want_a, &out);
  return out;
}

// The friction-cone formulations: the same chain as the pyramid branch above, with the SOCP
// (socp_gradient.h) or the cone barrier (log_barrier_cone_gradient.h).
Linearization Linearizer::LinearizeCone(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                        const ContactSet& contacts, const QuasiDynamicCost& cost,
                                        GradientMode mode, GradientMethod method) {
  const double h = settings_.time_step;
  // `contacts` is the engine's: DifferentiateStepData leaves the engine where it is.
  const StepProblem problem{scene_, contacts, cost, settings_};
  const bool exact = method == GradientMethod::kExact;
  const std::vector<ContactConeBlock> blocks =
      exact ? SocpConeBlocks(contacts) : BarrierConeBlocks(contacts);
  const FormulationSolution solution =
      exact ? SolveFrictionConeSocp(problem, &socp_solver_, linearize_settings_.socp)
            : SolveConeLogBarrier(problem, &barrier_solver_, linearize_settings_.barrier);
  Linearization out;
  out.status = solution.status;
  out.message = solution.message;
  out.v = solution.v;
  if (!IntegrateSolvedStep(scene_, q, h, &out) || mode == GradientMode::kNone) return out;

  const bool want_a = mode == GradientMode::kAAndB;
  try {
    const std::vector<Eigen::VectorXd> multipliers =
        exact ? SocpBlockMultipliers(contacts, blocks, solution)
              : BarrierConeMultipliers(problem, blocks, out.v);
    StepDataContraction contraction;
    if (want_a && !ContractStepData(&engine_, settings_, q, u, contacts,
                                    StackedImpulseCoordinates(contacts, blocks, multipliers),
                                    linearize_settings_.data_step, &contraction, &out))
      return out;
    const StepDataContraction* d = want_a ? &contraction : nullptr;
    const VelocityGradient gradient =
        exact ? SocpVelocityGradient(problem, blocks, multipliers, out.v, d)
              : LogBarrierConeVelocityGradient(problem, blocks, out.v, d);
    ChainToConfiguration(scene_, q, h, gradient, want_a, &out);
  } catch (const std::exception& error) {  // e.g. a barrier iterate on its cone's boundary
    out.status = SolverStatus::kNumericalFailure;
    out.message = std::string("cone gradient: ") + error.what();
    out.A.resize(0, 0);
    out.B.resize(0, 0);
  }
  return out;
}

}  // namespace quasidyn
