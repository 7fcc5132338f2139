#pragma once
// The contact query of a scene as an immutable model and a data object (the shape of every
// model of quasidyn, docs/architecture.md): Kinematics::Update(q) → GeometryModel::Query(ε) →
// UpdateContactSet, the first half of every time step.
//
//   ContactModel model(scene);              // compiles the geometry once (may allocate)
//   ContactData data = model.CreateData();  // buffers for one thread
//   if (!model.Compute(q, &data)) ...       // data.failure_message() names the pair
//   for (const Contact& c : data.contacts()) ...
//
// The model is shared, read-only, by any number of threads, each with its own data.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

class ContactModel;

class ContactData {
 public:
  const Kinematics& kinematics() const { return kinematics_; }
  const ContactSet& contacts() const { return contacts_; }
  const GeometryData& geometry() const { return geometry_; }
  // Why the last Compute returned false (a numerical failure of the narrow phase).
  const std::string& failure_message() const { return failure_message_; }

 private:
  friend class ContactModel;
  ContactData(const ContactModel* model, Kinematics kinematics, GeometryData geometry)
      : model_(model), kinematics_(std::move(kinematics)), geometry_(std::move(geometry)) {}

  const ContactModel* model_;  // the model that made this data (checked by Compute)
  Kinematics kinematics_;
  GeometryData geometry_;
  ContactSet contacts_;
  std::string failure_message_;
};

class ContactModel {
 public:
  // Compiles the scene's geometry (geometry_model.h) and checks its kinematic structure;
  // throws std::invalid_argument naming a bad geometry or joint.
  explicit ContactModel(ScenePtr scene);
  // The same, keeping contacts up to `candidate_distance` [m] (finite, >= the scene's
  // contact_tolerance) instead of the scene's ε: the log barriers push from further away
  // (dynamics/barrier_stand_off.h). Throws std::invalid_argument for a distance out of range.
  ContactModel(ScenePtr scene, double candidate_distance);
  // Its data objects point back to it: not copyable or movable.
  ContactModel(const ContactModel&) = delete;
  ContactModel& operator=(const ContactModel&) = delete;

  const Scene& scene() const { return *scene_; }
  const ScenePtr& scene_ptr() const { return scene_; }
  const GeometryModel& geometry() const { return geometry_; }
  // The scene's kinematic structure, shared by every data's Kinematics.
  const std::shared_ptr<const KinematicsModel>& kinematics() const { return kinematics_; }
  // Contacts with φ <= this distance [m] are kept (Scene::contact_tolerance by default).
  double candidate_distance() const { return candidate_distance_; }

  ContactData CreateData() const;

  // Updates data's kinematics to q (size n_q) and its contact set to every candidate with
  // φ <= candidate_distance(). Returns false on a numerical failure of the narrow
  // phase (the contact set is then empty and data->failure_message() says which pair).
  // Throws std::invalid_argument for a wrong size, a NaN or a zero quaternion in q, or data
  // made by another model. No heap allocation once data's buffers have grown to the step's
  // size (geometry_model.h).
  // The poses are computed only when data's kinematics is not already at q (Kinematics::IsAt:
  // the last Update was at q, bit for bit).
  bool Compute(const Eigen::VectorXd& q, ContactData* data) const;

  // Hands data a spare Kinematics of this model's kinematic structure when the spare was last
  // updated to q, bit for bit (Kinematics::IsAt): the two are exchanged, so that the next
  // Compute(q, data) takes the spare's poses instead of computing them again (a step's poses
  // at its end q⁺, which the next step's query, at q⁺, needs: quasi_dynamic_model.cc), and
  // the spare holds data's former kinematics. Returns whether it exchanged them; either way
  // data's contact set stays as it was until that Compute. Throws std::invalid_argument for
  // data made by another model or a spare of another KinematicsModel.
  bool ShareKinematics(const Eigen::VectorXd& q, Kinematics* spare, ContactData* data) const;

 private:
  ScenePtr scene_;
  GeometryModel geometry_;
  std::shared_ptr<const KinematicsModel> kinematics_;
  double candidate_distance_;
};

}  // namespace quasidyn
