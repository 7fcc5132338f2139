#include "quasidyn/contact/contact_set.h"

#include <algorithm>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/contact/friction_cone.h"

namespace quasidyn {

double ContactSet::NormalVelocity(int i, const Eigen::VectorXd& v) const {
  const std::span<const int> columns = Columns(i);
  const double* J_n = Values(i);
  double sum = 0.0;
  for (size_t k = 0; k < columns.size(); ++k) sum += J_n[k] * v[columns[k]];
  return sum;
}

Eigen::RowVectorXd ContactSet::DenseNormalJacobian(int i) const {
  Eigen::RowVectorXd J = Eigen::RowVectorXd::Zero(nv_);
  const std::span<const int> columns = Columns(i);
  const RowMap compact = NormalJacobian(i);
  for (size_t k = 0; k < columns.size(); ++k) J[columns[k]] = compact[static_cast<int>(k)];
  return J;
}

namespace {

Eigen::MatrixXd Scatter(const ContactSet::RowsMap& compact, std::span<const int> columns, int nv) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(compact.rows(), nv);
  for (size_t k = 0; k < columns.size(); ++k) J.col(columns[k]) = compact.col(static_cast<int>(k));
  return J;
}

}  // namespace

Eigen::MatrixXd ContactSet::DenseTangentJacobian(int i) const {
  return Scatter(TangentJacobian(i), Columns(i), nv_);
}

Eigen::MatrixXd ContactSet::DenseRayJacobian(int i) const {
  return Scatter(RayJacobian(i), Columns(i), nv_);
}

Eigen::MatrixXd ContactSet::NormalJacobian() const {
  Eigen::MatrixXd J(size(), nv_);
  for (int i = 0; i < size(); ++i) J.row(i) = DenseNormalJacobian(i);
  return J;
}

Eigen::VectorXd ContactSet::SignedDistances() const {
  Eigen::VectorXd phi(size());
  for (int i = 0; i < size(); ++i) phi[i] = contacts_[i].phi;
  return phi;
}

void UpdateContactSet(const Scene& scene, const Kinematics& kinematics,
                      const std::vector<ContactCandidate>& candidates, ContactSet* set) {
  const int geometry_count = static_cast<int>(scene.geometries.size());
  const int nt = scene.planar ? 1 : 2;
  set->nv_ = scene.nv;
  set->planar_ = scene.planar;
  set->ray_count_ = scene.planar ? 2 : scene.friction_rays;
  const int nd = set->ray_count_;
  const int max_chain = kinematics.MaxChainSize();
  if (set->J_A_.cols() < max_chain) {  // once per set: buffers of the longest chains
    set->J_A_.resize(3, max_chain);
    set->J_B_.resize(3, max_chain);
    set->J_.resize(3, 2 * max_chain);
  }
  set->contacts_.clear();
  set->column_start_.resize(1);
  set->columns_.clear();
  set->value_start_.clear();
  set->values_.clear();
  set->rays_.clear();
  for (const ContactCandidate& candidate : candidates) {
    QUASIDYN_CHECK_ARGUMENT(candidate.geometry_a >= 0 && candidate.geometry_a < geometry_count &&
                                candidate.geometry_b >= 0 && candidate.geometry_b < geometry_count,
                            "UpdateContactSet", "a candidate's geometry index is out of range");
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
    ContactTangentBasis(scene, c.normal, &c.tangent1, &c.tangent2);
    FrictionRays(c.tangent1, c.tangent2, scene.friction_rays, scene.planar, &set->rays_scratch_);
    set->contacts_.push_back(c);
    set->rays_.insert(set->rays_.end(), set->rays_scratch_.data(),
                      set->rays_scratch_.data() + 3 * nd);

    // J_i = J_A(p_A) − J_B(p_B): relative velocity of the witness points. With
    // p_A − p_B = φ n, this gives dφ/dt = nᵀ J_i v exactly for vertex–face and smooth
    // contact (the rotation of n contributes φ nᵀ(ω × n) = 0). On the union of the two
    // bodies' chain columns (the others are zero); a column of one body only is a − 0 or
    // 0 − b, as in the n_v-wide difference.
    const std::vector<int>& chain_a = kinematics.ChainColumns(c.body_a);
    const std::vector<int>& chain_b = kinematics.ChainColumns(c.body_b);
    const auto J_A = set->J_A_.leftCols(static_cast<Eigen::Index>(chain_a.size()));
    const auto J_B = set->J_B_.leftCols(static_cast<Eigen::Index>(chain_b.size()));
    kinematics.ChainPointJacobian(c.body_a, c.p_A, J_A);
    kinematics.ChainPointJacobian(c.body_b, c.p_B, J_B);
    const size_t first_column = set->columns_.size();
    size_t ia = 0, ib = 0;
    while (ia < chain_a.size() || ib < chain_b.size()) {
      const int column_a = ia < chain_a.size() ? chain_a[ia] : scene.nv;
      const int column_b = ib < chain_b.size() ? chain_b[ib] : scene.nv;
      set->columns_.push_back(std::min(column_a, column_b));
      ia += column_a <= column_b;
      ib += column_b <= column_a;
    }
    const int k = static_cast<int>(set->columns_.size() - first_column);
    ia = ib = 0;
    for (int j = 0; j < k; ++j) {
      const int column = set->columns_[first_column + j];
      const bool in_a = ia < chain_a.size() && chain_a[ia] == column;
      const bool in_b = ib < chain_b.size() && chain_b[ib] == column;
      const Eigen::Vector3d J_Aj = in_a ? Eigen::Vector3d(J_A.col(ia++)) : Eigen::Vector3d::Zero();
      const Eigen::Vector3d J_Bj = in_b ? Eigen::Vector3d(J_B.col(ib++)) : Eigen::Vector3d::Zero();
      set->J_.col(j) = J_Aj - J_Bj;
    }
    set->column_start_.push_back(static_cast<int>(set->columns_.size()));
    // J_n = nᵀJ, J_t = [t1ᵀ; t2ᵀ] J, J_d = Dᵀ J, each entry ((x₀J₀ + x₁J₁) + x₂J₂) as in the
    // n_v-wide products.
    const int value_start = static_cast<int>(set->values_.size());
    set->value_start_.push_back(value_start);
    set->values_.resize(value_start + (1 + nt + nd) * k);
    double* values = set->values_.data() + value_start;
    const auto project = [&](const Eigen::Vector3d& x, double* row) {
      for (int j = 0; j < k; ++j)
        row[j] = (x[0] * set->J_(0, j) + x[1] * set->J_(1, j)) + x[2] * set->J_(2, j);
    };
    project(c.normal, values);
    project(c.tangent1, values + k);
    if (nt == 2) project(c.tangent2, values + 2 * k);
    for (int r = 0; r < nd; ++r) project(set->rays_scratch_.col(r), values + (1 + nt + r) * k);
  }
}

}  // namespace quasidyn
