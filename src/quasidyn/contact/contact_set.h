#pragma once
// The contact set of one configuration: every candidate with φ_i <= ε, with what the
// time-stepping formulations need (Pang & Tedrake 2021, §III-B, notation of eq. (1)):
// φ_i, the normal n_i, the tangent basis, the n_d friction-pyramid rays d_ij, the normal
// Jacobian J_n,i = n_iᵀ J_i (1 × n_v), the tangent Jacobian J_t,i (n_t × n_v), the ray
// Jacobian J_d,i = D_iᵀ J_i (n_d × n_v) and μ_i. J_i = J_A(p_A) − J_B(p_B) is the
// Jacobian of the velocity of A's contact point relative to B's (3 × n_v): both bodies
// of a pair may move.

#include <vector>

#include <Eigen/Core>

#include "quasidyn/geometry/geometry_query.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

struct Contact {
  int geometry_a = -1, geometry_b = -1;   // indices into Scene::geometries
  int body_a = -1, body_b = -1;           // indices into Scene::bodies
  double phi = 0.0;                       // signed distance [m]
  Eigen::Vector3d p_A, p_B;               // witness points in world [m]
  Eigen::Vector3d normal;                 // unit, world, from B to A
  Eigen::Vector3d tangent1, tangent2;     // (t1, t2, n) orthonormal; planar: t2 = ẑ unused
  Eigen::Matrix3Xd rays;                  // 3 × n_d friction-pyramid directions d_ij
  double friction = 0.0;                  // μ_i [-]
  Eigen::RowVectorXd J_n;                 // 1 × n_v
  Eigen::MatrixXd J_t;                    // n_t × n_v (n_t = 2 in 3D, 1 planar)
  Eigen::MatrixXd J_d;                    // n_d × n_v
};

struct ContactSet {
  int nv = 0;
  std::vector<Contact> contacts;

  int size() const { return static_cast<int>(contacts.size()); }
  // Rows J_n,i stacked: n_c × n_v.
  Eigen::MatrixXd NormalJacobian() const;
  // φ_i stacked: n_c.
  Eigen::VectorXd SignedDistances() const;
};

// Assembles the contact set from geometry candidates at the configuration the
// kinematics was last updated to. n_d and the planar flag come from the scene.
ContactSet BuildContactSet(const Scene& scene, const Kinematics& kinematics,
                           const std::vector<ContactCandidate>& candidates);

// Kinematics.Update(q) → GeometryQuery.Query(ε) → BuildContactSet, the usual sequence.
class ContactEngine {
 public:
  explicit ContactEngine(const Scene& scene);
  // Updates the kinematics to q (size nq) and returns the contact set for φ <= ε.
  const ContactSet& Compute(const Eigen::VectorXd& q);
  const Kinematics& kinematics() const { return kinematics_; }
  const GeometryQuery& geometry() const { return geometry_; }

 private:
  const Scene& scene_;
  Kinematics kinematics_;
  GeometryQuery geometry_;
  ContactSet contacts_;
};

}  // namespace quasidyn
