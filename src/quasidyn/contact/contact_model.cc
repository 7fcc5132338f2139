#include "quasidyn/contact/contact_model.h"

#include <cmath>
#include <memory>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

ContactModel::ContactModel(ScenePtr scene)
    : scene_(std::move(scene)),
      geometry_(scene_),
      // validates the kinematic structure once, here; every data's Kinematics shares it
      kinematics_(std::make_shared<const KinematicsModel>(scene_)) {
  candidate_distance_ = scene_->contact_tolerance;
}

ContactModel::ContactModel(ScenePtr scene, double candidate_distance) : ContactModel(scene) {
  QUASIDYN_CHECK_ARGUMENT(
      std::isfinite(candidate_distance) && candidate_distance >= scene_->contact_tolerance,
      "ContactModel", "the candidate distance must be finite and >= contact_tolerance");
  candidate_distance_ = candidate_distance;
}

ContactData ContactModel::CreateData() const {
  return ContactData(this, Kinematics(kinematics_), geometry_.CreateData());
}

bool ContactModel::Compute(const Eigen::VectorXd& q, ContactData* data) const {
  QUASIDYN_CHECK_ARGUMENT(data != nullptr && data->model_ == this, "ContactModel::Compute",
                          "the data was not made by this model (CreateData)");
  if (!data->kinematics_.IsAt(q)) data->kinematics_.Update(q);  // else: q's poses, held
  data->failure_message_.clear();
  if (!geometry_.Query(data->kinematics_.BodyPoses(), candidate_distance_, &data->geometry_)) {
    data->failure_message_ = data->geometry_.failure_message();
    UpdateContactSet(*scene_, data->kinematics_, {}, &data->contacts_);
    return false;
  }
  UpdateContactSet(*scene_, data->kinematics_, data->geometry_.candidates(), &data->contacts_);
  return true;
}

bool ContactModel::ShareKinematics(const Eigen::VectorXd& q, Kinematics* spare,
                                   ContactData* data) const {
  QUASIDYN_CHECK_ARGUMENT(data != nullptr && data->model_ == this, "ContactModel::ShareKinematics",
                          "the data was not made by this model (CreateData)");
  QUASIDYN_CHECK_ARGUMENT(spare != nullptr && spare->model_ptr() == kinematics_,
                          "ContactModel::ShareKinematics",
                          "the spare kinematics must share this model's KinematicsModel");
  if (!spare->IsAt(q) || data->kinematics_.IsAt(q)) return false;
  std::swap(data->kinematics_, *spare);
  return true;
}

}  // namespace quasidyn
