#include "quasidyn/gradients/contact_data_derivative.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/contact/friction_cone.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

int ContactRows(const Scene& scene) { return scene.planar ? 2 : 3; }

Eigen::MatrixXd StackedContactJacobian(const ContactSet& contacts) {
  int rows = 0;
  for (const Contact& c : contacts.contacts) rows += 1 + static_cast<int>(c.J_t.rows());
  Eigen::MatrixXd J(rows, contacts.nv);
  int row = 0;
  for (const Contact& c : contacts.contacts) {
    J.row(row) = c.J_n;
    J.middleRows(row + 1, c.J_t.rows()) = c.J_t;
    row += 1 + static_cast<int>(c.J_t.rows());
  }
  return J;
}

namespace {

// True when the pose of `body` depends on the coordinates of `joint` (joint is on the path
// from the body up to the world). The world depends on nothing.
bool MovedBy(const Scene& scene, int body, int joint) {
  for (int j = scene.bodies[body].parent_joint; j >= 0;
       j = scene.bodies[scene.joints[j].parent_body].parent_joint)
    if (j == joint) return true;
  return false;
}

// The contacts of one geometry pair (one manifold query re-evaluates them all).
struct PairContacts {
  int geometry_a = -1, geometry_b = -1, body_a = -1, body_b = -1;
  std::vector<int> contacts;
};

std::vector<PairContacts> GroupByPair(const ContactSet& contacts) {
  std::vector<PairContacts> pairs;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts.contacts[i];
    bool found = false;
    for (PairContacts& p : pairs) {
      if (p.geometry_a == c.geometry_a && p.geometry_b == c.geometry_b) {
        p.contacts.push_back(i);
        found = true;
        break;
      }
    }
    if (!found) pairs.push_back({c.geometry_a, c.geometry_b, c.body_a, c.body_b, {i}});
  }
  return pairs;
}

// Work space of one contact evaluation.
struct Workspace {
  Eigen::MatrixXd J_A, J_B;
};

// Adds weight·(φ, J_c v, J_cᵀ λ_i) of the contact at `point` (configuration of `kinematics`)
// into column k of the contraction; rows: the contact's first row of J_c, contact index i.
void AddContactTerms(const Scene& scene, const Kinematics& kinematics, const Contact& at_q,
                     const ContactPoint& point, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& lambda, int contact, int first_row, int k,
                     double weight, Workspace* w, StepDataContraction* d) {
  Eigen::Vector3d t1, t2;
  TangentBasis(point.normal, scene.planar, &t1, &t2);
  // J_i = J_A(p_A) − J_B(p_B) as in contact/contact_set.cc.
  kinematics.PointJacobian(at_q.body_a, point.p_A, &w->J_A);
  kinematics.PointJacobian(at_q.body_b, point.p_B, &w->J_B);
  w->J_A -= w->J_B;
  const Eigen::Vector3d relative_velocity = w->J_A * v;
  d->d_phi(contact, k) += weight * point.phi;
  d->d_Jc_v(first_row, k) += weight * point.normal.dot(relative_velocity);
  d->d_Jc_v(first_row + 1, k) += weight * t1.dot(relative_velocity);
  Eigen::Vector3d force = lambda[first_row] * point.normal + lambda[first_row + 1] * t1;
  if (!scene.planar) {
    d->d_Jc_v(first_row + 2, k) += weight * t2.dot(relative_velocity);
    force += lambda[first_row + 2] * t2;
  }
  d->d_JcT_lambda.col(k).noalias() += (weight * w->J_A.transpose()) * force;
}

// Adds weight·(s M_b v, h τ_b) of object body b (its share of P v and τ_h,
// dynamics/quasi_dynamic_cost.h: M_b = m J_comᵀJ_com + J_ωᵀ I_W J_ω, Featherstone 2008,
// eq. 6.2; τ_b = J_comᵀ m g) at the configuration of `kinematics` into column k.
void AddObjectBodyTerms(const Scene& scene, const Kinematics& kinematics, int b,
                        const Eigen::VectorXd& v, double mass_scale, double h, int k, double weight,
                        Workspace* w, StepDataContraction* d) {
  const Body& body = scene.bodies[b];
  const Eigen::Isometry3d& X_WB = kinematics.BodyPose(b);
  kinematics.PointJacobian(b, X_WB * body.com, &w->J_A);
  kinematics.RotationalJacobian(b, &w->J_B);
  const Eigen::Matrix3d inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
  const Eigen::Vector3d momentum = body.mass * (w->J_A * v);          // m v_com [N·s]
  const Eigen::Vector3d angular_momentum = inertia_W * (w->J_B * v);  // I_W ω [N·m·s]
  const int nu = scene.nv_u;
  d->d_P_v.col(k).head(nu).noalias() +=
      (weight * mass_scale) * (w->J_A.leftCols(nu).transpose() * momentum +
                               w->J_B.leftCols(nu).transpose() * angular_momentum);
  d->d_tau_h.col(k).head(nu).noalias() +=
      (weight * h * body.mass) * (w->J_A.leftCols(nu).transpose() * scene.gravity);
}

}  // namespace

StepDataContraction DifferentiateStepData(ContactEngine* engine,
                                          const FormulationSettings& settings,
                                          const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                          const ContactSet& contacts, const Eigen::VectorXd& v,
                                          const Eigen::VectorXd& lambda, double data_step) {
  if (engine == nullptr) throw std::invalid_argument("DifferentiateStepData: engine is null");
  if (!(data_step > 0) || !std::isfinite(data_step))
    throw std::invalid_argument("DifferentiateStepData: data_step must be finite and > 0");
  const Scene& scene = engine->kinematics().scene();
  const int nv = scene.nv, nc = contacts.size(), rows_per_contact = ContactRows(scene);
  const int r = nc * rows_per_contact;
  if (q.size() != scene.nq)
    throw std::invalid_argument("DifferentiateStepData: q has size " + std::to_string(q.size()) +
                                ", expected n_q = " + std::to_string(scene.nq));
  if (u.size() != scene.nq_a)
    throw std::invalid_argument("DifferentiateStepData: u has size " + std::to_string(u.size()) +
                                ", expected n_q,a = " + std::to_string(scene.nq_a));
  if (v.size() != nv || !v.allFinite())
    throw std::invalid_argument("DifferentiateStepData: v must have n_v = " + std::to_string(nv) +
                                " finite entries");
  if (lambda.size() != r || !lambda.allFinite())
    throw std::invalid_argument("DifferentiateStepData: lambda must have r = " + std::to_string(r) +
                                " finite entries (1 + n_t per contact)");
  for (const Contact& c : contacts.contacts)
    if (c.J_t.rows() + 1 != rows_per_contact || c.J_n.size() != nv)
      throw std::invalid_argument(
          "DifferentiateStepData: the contact set does not belong to this scene (J_t rows or "
          "J_n size)");

  StepDataContraction d;
  d.d_phi = Eigen::MatrixXd::Zero(nc, nv);
  d.d_Jc_v = Eigen::MatrixXd::Zero(r, nv);
  d.d_JcT_lambda = Eigen::MatrixXd::Zero(nv, nv);
  d.d_P_v = Eigen::MatrixXd::Zero(nv, nv);
  d.d_tau_h = Eigen::MatrixXd::Zero(nv, nv);

  // Analytic: τ_h,a = h K_a (u − q_a) and q_a are the robots' (revolute/prismatic) coordinates,
  // whose tangent directions are the coordinates themselves: ∂τ_h,a/∂ε_k = −h K_a e_k.
  const double h = settings.time_step;
  const Eigen::VectorXd K = scene.ActuatedStiffness();
  for (int a = 0; a < scene.nv_a; ++a) d.d_tau_h(scene.nv_u + a, scene.nv_u + a) = -h * K[a];

  std::vector<int> joint_of_velocity(nv, -1);
  for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j)
    for (int i = 0; i < JointNv(scene.joints[j].type); ++i)
      joint_of_velocity[scene.joints[j].v_start + i] = j;
  std::vector<int> object_bodies;
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
    const int instance = scene.bodies[b].instance;
    if (instance >= 0 && !scene.instances[instance].actuated) object_bodies.push_back(b);
  }
  const std::vector<PairContacts> pairs = GroupByPair(contacts);

  Kinematics kinematics(scene);
  const GeometryQuery& geometry = engine->geometry();
  Workspace work;
  std::vector<const PairContacts*> moved_pairs;
  std::vector<int> moved_objects;
  const double match_distance = 1000.0 * data_step;
  for (int k = 0; k < nv; ++k) {
    // Only what the direction moves changes: a contact or object body whose pose does not
    // depend on joint j keeps its terms exactly (zero derivative).
    const int joint = joint_of_velocity[k];
    moved_pairs.clear();
    moved_objects.clear();
    for (const PairContacts& p : pairs)
      if (MovedBy(scene, p.body_a, joint) || MovedBy(scene, p.body_b, joint))
        moved_pairs.push_back(&p);
    for (int b : object_bodies)
      if (MovedBy(scene, b, joint)) moved_objects.push_back(b);
    if (moved_pairs.empty() && moved_objects.empty()) continue;

    for (const double sign : {1.0, -1.0}) {
      const double weight = sign / (2.0 * data_step);  // central difference
      kinematics.Update(
          IntegrateConfiguration(scene, q, Eigen::VectorXd::Unit(nv, k), sign * data_step));
      for (const PairContacts* p : moved_pairs) {
        const std::vector<ContactPoint> points = geometry.PairManifold(
            p->geometry_a, p->geometry_b, kinematics.BodyPoses(), scene.contact_tolerance);
        for (int i : p->contacts) {
          // Matched as in step_data_derivative.h: the nearest witness points.
          const Contact& c = contacts.contacts[i];
          int best = -1;
          double best_distance = match_distance;
          for (int m = 0; m < static_cast<int>(points.size()); ++m) {
            const double distance = (points[m].p_A - c.p_A).norm() + (points[m].p_B - c.p_B).norm();
            if (distance <= best_distance) {
              best = m;
              best_distance = distance;
            }
          }
          if (best < 0)
            throw std::runtime_error("contact " + std::to_string(i) + " (geometries " +
                                     std::to_string(c.geometry_a) + ", " +
                                     std::to_string(c.geometry_b) + ") of q disappears within ±" +
                                     std::to_string(data_step) + " along velocity direction " +
                                     std::to_string(k) + ": the step is not differentiable there");
          AddContactTerms(scene, kinematics, c, points[best], v, lambda, i, i * rows_per_contact, k,
                          weight, &work, &d);
        }
      }
      for (int b : moved_objects)
        AddObjectBodyTerms(scene, kinematics, b, v, settings.object_mass_scale, h, k, weight, &work,
                           &d);
    }
  }
  return d;
}

}  // namespace quasidyn
