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
#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/pair_motion_derivative.h"
#include "quasidyn/gradients/polytope_pair_derivative.h"
#include "quasidyn/gradients/rounded_pair_derivative.h"
#include "quasidyn/gradients/tangent_basis_derivative.h"

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

// Per body at q: its spatial velocity V_b = Σ_c S_c v_c over its chain's columns, the wrench
// of the contact impulses on it (Σ (p × f, f) over its contacts: torque about the world
// origin, force), and along one direction k at a time the derivatives of both.
struct BodyState {
  SpatialTwist velocity;
  Eigen::Vector3d torque = Eigen::Vector3d::Zero(), force = Eigen::Vector3d::Zero();
  int rate_direction = -1;     // the k of velocity_rate, or −1
  SpatialTwist velocity_rate;  // ∂V_b/∂ε_k
  int wrench_direction = -1;   // the k of torque_rate and force_rate, or −1
  Eigen::Vector3d torque_rate = Eigen::Vector3d::Zero(), force_rate = Eigen::Vector3d::Zero();
  // An object body's terms at q that no direction changes (AddObjectBodyRates), made by its
  // first direction: the centre of mass x [m], its velocity [m/s], I_W = R I Rᵀ [kg·m²] and
  // I_W ω [kg·m²/s].
  bool object_terms = false;
  Eigen::Vector3d com = Eigen::Vector3d::Zero(), com_velocity = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia_W = Eigen::Matrix3d::Zero();
  Eigen::Vector3d angular_momentum = Eigen::Vector3d::Zero();
};

// Per contact at q: its tangents (contact/friction_cone.h TangentBasis), its impulse as a force
// f = λ_n n + λ_t1 t1 (+ λ_t2 t2) [N·s] and the relative velocity of its witness points
// J_p,A(p_A) v − J_p,B(p_B) v [m/s].
struct ContactFrame {
  Eigen::Vector3d t1 = Eigen::Vector3d::Zero(), t2 = Eigen::Vector3d::Zero(),
                  force = Eigen::Vector3d::Zero(), relative_velocity = Eigen::Vector3d::Zero();
};

// The entries of a contraction that a call wrote (row, column), so that the next call into the
// same matrices clears only those instead of zeroing them whole (they are mostly zeros: a
// direction moves few contacts and bodies). Valid for the matrices whose storage and shape it
// recorded (`Matches`); d_P_v is zeroed whole on every call (a caller may add to it,
// formulations/quasi_dynamic/contact_data_contractor.cc).
//
// Used in 3D scenes above kRecordedEntriesAbove entries in d_phi, d_Jc_v, d_JcT_lambda and
// d_tau_h together, (n_c + r + 2 n_v) n_v: a planar hand's few hundred are zeroed faster than
// recorded, the arm's ≈ 23,000 are not (a planar scene's contraction is always zeroed whole).
constexpr int kRecordedEntriesAbove = 4096;
struct WrittenEntries {
  struct Entry {
    int row, col;
  };
  std::vector<Entry> contacts;      // (contact i, k): d_phi(i, k) and its rows of d_Jc_v
  std::vector<Entry> wrench_rates;  // d_JcT_lambda(c, k)
  std::vector<Entry> tau_rates;     // d_tau_h(c, k)
  const StepDataContraction* out = nullptr;
  const double* storage[4] = {nullptr, nullptr, nullptr, nullptr};
  Eigen::Index rows[4] = {0, 0, 0, 0}, cols[4] = {0, 0, 0, 0};

  static const Eigen::MatrixXd* Matrix(const StepDataContraction& d, int m) {
    const Eigen::MatrixXd* matrices[4] = {&d.d_phi, &d.d_Jc_v, &d.d_JcT_lambda, &d.d_tau_h};
    return matrices[m];
  }
  // Whether d is the contraction recorded, at its storage and the shape nc, r, nv.
  bool Matches(const StepDataContraction& d, Eigen::Index nc, Eigen::Index r,
               Eigen::Index nv) const {
    if (out != &d) return false;
    const Eigen::Index shape_rows[4] = {nc, r, nv, nv};
    for (int m = 0; m < 4; ++m) {
      const Eigen::MatrixXd& M = *Matrix(d, m);
      if (M.data() != storage[m] || M.rows() != rows[m] || M.cols() != cols[m] ||
          M.rows() != shape_rows[m] || M.cols() != nv)
        return false;
    }
    return true;
  }
  // Sets the recorded entries of d to zero (d_Jc_v: rows_per_contact rows per contact).
  void Clear(int rows_per_contact, StepDataContraction* d) const {
    for (const Entry& e : contacts) {
      d->d_phi(e.row, e.col) = 0.0;
      for (int j = 0; j < rows_per_contact; ++j)
        d->d_Jc_v(e.row * rows_per_contact + j, e.col) = 0.0;
    }
    for (const Entry& e : wrench_rates) d->d_JcT_lambda(e.row, e.col) = 0.0;
    for (const Entry& e : tau_rates) d->d_tau_h(e.row, e.col) = 0.0;
  }
  // Starts a new record for d (its matrices at their final shape).
  void Start(const StepDataContraction& d) {
    contacts.clear();
    wrench_rates.clear();
    tau_rates.clear();
    out = &d;
    for (int m = 0; m < 4; ++m) {
      const Eigen::MatrixXd& M = *Matrix(d, m);
      storage[m] = M.data();
      rows[m] = M.rows();
      cols[m] = M.cols();
    }
  }
};

// Work space of the pair and object body evaluations (reused: no allocation once grown).
struct Workspace {
  explicit Workspace(int count) : body_count(count), bodies(count) {}
  bool SizedFor(int count) const { return body_count == count; }
  int body_count;
  bool planar = false;  // Scene::planar of the call (VelocityRate's planar branch)
  SparseJacobian3 J_A, J_B, R_A, R_B;
  std::vector<int> directions;
  std::vector<Twist> xi_A, xi_B, relative;
  std::vector<int> moves;  // per direction of a rounded pair: 1 A, 2 B, 3 both
  std::vector<Eigen::Matrix<double, 6, 1>> relative_stacked;  // a rounded pair's ±S_k
  std::vector<ContactPointDerivative> along;
  PairMotionDerivative motion;
  Manifold3dScratch box_scratch;            // a box pair's manifold at q (PolytopePairDerivative)
  std::vector<SpatialTwist> column_twists;  // S_c per velocity column at q
  std::vector<BodyState> bodies;            // per body
  std::vector<ContactFrame> frames;         // per contact
  std::vector<int> wrench_bodies;           // the bodies whose wrench moves along this k
  WrittenEntries written;                   // what this call writes into the contraction
  bool record = false;                      // whether it records that (WrittenEntries)
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

// Adds common(ξ) (pair_motion_derivative.h) for the spatial twist ξ (both bodies carried
// rigidly: the points move with ξ, the normal turns, φ does not change).
void AddCommonMotion(const SpatialTwist& xi, const Contact& c, ContactPointDerivative* d) {
  d->p_A += xi.linear + xi.angular.cross(c.p_A);  // xi.PointVelocity(p_A)
  d->p_B += xi.linear + xi.angular.cross(c.p_B);
  d->normal += xi.angular.cross(c.normal);
}

// The pairs in closed form along each direction's own twists, without a basis of their span:
// rounded cores (rounded_pair_derivative.h), a polytope on a half-space (the analytic case of
// pair_motion_derivative.h) and two boxes (polytope_pair_derivative.h). D is linear in the
// relative twist, so d/dε_k = D(ξ_A − ξ_B) + common(ξ_B) (pair_motion_derivative.h) can be
// evaluated on the twists of direction k themselves. With the columns' spatial twists S_k
// (about the world origin, chain_kinematics.h) the bodies' twists are S_k or 0, so a direction
// that moves both bodies is common(S_k) alone, one that moves A alone is D S_k, and one that
// moves B alone is D(−S_k) + common(S_k): the closed form is evaluated only on the directions
// that move one body. Fills p.slot and p.derivative and returns true, or returns false
// without either when the pair is none of these (each closed form declines); `tolerance` [m]
// is the contact query's (the box pair's manifold at q).
bool DifferentiateClosedFormPair(const GeometryModel& geometry, const ContactSet& contacts,
                                 const ChainKinematics& kinematics, double tolerance,
                                 double data_step, int nv, Workspace* w, PairContacts* p) {
  // Directions of the union of the two chains, in increasing velocity index, and which body
  // each moves (1 A, 2 B, 3 both).
  const std::vector<int>& chain_a = kinematics.ChainColumns(p->body_a);
  const std::vector<int>& chain_b = kinematics.ChainColumns(p->body_b);
  w->directions.clear();
  w->moves.clear();
  w->relative_stacked.clear();
  size_t a = 0, b = 0;
  while (a < chain_a.size() || b < chain_b.size()) {
    const int k_a = a < chain_a.size() ? chain_a[a] : nv;
    const int k_b = b < chain_b.size() ? chain_b[b] : nv;
    const int k = std::min(k_a, k_b);
    const int moves = (k_a == k ? 1 : 0) | (k_b == k ? 2 : 0);
    a += k_a == k ? 1 : 0;
    b += k_b == k ? 1 : 0;
    w->directions.push_back(k);
    w->moves.push_back(moves);
    const SpatialTwist& S = w->column_twists[k];
    if (moves == 1) w->relative_stacked.emplace_back() << S.angular, S.linear;
    if (moves == 2) w->relative_stacked.emplace_back() << -S.angular, -S.linear;
  }
  const size_t members = p->contacts.size();
  w->along.resize(w->relative_stacked.size() * members);
  const std::vector<Eigen::Isometry3d>& X_WB = kinematics.BodyPoses();
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  if (!RoundedPairDerivative(geometry, contacts, p->contacts, X_WB, origin, w->relative_stacked,
                             data_step, &w->along) &&
      !PolytopeHalfSpaceDerivative(geometry, contacts, p->contacts, X_WB, origin,
                                   w->relative_stacked, &w->along) &&
      !PolytopePairDerivative(geometry, contacts, p->contacts, X_WB, tolerance, origin,
                              w->relative_stacked, &w->box_scratch, &w->along))
    return false;
  p->slot.resize(nv);
  std::fill(p->slot.begin(), p->slot.end(), -1);
  p->derivative.resize(w->directions.size() * members);
  size_t relative = 0;
  for (size_t s = 0; s < w->directions.size(); ++s) {
    const int k = w->directions[s];
    p->slot[k] = static_cast<int>(s);
    const SpatialTwist& S = w->column_twists[k];
    const int moves = w->moves[s];
    for (size_t m = 0; m < members; ++m) {
      ContactPointDerivative& d = p->derivative[s * members + m];
      d = moves == 3 ? ContactPointDerivative{} : w->along[relative * members + m];
      if (moves != 1) AddCommonMotion(S, contacts[p->contacts[m]], &d);
    }
    if (moves != 3) ++relative;
  }
  return true;
}

// Fills p.slot and p.derivative at the base configuration of `kinematics`: the closed forms
// where they apply (above), else the twists of the two bodies for each velocity
// direction of their chains, about the mean witness point, and the pair's motion derivative
// along them (2 r manifold queries, r <= 6). A failure when a contact of the pair has no
// derivative there.
Outcome DifferentiatePair(const GeometryModel& geometry, const ContactSet& contacts,
                          const ChainKinematics& kinematics, double tolerance, double data_step,
                          int nv, Workspace* w, PairContacts* p) {
  if (DifferentiateClosedFormPair(geometry, contacts, kinematics, tolerance, data_step, nv, w, p))
    return Outcome::Ok();
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
  p->slot.resize(nv);
  std::fill(p->slot.begin(), p->slot.end(), -1);
  p->derivative.resize(w->directions.size() * members);
  for (size_t s = 0; s < w->directions.size(); ++s) {
    p->slot[w->directions[s]] = static_cast<int>(s);
    motion.Derivatives(w->xi_A[s], w->xi_B[s], &w->along);
    std::copy(w->along.begin(), w->along.end(), p->derivative.begin() + s * members);
  }
  return Outcome::Ok();
}

// ∂V_b/∂ε_k = Σ_c ∂S_c/∂ε_k v_c = [S_k, Σ_{c moved by k} S_c v_c] over the chain of b
// (chain_kinematics.h TwistMovedBy; zero when k does not move b), once per body and k.
const SpatialTwist& VelocityRate(const ChainKinematics& kinematics, const Eigen::VectorXd& v,
                                 int body, int k, Workspace* w) {
  BodyState& state = w->bodies[body];
  if (state.rate_direction != k) {
    state.rate_direction = k;
    SpatialTwist carried;
    if (w->planar) {
      // Only ω_z, v_x and v_y are nonzero (Scene::planar); [S_k, carried] has ω = 0 and
      // linear part ω_k e_z × v − ω e_z × v_k (Bracket with both angular parts along e_z).
      for (int c : kinematics.ChainColumns(body)) {
        if (!kinematics.TwistMovedBy(c, k)) continue;
        const SpatialTwist& S_c = w->column_twists[c];
        carried.angular.z() += S_c.angular.z() * v[c];
        carried.linear.x() += S_c.linear.x() * v[c];
        carried.linear.y() += S_c.linear.y() * v[c];
      }
      const SpatialTwist& S_k = w->column_twists[k];
      state.velocity_rate.angular.setZero();
      state.velocity_rate.linear << -S_k.angular.z() * carried.linear.y() +
                                        S_k.linear.y() * carried.angular.z(),
          S_k.angular.z() * carried.linear.x() - S_k.linear.x() * carried.angular.z(), 0.0;
      return state.velocity_rate;
    }
    for (int c : kinematics.ChainColumns(body)) {
      if (!kinematics.TwistMovedBy(c, k)) continue;
      carried.angular += w->column_twists[c].angular * v[c];
      carried.linear += w->column_twists[c].linear * v[c];
    }
    state.velocity_rate = Bracket(w->column_twists[k], carried);
  }
  return state.velocity_rate;
}

// The body's wrench rate along direction k, zeroed and listed in w->wrench_bodies the first
// time k touches it.
BodyState& WrenchRateAlong(int body, int k, Workspace* w) {
  BodyState& state = w->bodies[body];
  if (state.wrench_direction != k) {
    state.wrench_direction = k;
    state.torque_rate.setZero();
    state.force_rate.setZero();
    w->wrench_bodies.push_back(body);
  }
  return state;
}

// Adds sign·(dp × f + p × df, df), the rate of the wrench of the force f at p, to the body's
// wrench rate along k (nothing for the world).
void AddWrenchRate(int body, int k, double sign, const Eigen::Vector3d& p,
                   const Eigen::Vector3d& dp, const Eigen::Vector3d& f, const Eigen::Vector3d& df,
                   Workspace* w) {
  if (body == 0) return;
  BodyState& state = WrenchRateAlong(body, k, w);
  state.torque_rate += sign * (dp.cross(f) + p.cross(df));
  state.force_rate += sign * df;
}

// Column k of the contraction's contact terms, in closed form: for each contact moved by k
// (derivatives dφ, dp_A, dp_B, dn of its pair, pair_motion_derivative.h) with the relative
// velocity w = V_A(p_A) − V_B(p_B), V(p) = linear + angular × p,
//   ∂φ/∂ε_k = dφ,
//   ∂(n·w)/∂ε_k = dn·w + n·dw,  ∂(t·w)/∂ε_k = dt·w + t·dw (dt: tangent_basis_derivative.h),
//   dw = ∂V_A/∂ε_k(p_A) + ω_A × dp_A − (∂V_B/∂ε_k(p_B) + ω_B × dp_B),
// and ∂(J_cᵀλ)/∂ε_k per body b with wrench W_b: entry c of its chain gets
//   S_c·∂W_b/∂ε_k + ∂S_c/∂ε_k·W_b,  ∂W/∂ε_k = Σ ±(dp × f + p × df, df),
//   df = λ_n dn + λ_t1 dt1 (+ λ_t2 dt2).
void AddContactRates(const Scene& scene, const ContactSet& contacts,
                     const ChainKinematics& kinematics, const MovedTerms& terms,
                     const Eigen::VectorXd& v, const Eigen::VectorXd& lambda, int k,
                     int rows_per_contact, Workspace* w, StepDataContraction* d) {
  w->wrench_bodies.clear();
  Eigen::Vector3d dt1, dt2;
  for (const PairContacts* p : terms.pairs) {
    const int members = static_cast<int>(p->contacts.size());
    const SpatialTwist& rate_A = VelocityRate(kinematics, v, p->body_a, k, w);
    const SpatialTwist& rate_B = VelocityRate(kinematics, v, p->body_b, k, w);
    const Eigen::Vector3d& omega_A = w->bodies[p->body_a].velocity.angular;
    const Eigen::Vector3d& omega_B = w->bodies[p->body_b].velocity.angular;
    for (int m = 0; m < members; ++m) {
      const int i = p->contacts[m];
      const Contact& c = contacts[i];
      const ContactFrame& frame = w->frames[i];
      const ContactPointDerivative& dc = p->derivative[p->slot[k] * members + m];
      const Eigen::Vector3d dw = rate_A.PointVelocity(c.p_A) + omega_A.cross(dc.p_A) -
                                 rate_B.PointVelocity(c.p_B) - omega_B.cross(dc.p_B);
      ContactTangentBasisDerivative(scene, c.normal, dc.normal, &dt1, &dt2);
      const int row = i * rows_per_contact;
      if (w->record) w->written.contacts.push_back({i, k});
      d->d_phi(i, k) = dc.phi;
      d->d_Jc_v(row, k) = dc.normal.dot(frame.relative_velocity) + c.normal.dot(dw);
      d->d_Jc_v(row + 1, k) = dt1.dot(frame.relative_velocity) + frame.t1.dot(dw);
      Eigen::Vector3d df = lambda[row] * dc.normal + lambda[row + 1] * dt1;
      if (!scene.planar) {
        d->d_Jc_v(row + 2, k) = dt2.dot(frame.relative_velocity) + frame.t2.dot(dw);
        df += lambda[row + 2] * dt2;
      }
      // J_i = J_A(p_A) − J_B(p_B) as in contact/contact_set.cc.
      AddWrenchRate(c.body_a, k, 1.0, c.p_A, dc.p_A, frame.force, df, w);
      AddWrenchRate(c.body_b, k, -1.0, c.p_B, dc.p_B, frame.force, df, w);
    }
  }
  // [S_k, S_c]·(τ, f) = S_c·(τ × ω_k + f × v_k, f × ω_k) (Bracket's components and the
  // cyclic triple product): the body's wrench turned by S_k once, then one power per column.
  const SpatialTwist& S_k = w->column_twists[k];
  for (int b : w->wrench_bodies) {
    const BodyState& state = w->bodies[b];
    const Eigen::Vector3d turned_torque =
        state.torque.cross(S_k.angular) + state.force.cross(S_k.linear);
    const Eigen::Vector3d turned_force = state.force.cross(S_k.angular);
    for (int c : kinematics.ChainColumns(b)) {
      const SpatialTwist& S_c = w->column_twists[c];
      double rate = S_c.Power(state.torque_rate, state.force_rate);
      if (kinematics.TwistMovedBy(c, k)) rate += S_c.Power(turned_torque, turned_force);
      if (w->record) w->written.wrench_rates.push_back({c, k});
      d->d_JcT_lambda(c, k) += rate;
    }
  }
}

// The in-plane components of a planar scene (Scene::planar: the bodies move in the world x-y
// plane): every twist is (ω e_z, v_x e_x + v_y e_y), every normal, tangent, force and witness
// velocity lies in the plane, and a witness point's z does not enter ω e_z × p.
struct PlaneVector {
  double x = 0.0, y = 0.0;
};
inline PlaneVector InPlane(const Eigen::Vector3d& a) { return {a.x(), a.y()}; }
inline double PlaneDot(const PlaneVector& a, const PlaneVector& b) { return a.x * b.x + a.y * b.y; }
// ω e_z × a.
inline PlaneVector TurnedBy(double omega, const PlaneVector& a) {
  return {-omega * a.y, omega * a.x};
}
// The velocity of the point p of a planar twist: linear + ω e_z × p.
inline PlaneVector PlanarPointVelocity(const SpatialTwist& xi, const Eigen::Vector3d& p) {
  return {xi.linear.x() - xi.angular.z() * p.y(), xi.linear.y() + xi.angular.z() * p.x()};
}

// Adds sign·((dp × f + p × df)·e_z, df) to the body's wrench rate along k (the in-plane wrench:
// torque about e_z, force in the plane; nothing for the world). AddWrenchRate for a planar
// scene: the other components of the rate are zero.
void AddPlanarWrenchRate(int body, int k, double sign, const Eigen::Vector3d& p,
                         const PlaneVector& dp, const PlaneVector& f, const PlaneVector& df,
                         Workspace* w) {
  if (body == 0) return;
  BodyState& state = WrenchRateAlong(body, k, w);
  state.torque_rate.z() += sign * ((dp.x * f.y - dp.y * f.x) + (p.x() * df.y - p.y() * df.x));
  state.force_rate.x() += sign * df.x;
  state.force_rate.y() += sign * df.y;
}

// AddContactRates for a planar scene, on the 3 nonzero components of its twists (ω_z, v_x,
// v_y) and the 2 of its vectors: the same formulas with the zeros left out. The bracket
// [S_k, S_c] = (0, ω_k e_z × v_c − ω_c e_z × v_k) (chain_kinematics.h Bracket with both
// angular parts along e_z), whose power on (τ, f) is its linear part·f.
void AddPlanarContactRates(const ContactSet& contacts, const ChainKinematics& kinematics,
                           const MovedTerms& terms, const Eigen::VectorXd& v,
                           const Eigen::VectorXd& lambda, int k, Workspace* w,
                           StepDataContraction* d) {
  constexpr int kRows = 2;  // ContactRows of a planar scene
  w->wrench_bodies.clear();
  Eigen::Vector3d dt1, dt2;
  for (const PairContacts* p : terms.pairs) {
    const int members = static_cast<int>(p->contacts.size());
    const SpatialTwist& rate_A = VelocityRate(kinematics, v, p->body_a, k, w);
    const SpatialTwist& rate_B = VelocityRate(kinematics, v, p->body_b, k, w);
    const double omega_A = w->bodies[p->body_a].velocity.angular.z();
    const double omega_B = w->bodies[p->body_b].velocity.angular.z();
    for (int m = 0; m < members; ++m) {
      const int i = p->contacts[m];
      const Contact& c = contacts[i];
      const ContactFrame& frame = w->frames[i];
      const ContactPointDerivative& dc = p->derivative[p->slot[k] * members + m];
      const PlaneVector dp_A = InPlane(dc.p_A), dp_B = InPlane(dc.p_B);
      const PlaneVector velocity_A = PlanarPointVelocity(rate_A, c.p_A);
      const PlaneVector velocity_B = PlanarPointVelocity(rate_B, c.p_B);
      const PlaneVector turn_A = TurnedBy(omega_A, dp_A), turn_B = TurnedBy(omega_B, dp_B);
      const PlaneVector dw = {velocity_A.x + turn_A.x - velocity_B.x - turn_B.x,
                              velocity_A.y + turn_A.y - velocity_B.y - turn_B.y};
      TangentBasisDerivative(c.normal, dc.normal, /*planar=*/true, &dt1, &dt2);
      const PlaneVector relative = InPlane(frame.relative_velocity);
      const PlaneVector dn = InPlane(dc.normal), dt = InPlane(dt1);
      const int row = i * kRows;
      d->d_phi(i, k) = dc.phi;
      d->d_Jc_v(row, k) = PlaneDot(dn, relative) + PlaneDot(InPlane(c.normal), dw);
      d->d_Jc_v(row + 1, k) = PlaneDot(dt, relative) + PlaneDot(InPlane(frame.t1), dw);
      const PlaneVector df = {lambda[row] * dn.x + lambda[row + 1] * dt.x,
                              lambda[row] * dn.y + lambda[row + 1] * dt.y};
      const PlaneVector force = InPlane(frame.force);
      // J_i = J_A(p_A) − J_B(p_B) as in contact/contact_set.cc.
      AddPlanarWrenchRate(c.body_a, k, 1.0, c.p_A, dp_A, force, df, w);
      AddPlanarWrenchRate(c.body_b, k, -1.0, c.p_B, dp_B, force, df, w);
    }
  }
  const SpatialTwist& S_k = w->column_twists[k];
  const double omega_k = S_k.angular.z();
  const PlaneVector linear_k = InPlane(S_k.linear);
  for (int b : w->wrench_bodies) {
    const BodyState& state = w->bodies[b];
    const PlaneVector force = InPlane(state.force), force_rate = InPlane(state.force_rate);
    for (int c : kinematics.ChainColumns(b)) {
      const SpatialTwist& S_c = w->column_twists[c];
      const PlaneVector linear_c = InPlane(S_c.linear);
      double rate = S_c.angular.z() * state.torque_rate.z() + PlaneDot(linear_c, force_rate);
      if (kinematics.TwistMovedBy(c, k)) {
        const double omega_c = S_c.angular.z();
        const PlaneVector bracket = {-omega_k * linear_c.y + linear_k.y * omega_c,
                                     omega_k * linear_c.x - linear_k.x * omega_c};
        rate += PlaneDot(bracket, force);
      }
      d->d_JcT_lambda(c, k) += rate;
    }
  }
}

// Adds ∂(s M_b v, h τ_b)/∂ε_k of object body b (its share of P v and τ_h,
// dynamics/quasi_dynamic_cost.h: M_b = m J_comᵀJ_com + J_ωᵀ I_W J_ω, Featherstone 2008,
// eq. 6.2; τ_b = J_comᵀ m g) into column k, rows n_v,u (the objects' block) only, in closed
// form: moving along k carries the body rigidly by S_k, so the centre of mass x moves with
// dx = S_k(x), I_W = R I Rᵀ turns with dI_W = [ω_k]× I_W − I_W [ω_k]×, column c of J_com
// changes by ∂S_c/∂ε_k(x) + ω_c × dx and of J_ω by ∂ω_c/∂ε_k.
void AddObjectBodyRates(const Scene& scene, const ChainKinematics& kinematics, int b,
                        const Eigen::VectorXd& v, double mass_scale, double h, int k, Workspace* w,
                        StepDataContraction* d) {
  const Body& body = scene.bodies[b];
  BodyState& state = w->bodies[b];
  const SpatialTwist& velocity = state.velocity;
  // The rotational terms S_c_rate.ω·I_W ω + S_c.ω·∂(I_W ω)/∂ε_k vanish in a planar scene
  // (Scene::planar: every ω along e_z, so S_c_rate.ω = ω_k e_z × ω_c e_z = 0, ω_k e_z × ω = 0,
  // rate.ω = 0 and (ω_k e_z × I_W ω)·e_z = 0): I_W is not formed there.
  if (!state.object_terms) {
    const Eigen::Isometry3d& X_WB = kinematics.BodyPoses()[b];
    state.object_terms = true;
    state.com = X_WB * body.com;
    state.com_velocity = velocity.PointVelocity(state.com);
    if (!scene.planar) {
      state.inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
      state.angular_momentum = state.inertia_W * velocity.angular;  // I_W ω
    }
  }
  const Eigen::Vector3d& x = state.com;
  const Eigen::Vector3d& com_velocity = state.com_velocity;
  const Eigen::Vector3d& angular_momentum = state.angular_momentum;
  const SpatialTwist& S_k = w->column_twists[k];
  const SpatialTwist& rate = VelocityRate(kinematics, v, b, k, w);
  const Eigen::Vector3d dx = S_k.PointVelocity(x);
  const Eigen::Vector3d com_velocity_rate = rate.PointVelocity(x) + velocity.angular.cross(dx);
  Eigen::Vector3d angular_momentum_rate = Eigen::Vector3d::Zero();
  if (!scene.planar)
    angular_momentum_rate = S_k.angular.cross(angular_momentum) -
                            state.inertia_W * S_k.angular.cross(velocity.angular) +
                            state.inertia_W * rate.angular;
  for (int c : kinematics.ChainColumns(b)) {
    if (c >= scene.nv_u) continue;
    const SpatialTwist& S_c = w->column_twists[c];
    const SpatialTwist S_c_rate =
        kinematics.TwistMovedBy(c, k) ? Bracket(S_k, S_c) : SpatialTwist{};
    const Eigen::Vector3d J_com = S_c.PointVelocity(x);
    const Eigen::Vector3d J_com_rate = S_c_rate.PointVelocity(x) + S_c.angular.cross(dx);
    double momentum_rate =
        body.mass * (J_com_rate.dot(com_velocity) + J_com.dot(com_velocity_rate));
    if (!scene.planar)
      momentum_rate = momentum_rate + S_c_rate.angular.dot(angular_momentum) +
                      S_c.angular.dot(angular_momentum_rate);
    d->d_P_v(c, k) += mass_scale * momentum_rate;
    d->d_tau_h(c, k) += h * body.mass * J_com_rate.dot(scene.gravity);
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

  StepDataDerivativeBuffers::Impl& buffer = *buffers->impl;
  if (buffer.work == nullptr || !buffer.work->SizedFor(static_cast<int>(scene.bodies.size())))
    buffer.work = std::make_unique<Workspace>(static_cast<int>(scene.bodies.size()));
  Workspace& work = *buffer.work;
  work.planar = scene.planar;

  // Zeros, then the entries below: where the last call wrote into the same matrices, only its
  // entries are cleared (WrittenEntries); d_P_v is zeroed whole.
  StepDataContraction& d = *out;
  const bool record = !scene.planar && (nc + r + 2 * nv) * nv > kRecordedEntriesAbove;
  work.record = record;
  if (record && work.written.Matches(d, nc, r, nv)) {
    work.written.Clear(rows_per_contact, &d);
  } else {
    d.d_phi.setZero(nc, nv);
    d.d_Jc_v.setZero(r, nv);
    d.d_JcT_lambda.setZero(nv, nv);
    d.d_tau_h.setZero(nv, nv);
  }
  d.d_P_v.setZero(nv, nv);
  if (record)
    work.written.Start(d);
  else
    work.written.out = nullptr;  // the next call zeroes whole

  // Analytic: τ_h,a = h K_a (u − q_a) and q_a are the robots' (revolute/prismatic) coordinates,
  // whose tangent directions are the coordinates themselves: ∂τ_h,a/∂ε_k = −h K_a e_k.
  // K_a per actuated velocity as Scene::ActuatedStiffness, without its vector.
  const double h = cost_parameters.time_step;
  for (const Joint& joint : scene.joints)
    for (int i = 0; i < JointNv(joint.type); ++i) {
      const int a = joint.v_start + i - scene.nv_u;
      if (a >= 0 && a < scene.nv_a) {
        if (record) work.written.tau_rates.push_back({scene.nv_u + a, scene.nv_u + a});
        d.d_tau_h(scene.nv_u + a, scene.nv_u + a) = -h * joint.stiffness;
      }
    }

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
  // The state at q: the columns' twists, the pairs' point derivatives, the bodies' velocities
  // and wrenches, the contacts' frames and relative velocities.
  kinematics.ColumnTwists(&work.column_twists);
  for (PairContacts& p : pairs)
    if (Outcome outcome = DifferentiatePair(model.geometry(), contacts, kinematics,
                                            model.candidate_distance(), data_step, nv, &work, &p);
        !outcome)
      return outcome;
  for (int b = 0; b < static_cast<int>(work.bodies.size()); ++b) {
    BodyState& state = work.bodies[b];
    state = BodyState{};
    for (int c : kinematics.ChainColumns(b)) {
      state.velocity.angular += work.column_twists[c].angular * v[c];
      state.velocity.linear += work.column_twists[c].linear * v[c];
    }
  }
  work.frames.resize(nc);
  for (int i = 0; i < nc; ++i) {
    const Contact& c = contacts[i];
    ContactFrame& frame = work.frames[i];
    const int row = i * rows_per_contact;
    ContactTangentBasis(scene, c.normal, &frame.t1, &frame.t2);
    frame.force = lambda[row] * c.normal + lambda[row + 1] * frame.t1;
    if (!scene.planar) frame.force += lambda[row + 2] * frame.t2;
    frame.relative_velocity = work.bodies[c.body_a].velocity.PointVelocity(c.p_A) -
                              work.bodies[c.body_b].velocity.PointVelocity(c.p_B);
    work.bodies[c.body_a].torque += c.p_A.cross(frame.force);
    work.bodies[c.body_a].force += frame.force;
    work.bodies[c.body_b].torque -= c.p_B.cross(frame.force);
    work.bodies[c.body_b].force -= frame.force;
  }
  for (int k = 0; k < nv; ++k) {
    const MovedTerms& terms = moved[kinematics.JointOfVelocity(k)];
    if (terms.pairs.empty() && terms.objects.empty()) continue;
    if (scene.planar)
      AddPlanarContactRates(contacts, kinematics, terms, v, lambda, k, &work, &d);
    else
      AddContactRates(scene, contacts, kinematics, terms, v, lambda, k, rows_per_contact, &work,
                      &d);
    for (int b : terms.objects) {
      AddObjectBodyRates(scene, kinematics, b, v, cost_parameters.object_mass_scale, h, k, &work,
                         &d);
      if (record)  // the entries of d_tau_h it wrote
        for (int c : kinematics.ChainColumns(b))
          if (c < scene.nv_u) work.written.tau_rates.push_back({c, k});
    }
  }
  return Outcome::Ok();
}

}  // namespace quasidyn
