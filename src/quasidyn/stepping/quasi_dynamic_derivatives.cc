// CalcDiff of the quasi-dynamic models (quasi_dynamic_model.h): A = ∂q⁺/∂q and B = ∂q⁺/∂u of
// the step the last Calc solved, by implicit differentiation of its program (docs/gradients.md):
//
//   f(q, u) = q ⊕ h v*(q, u),
//   B = ∂(q ⊕ h v)/∂v · ∂v*/∂u,
//   A = ∂(q ⊕ h v)/∂q + ∂(q ⊕ h v)/∂v · ∂v*/∂q_tangent · T(q)     (configuration_map.h),
//
// with ∂v*/∂q containing every q-dependence of the program (φ, J_n, J_d or J_t with ∂J/∂q,
// M_u, τ_u, q_a in τ_h) through the data contractions of contact_data_derivative.h.
// Nothing is solved again: the contact set, the cost, v* and the multipliers are the data's.

#include <string>
#include <vector>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/log_barrier_pyramid.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/log_barrier_cone_gradient.h"
#include "quasidyn/gradients/log_barrier_gradient.h"
#include "quasidyn/gradients/qp_gradient.h"
#include "quasidyn/gradients/socp_gradient.h"
#include "quasidyn/gradients/socp_gradient_blocks.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/quasi_dynamic_model.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
namespace {

// ε_data of the data contractions (contact_data_derivative.h) [m or rad]: ∛ε, the optimum of a
// central difference (truncation O(ε²) against round-off O(ε_machine/ε)).
constexpr double kDataStep = 6.0555e-6;

void FailDerivatives(std::string message, StepDerivatives* out) {
  out->status = SolverStatus::kNumericalFailure;
  out->message = std::move(message);
  out->A.resize(0, 0);
  out->B.resize(0, 0);
}

// The first pyramid row with g_j = G_j v + o_j <= 0, as a message; empty when v is strictly
// inside every barrier (a solver's last iterate can land on a boundary by rounding).
std::string PyramidBarrierViolation(const PyramidStepData& data, const Eigen::VectorXd& v) {
  const Eigen::VectorXd g = data.G * v + data.offset;
  for (int j = 0; j < static_cast<int>(g.size()); ++j)
    if (!(g[j] > 0))
      return "the log-barrier solution is on the boundary of pyramid row " + std::to_string(j) +
             " (G v + o = " + NumberText(g[j]) + ")";
  return "";
}

std::string ConeBarrierViolation(const StepProblem& problem,
                                 const std::vector<ContactConeBlock>& blocks,
                                 const Eigen::VectorXd& v) {
  const std::vector<Eigen::VectorXd> values =
      BlockValues(blocks, GapVelocities(problem.contacts, v, problem.settings.time_step));
  for (size_t b = 0; b < values.size(); ++b) {
    const Eigen::VectorXd& u = values[b];
    const double radius = u.size() > 1 ? u.tail(u.size() - 1).norm() : 0.0;
    if (!(u[0] - radius > 0))
      return "the log-barrier solution is on the boundary of the cone of contact " +
             std::to_string(blocks[b].contact);
  }
  return "";
}

// The first joint-limit row with g_l <= 0, as a message; empty when v is strictly inside.
std::string LimitBarrierViolation(const JointLimitRows& limits, const Eigen::VectorXd& v) {
  for (int l = 0; l < limits.size(); ++l)
    if (!(JointLimitSlack(limits, l, v) > 0))
      return "the log-barrier solution is on the boundary of joint-limit row " + std::to_string(l);
  return "";
}

}  // namespace

void QuasiDynamicModel::CalcDiff(GradientMode mode, StepData* data_in) const {
  QuasiDynamicData& data = DataOf(data_in, "CalcDiff");
  QUASIDYN_CHECK_ARGUMENT(data.calculated_, "CalcDiff",
                          "no step to differentiate: call Calc on this data first");
  const FormulationType type = settings().type;
  QUASIDYN_CHECK_ARGUMENT(
      mode == GradientMode::kNone || HasDerivatives(type), "CalcDiff",
      std::string("the ") + FormulationName(type) +
          " formulation has no derivative; differentiate the model of DifferentiatedFormulation "
          "(the qp step for an lcp scene)");
  StepDerivatives& out = data.derivatives;
  if (!StartDerivatives(mode, data.result, &out)) return;
  const bool want_a = mode == GradientMode::kAAndB;
  const Scene& scene = this->scene();
  const double h = time_step();
  const StepProblem problem = ProblemOf(data);
  const ContactSet& contacts = data.contact_.contacts();
  const Eigen::VectorXd& q = data.q_;
  const Eigen::VectorXd& u = data.u_;
  const Eigen::VectorXd& v = data.solution_.v;
  StepDataContraction& contraction = data.contraction_;
  std::string failure;
  const auto contract = [&](const Eigen::VectorXd& lambda) {
    if (data.chain_kinematics_ == nullptr)
      data.chain_kinematics_ = std::make_unique<ChainKinematics>(scene_ptr());
    if (DifferentiateStepData(contact_, settings(), q, u, contacts, v, lambda, kDataStep,
                              data.chain_kinematics_.get(), &data.derivative_buffers_, &contraction,
                              &failure))
      return true;
    FailDerivatives("A: " + failure, &out);
    return false;
  };

  VelocityGradient& gradient = data.gradient_;
  if (type == FormulationType::kQp || type == FormulationType::kLogBarrierPyramid) {
    PyramidStepData& pyramid = data.pyramid_;
    BuildPyramidStepData(problem, &pyramid);
    if (type == FormulationType::kQp) {
      const auto& workspace = static_cast<const PyramidQpWorkspace&>(*data.workspace_);
      const Eigen::VectorXd& beta = workspace.solver.result().z;
      QpSensitivity& sensitivity = data.qp_sensitivity_;
      sensitivity.Compute(&scene, h, &pyramid, v, beta);
      if (want_a && !contract(sensitivity.ActiveContactImpulse())) return;
      sensitivity.Gradient(want_a ? &contraction : nullptr, &gradient);
    } else {
      if (const std::string violation = PyramidBarrierViolation(pyramid, v); !violation.empty())
        return FailDerivatives(violation, &out);
      if (want_a && !contract(BarrierContactImpulse(pyramid, settings().kappa, v))) return;
      gradient = LogBarrierVelocityGradient(scene, h, settings().kappa, pyramid,
                                            want_a ? &contraction : nullptr, v);
    }
  } else {  // the friction-cone programs
    const bool exact = type == FormulationType::kSocp;
    std::vector<ContactConeBlock>& blocks = data.cone_blocks_;
    if (exact)
      SocpConeBlocks(contacts, &blocks);
    else
      BarrierConeBlocks(contacts, &blocks);
    if (!exact) {
      if (const std::string violation = ConeBarrierViolation(problem, blocks, v);
          !violation.empty())
        return FailDerivatives(violation, &out);
      if (const std::string violation = LimitBarrierViolation(problem.cost.limits, v);
          !violation.empty())
        return FailDerivatives(violation, &out);
    }
    std::vector<Eigen::VectorXd>& multipliers = data.cone_multipliers_;
    if (exact)
      SocpBlockMultipliers(contacts, blocks, data.solution_, &multipliers);
    else
      multipliers = BarrierConeMultipliers(problem, blocks, v);
    if (want_a && !contract(StackedImpulseCoordinates(contacts, blocks, multipliers))) return;
    const StepDataContraction* d = want_a ? &contraction : nullptr;
    if (exact)
      data.socp_sensitivity_.Compute(problem, blocks, multipliers, data.solution_.limit_impulse, v,
                                     d, SocpKktSolve::kRangeSpace, &gradient);
    else
      gradient = LogBarrierConeVelocityGradient(problem, blocks, v, d);
  }
  if (!gradient.ok) return FailDerivatives(gradient.failure, &out);
  out.active_rows = gradient.active_rows;
  ChainToConfiguration(scene, q, v, h, gradient.dv_dq, gradient.dv_du, &out.A, &out.B);
}

}  // namespace quasidyn
