#include "quasidyn/gradients/contact_data_derivative.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/contact/friction_cone.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/pair_motion_derivative.h"

namespace quasidyn {

int ContactRows(const Scene& scene) { return scene.planar ? 2 : 3; }

Eigen::MatrixXd StackedContactJacobian(const ContactSet& contacts) {
  const int per_contact = 1 + contacts.tangent_count();
  Eigen::MatrixXd J(contacts.size() * per_contact, contacts.nv());
  for (int i = 0; i < contacts.size(); ++i) {
    J.row(i * per_contact) = contacts.DenseNormalJacobian(i);
    J.middleRows(i * per_contact + 1, per_contact - 1) = contacts.DenseTangentJacobian(i);
  }
  return J;
}

namespace {

// The contacts of one geometry pair (one manifold query re-evaluates them all) and, once
// computed, their derivatives along the velocity directions that move the pair.
struct PairContacts {
  int geometry_a = -1, geometry_b = -1, body_a = -1, body_b = -1;
  std::vector<int> contacts;
  std::vector<int> slot;  // per velocity direction k: its row of `derivative`, or −1
  std::vector<ContactPointDerivative> derivative;  // [slot · |contacts| + m] = d(contact m)/dε_k
};

// The contacts grouped by geometry pair into *pairs; its first *count entries are used (their
// vectors keep their storage from earlier calls).
void GroupByPair(const ContactSet& contacts, std::vector<PairContacts>* pairs, size_t* count) {
  *count = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    bool found = false;
    for (size_t k = 0; k < *count; ++k) {
      PairContacts& p = (*pairs)[k];
      if (p.geometry_a == c.geometry_a && p.geometry_b == c.geometry_b) {
        p.contacts.push_back(i);
        found = true;
        break;
      }
    }
    if (!found) {
      if (*count == pairs->size()) pairs->emplace_back();
      PairContacts& p = (*pairs)[(*count)++];
      p.geometry_a = c.geometry_a;
      p.geometry_b = c.geometry_b;
      p.body_a = c.body_a;
      p.body_b = c.body_b;
      p.contacts.assign(1, i);
    }
  }
}

// What one joint moves: the geometry pairs with a body below it and the object bodies below it.
struct MovedTerms {
  std::vector<const PairContacts*> pairs;
  std::vector<int> objects;
};

// The contacts' terms at one perturbed configuration, by body: the forces on a body are summed
// into one wrench about its origin, and one pass over its chain (chain_kinematics.h
// BodyTwistAndWrench) adds their generalised force J_oᵀ F + J_ωᵀ T = Σ J_pᵀ f and gives its
// twist, from which J_p v = v_o + ω × (p − o) for each of its contact points: one pass per body
// and configuration instead of one per contact.
class BodyTerms {
 public:
  explicit BodyTerms(int body_count) : slot_(body_count, -1) {}

  // Adds the force f at the point p_W of `body` to its wrench (nothing for the world).
  void AddForce(const ChainKinematics& kinematics, int body, const Eigen::Vector3d& p_W,
                const Eigen::Vector3d& f) {
    if (body == 0) return;
    if (slot_[body] < 0) {
      slot_[body] = static_cast<int>(entries_.size());
      Entry e;
      e.body = body;
      e.origin = kinematics.BodyPoses()[body].translation();
      entries_.push_back(e);
    }
    Entry& e = entries_[slot_[body]];
    e.force += f;
    e.torque += (p_W - e.origin).cross(f);
  }
  // out += Σ_bodies J_oᵀ F + J_ωᵀ T, and the bodies' twists for v.
  void Resolve(const ChainKinematics& kinematics, const Eigen::VectorXd& v,
               Eigen::Ref<Eigen::VectorXd> out) {
    for (Entry& e : entries_)
      kinematics.BodyTwistAndWrench(e.body, v, e.force, e.torque, &e.omega, &e.origin_velocity,
                                    out);
  }
  // J_p v of the point p_W of `body` (zero for the world): after Resolve, for a body given
  // to AddForce.
  Eigen::Vector3d PointVelocity(int body, const Eigen::Vector3d& p_W) const {
    if (body == 0) return Eigen::Vector3d::Zero();
    const Entry& e = entries_[slot_[body]];
    return e.origin_velocity + e.omega.cross(p_W - e.origin);
  }
  // Forgets the configuration's bodies.
  void Clear() {
    for (const Entry& e : entries_) slot_[e.body] = -1;
    entries_.clear();
  }

 private:
  // Zero until set (omega and origin_velocity by Resolve), so that a copy reads no
  // uninitialised value.
  struct Entry {
    int body = 0;
    Eigen::Vector3d origin = Eigen::Vector3d::Zero(), omega = Eigen::Vector3d::Zero(),
                    origin_velocity = Eigen::Vector3d::Zero(), force = Eigen::Vector3d::Zero(),
                    torque = Eigen::Vector3d::Zero();
  };
  std::vector<int> slot_;  // per body: its entry, or −1
  std::vector<Entry> entries_;
};

// One contact at a perturbed configuration (its point to first order and its contact frame).
struct PerturbedContact {
  int contact = 0, first_row = 0;
  int body_a = 0, body_b = 0;
  ContactPoint point;
  Eigen::Vector3d t1 = Eigen::Vector3d::Zero(), t2 = Eigen::Vector3d::Zero();  // set per use
};

// Work space of the pair and object body evaluations (reused: no allocation once grown).
struct Workspace {
  explicit Workspace(int count) : body_count(count), bodies(count) {}
  bool SizedFor(int count) const { return body_count == count; }
  int body_count;
  SparseJacobian3 J_A, J_B, R_A, R_B;
  std::vector<int> directions;
  std::vector<Twist> xi_A, xi_B, relative;
  std::vector<ContactPointDerivative> along;
  PairMotionDerivative motion;
  BodyTerms bodies;
  std::vector<PerturbedContact> perturbed;
};

}  // namespace

// What a call keeps for the next one.
struct StepDataDerivativeBuffers::Impl {
  std::vector<int> object_bodies;
  std::vector<PairContacts> pairs;  // the first pair_count are this call's
  size_t pair_count = 0;
  std::vector<MovedTerms> moved;  // per joint
  std::unique_ptr<Workspace> work;
};

namespace {

// The twist (pair_motion_derivative.h) of a body for the unit velocity of column c of its
// point Jacobian J (at the reference point) and rotational Jacobian R (same columns).
Twist ColumnTwist(const SparseJacobian3& J, const SparseJacobian3& R, size_t c) {
  Twist xi;
  xi.angular = R.column[c];
  xi.linear = J.column[c];
  return xi;
}

// Fills p.slot and p.derivative at the base configuration of `kinematics`: the twists of the
// two bodies for each velocity direction of their chains, about the mean witness point, and
// the pair's motion derivative along them (2 r manifold queries, r <= 6). A failure when a
// contact of the pair has no derivative there.
Outcome DifferentiatePair(const GeometryModel& geometry, const ContactSet& contacts,
                          const ChainKinematics& kinematics, double tolerance, double data_step,
                          int nv, Workspace* w, PairContacts* p) {
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();
  for (int i : p->contacts) reference += contacts[i].p_A + contacts[i].p_B;
  reference /= 2.0 * static_cast<double>(p->contacts.size());
  kinematics.PointJacobian(p->body_a, reference, &w->J_A);
  kinematics.RotationalJacobian(p->body_a, &w->R_A);
  kinematics.PointJacobian(p->body_b, reference, &w->J_B);
  kinematics.RotationalJacobian(p->body_b, &w->R_B);
  // The union of the two chains' columns, in increasing velocity index: direction k and the
  // twists of A and B for it.
  w->directions.clear();
  w->xi_A.clear();
  w->xi_B.clear();
  w->relative.clear();
  size_t a = 0, b = 0;
  while (a < w->J_A.index.size() || b < w->J_B.index.size()) {
    const int k_a = a < w->J_A.index.size() ? w->J_A.index[a] : nv;
    const int k_b = b < w->J_B.index.size() ? w->J_B.index[b] : nv;
    const int k = std::min(k_a, k_b);
    w->directions.push_back(k);
    w->xi_A.push_back(k_a == k ? ColumnTwist(w->J_A, w->R_A, a++) : Twist{});
    w->xi_B.push_back(k_b == k ? ColumnTwist(w->J_B, w->R_B, b++) : Twist{});
    w->relative.push_back({w->xi_A.back().angular - w->xi_B.back().angular,
                           w->xi_A.back().linear - w->xi_B.back().linear});
  }
  PairMotionDerivative& motion = w->motion;
  if (Outcome outcome = motion.Compute(geometry, contacts, p->contacts, kinematics.BodyPoses(),
                                       tolerance, reference, w->relative, data_step);
      !outcome)
    return outcome;
  const size_t members = p->contacts.size();
  p->slot.assign(nv, -1);
  p->derivative.resize(w->directions.size() * members);
  for (size_t s = 0; s < w->directions.size(); ++s) {
    p->slot[w->directions[s]] = static_cast<int>(s);
    motion.Derivatives(w->xi_A[s], w->xi_B[s], &w->along);
    std::copy(w->along.begin(), w->along.end(), p->derivative.begin() + s * members);
  }
  return Outcome::Ok();
}

// The terms of the contacts moved by direction k at the configuration of `kinematics`, weighted
// by `weight` into column k of the contraction: φ, J_c v (rows: the contact's first row of J_c,
// contact index i) and J_cᵀ λ, the latter as wrenches on the bodies (BodyTerms).
void AddContactTerms(const Scene& scene, const ChainKinematics& kinematics,
                     const Eigen::VectorXd& v, const Eigen::VectorXd& lambda, int k, double weight,
                     Workspace* w, StepDataContraction* d) {
  BodyTerms& bodies = w->bodies;
  for (PerturbedContact& c : w->perturbed) {
    TangentBasis(c.point.normal, scene.planar, &c.t1, &c.t2);
    Eigen::Vector3d force = lambda[c.first_row] * c.point.normal + lambda[c.first_row + 1] * c.t1;
    if (!scene.planar) force += lambda[c.first_row + 2] * c.t2;
    // J_i = J_A(p_A) − J_B(p_B) as in contact/contact_set.cc: J_iᵀ force added.
    bodies.AddForce(kinematics, c.body_a, c.point.p_A, weight * force);
    bodies.AddForce(kinematics, c.body_b, c.point.p_B, -weight * force);
  }
  bodies.Resolve(kinematics, v, d->d_JcT_lambda.col(k));
  for (const PerturbedContact& c : w->perturbed) {
    const Eigen::Vector3d relative_velocity =
        bodies.PointVelocity(c.body_a, c.point.p_A) - bodies.PointVelocity(c.body_b, c.point.p_B);
    d->d_phi(c.contact, k) += weight * c.point.phi;
    d->d_Jc_v(c.first_row, k) += weight * c.point.normal.dot(relative_velocity);
    d->d_Jc_v(c.first_row + 1, k) += weight * c.t1.dot(relative_velocity);
    if (!scene.planar) d->d_Jc_v(c.first_row + 2, k) += weight * c.t2.dot(relative_velocity);
  }
  bodies.Clear();
}

// Adds weight·(s M_b v, h τ_b) of object body b (its share of P v and τ_h,
// dynamics/quasi_dynamic_cost.h: M_b = m J_comᵀJ_com + J_ωᵀ I_W J_ω, Featherstone 2008,
// eq. 6.2; τ_b = J_comᵀ m g) at the configuration of `kinematics` into column k, rows n_v,u
// (the objects' block) only.
void AddObjectBodyTerms(const Scene& scene, const ChainKinematics& kinematics, int b,
                        const Eigen::VectorXd& v, double mass_scale, double h, int k, double weight,
                        Workspace* w, StepDataContraction* d) {
  const Body& body = scene.bodies[b];
  const Eigen::Isometry3d& X_WB = kinematics.BodyPoses()[b];
  kinematics.PointJacobian(b, X_WB * body.com, &w->J_A);
  kinematics.RotationalJacobian(b, &w->J_B);  // the same columns as J_A
  const Eigen::Matrix3d inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
  const Eigen::Vector3d momentum = body.mass * w->J_A.Times(v);          // m v_com [N·s]
  const Eigen::Vector3d angular_momentum = inertia_W * w->J_B.Times(v);  // I_W ω [N·m·s]
  const double momentum_weight = weight * mass_scale, gravity_weight = weight * h * body.mass;
  // Column by column, as Eigen evaluates c (J_comᵀ p + J_ωᵀ L) and c (J_comᵀ g).
  for (size_t c = 0; c < w->J_A.index.size(); ++c) {
    const int row = w->J_A.index[c];
    if (row >= scene.nv_u) continue;
    const Eigen::Vector3d& J_com = w->J_A.column[c];
    const Eigen::Vector3d& J_rot = w->J_B.column[c];
    d->d_P_v(row, k) +=
        momentum_weight *
        ((J_com[0] * momentum[0] + J_com[1] * momentum[1] + J_com[2] * momentum[2]) +
         (J_rot[0] * angular_momentum[0] + J_rot[1] * angular_momentum[1] +
          J_rot[2] * angular_momentum[2]));
    d->d_tau_h(row, k) +=
        gravity_weight *
        (J_com[0] * scene.gravity[0] + J_com[1] * scene.gravity[1] + J_com[2] * scene.gravity[2]);
  }
}

}  // namespace

StepDataDerivativeBuffers::StepDataDerivativeBuffers() : impl(std::make_unique<Impl>()) {}
StepDataDerivativeBuffers::~StepDataDerivativeBuffers() = default;
StepDataDerivativeBuffers::StepDataDerivativeBuffers(StepDataDerivativeBuffers&&) noexcept =
    default;
StepDataDerivativeBuffers& StepDataDerivativeBuffers::operator=(
    StepDataDerivativeBuffers&&) noexcept = default;

Outcome DifferentiateStepData(const ContactModel& model,
                              const QuasiDynamicCostParameters& cost_parameters,
                              const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                              const ContactSet& contacts, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& lambda, double data_step,
                              StepDataContraction* out) {
  ChainKinematics kinematics(model.scene_ptr());
  StepDataDerivativeBuffers buffers;
  return DifferentiateStepData(model, cost_parameters, q, u, contacts, v, lambda, data_step,
                               &kinematics, &buffers, out);
}

Outcome DifferentiateStepData(const ContactModel& model,
                              const QuasiDynamicCostParameters& cost_parameters,
                              const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                              const ContactSet& contacts, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& lambda, double data_step,
                              ChainKinematics* kinematics_pointer,
                              StepDataDerivativeBuffers* buffers, StepDataContraction* out) {
  constexpr const char* kWhere = "DifferentiateStepData";
  QUASIDYN_CHECK_ARGUMENT(kinematics_pointer != nullptr, kWhere, "kinematics is null");
  QUASIDYN_CHECK_ARGUMENT(buffers != nullptr && buffers->impl != nullptr, kWhere,
                          "buffers is null (or moved from)");
  QUASIDYN_CHECK_ARGUMENT(out != nullptr, kWhere, "out is null");
  CheckPositive(kWhere, "data_step", data_step);
  const Scene& scene = model.scene();
  const int nv = scene.nv, nc = contacts.size(), rows_per_contact = ContactRows(scene);
  const int r = nc * rows_per_contact;
  CheckSize(kWhere, "q", q.size(), scene.nq, "n_q");
  CheckSize(kWhere, "u", u.size(), scene.nq_a, "n_q,a");
  CheckVector(kWhere, "v", v, nv, "n_v");
  CheckVector(kWhere, "lambda", lambda, r, "r (1 + n_t per contact)");
  QUASIDYN_CHECK_ARGUMENT(contacts.nv() == nv && contacts.planar() == scene.planar, kWhere,
                          "the contact set does not belong to this scene");

  StepDataContraction& d = *out;
  d.d_phi.setZero(nc, nv);
  d.d_Jc_v.setZero(r, nv);
  d.d_JcT_lambda.setZero(nv, nv);
  d.d_P_v.setZero(nv, nv);
  d.d_tau_h.setZero(nv, nv);

  // Analytic: τ_h,a = h K_a (u − q_a) and q_a are the robots' (revolute/prismatic) coordinates,
  // whose tangent directions are the coordinates themselves: ∂τ_h,a/∂ε_k = −h K_a e_k.
  const double h = cost_parameters.time_step;
  const Eigen::VectorXd K = scene.ActuatedStiffness();
  for (int a = 0; a < scene.nv_a; ++a) d.d_tau_h(scene.nv_u + a, scene.nv_u + a) = -h * K[a];

  StepDataDerivativeBuffers::Impl& buffer = *buffers->impl;
  std::vector<int>& object_bodies = buffer.object_bodies;
  object_bodies.clear();
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
    const int instance = scene.bodies[b].instance;
    if (instance >= 0 && !scene.instances[instance].actuated) object_bodies.push_back(b);
  }
  GroupByPair(contacts, &buffer.pairs, &buffer.pair_count);
  const auto pairs = std::span<PairContacts>(buffer.pairs.data(), buffer.pair_count);

  // Only what a direction moves changes: a contact or object body whose pose does not depend
  // on the direction's joint keeps its terms exactly (zero derivative). Per joint, once.
  ChainKinematics& kinematics = *kinematics_pointer;
  std::vector<MovedTerms>& moved = buffer.moved;
  moved.resize(scene.joints.size());
  bool any_moved = false;
  for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j) {
    moved[j].pairs.clear();
    moved[j].objects.clear();
    for (const PairContacts& p : pairs)
      if (kinematics.MovedBy(p.body_a, j) || kinematics.MovedBy(p.body_b, j))
        moved[j].pairs.push_back(&p);
    for (int b : object_bodies)
      if (kinematics.MovedBy(b, j)) moved[j].objects.push_back(b);
    any_moved = any_moved || !moved[j].pairs.empty() || !moved[j].objects.empty();
  }
  if (!any_moved) return Outcome::Ok();
  kinematics.SetConfiguration(q);

  if (buffer.work == nullptr || !buffer.work->SizedFor(static_cast<int>(scene.bodies.size())))
    buffer.work = std::make_unique<Workspace>(static_cast<int>(scene.bodies.size()));
  Workspace& work = *buffer.work;
  for (PairContacts& p : pairs)
    if (Outcome outcome = DifferentiatePair(model.geometry(), contacts, kinematics,
                                            model.candidate_distance(), data_step, nv, &work, &p);
        !outcome)
      return outcome;
  for (int k = 0; k < nv; ++k) {
    const MovedTerms& terms = moved[kinematics.JointOfVelocity(k)];
    if (terms.pairs.empty() && terms.objects.empty()) continue;
    for (const double sign : {1.0, -1.0}) {
      const double weight = sign / (2.0 * data_step);  // central difference
      const double step = sign * data_step;
      kinematics.Perturb(k, step);  // q ⊕ ±data_step e_k
      work.perturbed.clear();
      for (const PairContacts* p : terms.pairs) {
        // The pair's points at q ⊕ step e_k to first order: exact for the central difference
        // of the terms below up to O(data_step²) (pair_motion_derivative.h).
        const int members = static_cast<int>(p->contacts.size());
        for (int m = 0; m < members; ++m) {
          const int i = p->contacts[m];
          const Contact& c = contacts[i];
          const ContactPointDerivative& dc = p->derivative[p->slot[k] * members + m];
          PerturbedContact perturbed;
          perturbed.contact = i;
          perturbed.first_row = i * rows_per_contact;
          perturbed.body_a = c.body_a;
          perturbed.body_b = c.body_b;
          perturbed.point.phi = c.phi + step * dc.phi;
          perturbed.point.p_A = c.p_A + step * dc.p_A;
          perturbed.point.p_B = c.p_B + step * dc.p_B;
          perturbed.point.normal = c.normal + step * dc.normal;
          work.perturbed.push_back(perturbed);
        }
      }
      AddContactTerms(scene, kinematics, v, lambda, k, weight, &work, &d);
      for (int b : terms.objects)
        AddObjectBodyTerms(scene, kinematics, b, v, cost_parameters.object_mass_scale, h, k, weight,
                           &work, &d);
      kinematics.Restore();
    }
  }
  return Outcome::Ok();
}

}  // namespace quasidyn
