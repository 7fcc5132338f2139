#include "quasidyn/contact/contact_set.h"

#include "quasidyn/contact/friction_cone.h"

namespace quasidyn {

Eigen::MatrixXd ContactSet::NormalJacobian() const {
  Eigen::MatrixXd J(size(), nv);
  for (int i = 0; i < size(); ++i) J.row(i) = contacts[i].J_n;
  return J;
}

Eigen::VectorXd ContactSet::SignedDistances() const {
  Eigen::VectorXd phi(size());
  for (int i = 0; i < size(); ++i) phi[i] = contacts[i].phi;
  return phi;
}

ContactSet BuildContactSet(const Scene& scene, const Kinematics& kinematics,
                           const std::vector<ContactCandidate>& candidates) {
  ContactSet set;
  set.nv = scene.nv;
  set.contacts.reserve(candidates.size());
  Eigen::MatrixXd J_A, J_B;
  for (const ContactCandidate& candidate : candidates) {
    const CollisionGeometry& a = scene.geometries[candidate.geometry_a];
    const CollisionGeometry& b = scene.geometries[candidate.geometry_b];
    Contact c;
    c.geometry_a = candidate.geometry_a;
    c.geometry_b = candidate.geometry_b;
    c.body_a = a.body;
    c.body_b = b.body;
    c.phi = candidate.point.phi;
    c.p_A = candidate.point.p_A;
    c.p_B = candidate.point.p_B;
    c.normal = candidate.point.normal;
    c.friction = CombineFriction(scene.friction_combination, a.friction, b.friction);
    TangentBasis(c.normal, scene.planar, &c.tangent1, &c.tangent2);
    c.rays = FrictionRays(c.tangent1, c.tangent2, scene.friction_rays, scene.planar);

    // J_i = J_A(p_A) − J_B(p_B): relative velocity of the witness points. With
    // p_A − p_B = φ n, this gives dφ/dt = nᵀ J_i v exactly for vertex–face and smooth
    // contact (the rotation of n contributes φ nᵀ(ω × n) = 0).
    kinematics.PointJacobian(c.body_a, c.p_A, &J_A);
    kinematics.PointJacobian(c.body_b, c.p_B, &J_B);
    J_A -= J_B;
    c.J_n = c.normal.transpose() * J_A;
    if (scene.planar) {
      c.J_t = c.tangent1.transpose() * J_A;
    } else {
      c.J_t.resize(2, scene.nv);
      c.J_t.row(0) = c.tangent1.transpose() * J_A;
      c.J_t.row(1) = c.tangent2.transpose() * J_A;
    }
    c.J_d = c.rays.transpose() * J_A;
    set.contacts.push_back(std::move(c));
  }
  return set;
}

ContactEngine::ContactEngine(const Scene& scene)
    : scene_(scene), kinematics_(scene), geometry_(scene) {}

const ContactSet& ContactEngine::Compute(const Eigen::VectorXd& q) {
  kinematics_.Update(q);
  contacts_ = BuildContactSet(scene_, kinematics_,
                              geometry_.Query(kinematics_.BodyPoses(), scene_.contact_tolerance));
  return contacts_;
}

}  // namespace quasidyn
