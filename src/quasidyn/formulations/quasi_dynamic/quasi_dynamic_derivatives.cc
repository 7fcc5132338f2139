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

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/gradients/configuration_map.h"
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

// The contraction of the contact data's derivative at the data's step, into the data's kept
// buffers (contact_data_derivative.h).
class QuasiDynamicContractor final : public StepDataContractor {
 public:
  QuasiDynamicContractor(const ContactModel& contact, const QuasiDynamicCostParameters& cost,
                         const ScenePtr& scene, std::unique_ptr<ChainKinematics>* chain,
                         StepDataDerivativeBuffers* buffers, StepDataContraction* contraction,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                         const ContactSet& contacts, const Eigen::VectorXd& v)
      : contact_(contact),
        cost_(cost),
        scene_(scene),
        chain_(chain),
        buffers_(buffers),
        contraction_(contraction),
        q_(q),
        u_(u),
        contacts_(contacts),
        v_(v) {}

  const StepDataContraction* Contract(const Eigen::VectorXd& lambda) override {
    if (*chain_ == nullptr) *chain_ = std::make_unique<ChainKinematics>(scene_);
    failure_.clear();
    if (Outcome outcome = DifferentiateStepData(contact_, cost_, q_, u_, contacts_, v_, lambda,
                                                kDataStep, chain_->get(), buffers_, contraction_);
        !outcome) {
      failure_ = outcome.TakeMessage();
      return nullptr;
    }
    return contraction_;
  }

 private:
  const ContactModel& contact_;
  const QuasiDynamicCostParameters& cost_;
  const ScenePtr& scene_;
  std::unique_ptr<ChainKinematics>* chain_;
  StepDataDerivativeBuffers* buffers_;
  StepDataContraction* contraction_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& u_;
  const ContactSet& contacts_;
  const Eigen::VectorXd& v_;
};

}  // namespace

void QuasiDynamicModel::CalcDiff(GradientMode mode, StepData* data_in) const {
  QuasiDynamicData& data = DataOf(data_in, "CalcDiff");
  QUASIDYN_CHECK_ARGUMENT(data.calculated_, "CalcDiff",
                          "no step to differentiate: call Calc on this data first");
  QUASIDYN_CHECK_ARGUMENT(mode == GradientMode::kNone || capabilities().differentiable(),
                          "CalcDiff",
                          "the " + formulation().name +
                              " formulation has no derivative: " + capabilities().no_gradient);
  StepDerivatives& out = data.derivatives;
  if (!StartDerivatives(mode, data.result, &out)) return;
  const bool want_a = mode == GradientMode::kAAndB;
  const StepProblem problem = ProblemOf(data);
  QuasiDynamicContractor contractor(
      contact_, cost_parameters_, scene_ptr(), &data.chain_kinematics_, &data.derivative_buffers_,
      &data.contraction_, data.q_, data.u_, data.contact_.contacts(), data.solution_.v);
  const QuasiDynamicDerivativeInput input{problem, data.solution_, data.q_,
                                          want_a ? &contractor : nullptr};
  VelocityGradient& gradient = data.gradient_;
  gradient.ok = true;
  gradient.failure.clear();
  program_->Differentiate(input, data.workspace_.get(), &gradient);
  if (!gradient.ok) return FailDerivatives(gradient.failure, &out);
  out.active_rows = gradient.active_rows;
  ChainToConfiguration(scene(), data.q_, data.solution_.v, time_step(), gradient.dv_dq,
                       gradient.dv_du, &out.A, &out.B);
}

}  // namespace quasidyn
