#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"

namespace quasidyn {

ContactDataContractor::ContactDataContractor(
    const ContactModel& contact, const QuasiDynamicCostParameters& cost, const ScenePtr& scene,
    std::unique_ptr<ChainKinematics>* chain, StepDataDerivativeBuffers* buffers,
    StepDataContraction* contraction, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
    const ContactSet& contacts, const Eigen::VectorXd& v, const Eigen::MatrixXd* added_d_P_v)
    : contact_(contact),
      cost_(cost),
      scene_(scene),
      chain_(chain),
      buffers_(buffers),
      contraction_(contraction),
      q_(q),
      u_(u),
      contacts_(contacts),
      v_(v),
      added_d_P_v_(added_d_P_v) {}

const StepDataContraction* ContactDataContractor::Contract(const Eigen::VectorXd& lambda) {
  if (*chain_ == nullptr) *chain_ = std::make_unique<ChainKinematics>(scene_);
  failure_.clear();
  if (Outcome outcome =
          DifferentiateStepData(contact_, cost_, q_, u_, contacts_, v_, lambda, kContactDataStep,
                                chain_->get(), buffers_, contraction_);
      !outcome) {
    failure_ = outcome.TakeMessage();
    return nullptr;
  }
  if (added_d_P_v_ != nullptr) contraction_->d_P_v += *added_d_P_v_;
  return contraction_;
}

}  // namespace quasidyn
