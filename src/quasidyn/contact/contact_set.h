#pragma once
// The contact set of one configuration: every candidate with φ_i <= ε, with what the
// time-stepping formulations need (Pang & Tedrake 2021, §III-B, notation of eq. (1)):
// φ_i, the normal n_i, the tangent basis, the n_d friction-pyramid rays d_ij, the normal
// Jacobian J_n,i = n_iᵀ J_i, the tangent Jacobian J_t,i (n_t rows), the ray Jacobian
// J_d,i = D_iᵀ J_i (n_d rows) and μ_i. J_i = J_A(p_A) − J_B(p_B) is the Jacobian of the
// velocity of A's contact point relative to B's (3 × n_v): both bodies of a pair may move.
//
// Sparse storage: J_i is non-zero only in the velocity columns of the joints that move body A
// or body B (Kinematics::ChainColumns), at most the two bodies' chains, so each contact keeps
// its Jacobians on those k_i columns only ("compact" rows of length k_i, Columns(i)), the way
// the problem matrices of the solvers want them (solvers/sparse_row_matrix.h). A contact set
// is rebuilt in place every step (UpdateContactSet): its storage is kept, so once it has held
// as many contacts and Jacobian entries as a step needs, a rebuild does not allocate.

#include <Eigen/Core>
#include <span>
#include <vector>

#include "quasidyn/common/all_finite.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

struct Contact {
  int geometry_a = -1, geometry_b = -1;           // indices into Scene::geometries
  int body_a = -1, body_b = -1;                   // indices into Scene::bodies
  double phi = 0.0;                               // signed distance [m]
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();  // witness points in world [m]
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, world, from B to A
  // (t1, t2, n) orthonormal; planar: t2 = ẑ unused.
  Eigen::Vector3d tangent1 = Eigen::Vector3d::UnitX(), tangent2 = Eigen::Vector3d::UnitY();
  double friction = 0.0;  // μ_i [-]
};

class ContactSet {
 public:
  using RowMap = Eigen::Map<const Eigen::RowVectorXd>;
  using RowsMap =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
  using RaysMap = Eigen::Map<const Eigen::Matrix3Xd>;

  int size() const { return static_cast<int>(contacts_.size()); }
  bool empty() const { return contacts_.empty(); }
  int nv() const { return nv_; }
  bool planar() const { return planar_; }
  int tangent_count() const { return planar_ ? 1 : 2; }  // n_t: rows of J_t,i
  int ray_count() const { return ray_count_; }           // n_d: rows of J_d,i (2 planar)

  const Contact& operator[](int i) const { return contacts_[i]; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  auto begin() const { return contacts_.begin(); }
  auto end() const { return contacts_.end(); }

  // The velocity columns of contact i's Jacobians (increasing) and its rows on them.
  std::span<const int> Columns(int i) const {
    return {columns_.data() + column_start_[i],
            static_cast<size_t>(column_start_[i + 1] - column_start_[i])};
  }
  RowMap NormalJacobian(int i) const { return RowMap(Values(i), ColumnCount(i)); }  // 1 × k_i
  RowsMap TangentJacobian(int i) const {                                            // n_t × k_i
    return RowsMap(Values(i) + ColumnCount(i), tangent_count(), ColumnCount(i));
  }
  RowsMap RayJacobian(int i) const {  // n_d × k_i
    return RowsMap(Values(i) + (1 + tangent_count()) * ColumnCount(i), ray_count_, ColumnCount(i));
  }
  // The 3 × n_d friction-pyramid directions d_ij (unit, world, in the tangent plane).
  RaysMap Rays(int i) const { return RaysMap(rays_.data() + 3 * ray_count_ * i, 3, ray_count_); }

  // Whether every contact's J_n, J_t and J_d is finite: one pass over their storage.
  bool JacobiansFinite() const {
    return AllFinite(values_.data(), static_cast<std::ptrdiff_t>(values_.size()));
  }

  // J_n,i v (v of size n_v), summed over the contact's columns.
  double NormalVelocity(int i, const Eigen::VectorXd& v) const;

  // Dense n_v-wide forms (allocate; for tests, reference computations and reports):
  Eigen::RowVectorXd DenseNormalJacobian(int i) const;  // 1 × n_v
  Eigen::MatrixXd DenseTangentJacobian(int i) const;    // n_t × n_v
  Eigen::MatrixXd DenseRayJacobian(int i) const;        // n_d × n_v
  Eigen::MatrixXd NormalJacobian() const;               // rows J_n,i stacked: n_c × n_v
  Eigen::VectorXd SignedDistances() const;              // φ_i stacked: n_c

 private:
  friend void UpdateContactSet(const Scene&, const Kinematics&,
                               const std::vector<ContactCandidate>&, ContactSet*);
  int ColumnCount(int i) const { return column_start_[i + 1] - column_start_[i]; }
  const double* Values(int i) const { return values_.data() + value_start_[i]; }

  int nv_ = 0;
  bool planar_ = false;
  int ray_count_ = 0;
  std::vector<Contact> contacts_;
  std::vector<int> column_start_{0};  // contact i: columns_[column_start_[i] … column_start_[i+1])
  std::vector<int> columns_;
  // Contact i: (1 + n_t + n_d) rows of k_i values (J_n, J_t, J_d), row-major, from
  // values_[value_start_[i]].
  std::vector<int> value_start_;
  std::vector<double> values_;
  std::vector<double> rays_;  // 3 × n_d per contact, column-major
  // Scratch of the rebuild: the two bodies' chain Jacobians, J_i on the contact's columns and
  // the rays.
  Eigen::Matrix3Xd J_A_, J_B_, J_, rays_scratch_;
};

// Rebuilds `contacts` from the geometry candidates at the configuration `kinematics` was last
// updated to; n_d and the planar flag come from the scene. No heap allocation once the set's
// storage has grown to the step's size. Throws std::invalid_argument for a candidate whose
// geometry index is out of range.
void UpdateContactSet(const Scene& scene, const Kinematics& kinematics,
                      const std::vector<ContactCandidate>& candidates, ContactSet* contacts);

}  // namespace quasidyn
