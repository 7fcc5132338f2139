#include "quasidyn/formulations/programs/friction_cone_socp_warm_start.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/formulations/warm_start_row_key.h"

namespace quasidyn {

namespace {

// Row r of a sparse matrix times x.
double RowTimes(const SparseRowMatrix& matrix, int r, const Eigen::VectorXd& x) {
  double sum = 0.0;
  for (int e = matrix.row_start(r); e < matrix.row_start(r + 1); ++e)
    sum += matrix.value(e) * x[matrix.column(e)];
  return sum;
}

}  // namespace

// Rows in the order of BuildFrictionConeSocp: the linear rows (a frictionless contact's one, a
// planar contact's two, in contact order; then the joint limits), then one cone per 3D contact
// with friction, in contact order. The occurrence counts the contacts of the same geometry pair
// just before (the contact set lists a pair's manifold points together).
bool FrictionConeSocpWarmStart::KeysOf(const StepProblem& problem, std::vector<RowKey>* keys) {
  const ContactSet& contacts = problem.contacts;
  const int nt = contacts.tangent_count();
  keys->clear();
  occurrence_.resize(contacts.size());
  for (int i = 0; i < contacts.size(); ++i) {
    const bool same_pair = i > 0 && contacts[i - 1].geometry_a == contacts[i].geometry_a &&
                           contacts[i - 1].geometry_b == contacts[i].geometry_b;
    occurrence_[i] = same_pair ? occurrence_[i - 1] + 1 : 0;
  }
  RowKey key = 0;
  const auto add = [&](const Contact& c, int i, int component) {
    if (!PackWarmStartRowKey(c.geometry_a, c.geometry_b, occurrence_[i], component, &key))
      return false;
    keys->push_back(key);
    return true;
  };
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (!(c.friction > 0)) {
      if (!add(c, i, 0)) return false;
    } else if (nt == 1) {
      if (!add(c, i, 0) || !add(c, i, 1)) return false;
    }
  }
  for (const JointLimitRow& row : problem.cost.limits.rows) {
    if (!PackWarmStartRowKey(-1, row.joint, row.direction > 0 ? 0 : 1, 0, &key)) return false;
    keys->push_back(key);
  }
  if (nt == 1) return true;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (!(c.friction > 0)) continue;
    for (int component = 0; component <= nt; ++component)
      if (!add(c, i, component)) return false;
  }
  return true;
}

void FrictionConeSocpWarmStart::Remember(const StepProblem& problem, const SocpResult& result) {
  const Eigen::Index linear = result.linear_duals.size();
  if (!KeysOf(problem, &keys_) ||
      static_cast<Eigen::Index>(keys_.size()) != linear + result.cone_duals.size()) {
    has_previous_ = false;  // not the rows of this problem: nothing to start from
    return;
  }
  previous_x_ = result.x;
  storage_.Resize(&previous_z_, static_cast<Eigen::Index>(keys_.size()));
  previous_z_.head(linear) = result.linear_duals;
  previous_z_.tail(result.cone_duals.size()) = result.cone_duals;
  previous_rows_.Remember(&keys_);
  has_previous_ = true;
}

bool FrictionConeSocpWarmStart::Start(const StepProblem& problem, const SocpProblem& socp,
                                      SocpWarmStart* start) {
  mapped_rows_ = 0;
  const Eigen::Index rows = socp.G.rows() + socp.A.rows();
  if (!has_previous_ || previous_x_.size() != socp.Q.rows()) return false;
  if (!KeysOf(problem, &keys_) || static_cast<Eigen::Index>(keys_.size()) != rows) return false;
  start->x = previous_x_;  // same size: the storage is kept
  storage_.Resize(&start->z, rows);
  if (previous_rows_.SameAs(keys_)) {  // the same rows in the same order
    start->z = previous_z_;
    mapped_rows_ = static_cast<int>(rows);
    return true;
  }
  const int linear = static_cast<int>(socp.G.rows());
  for (int r = 0; r < static_cast<int>(rows); ++r) {
    const int previous = previous_rows_.Find(keys_[r]);
    if (previous >= 0) {
      start->z[r] = previous_z_[previous];
      ++mapped_rows_;
    } else if (r < linear) {  // a new linear row: z = 1/max(|G_i x − h_i|, 1)
      start->z[r] = 1.0 / std::max(std::abs(RowTimes(socp.G, r, start->x) - socp.h[r]), 1.0);
    } else {
      start->z[r] = std::numeric_limits<double>::quiet_NaN();  // a new cone's entry: below
    }
  }
  // A new cone (all its entries unmapped, as a contact's rows come and go together):
  // z_k = e / max(|t_k|, 1).
  for (size_t k = 0, o = 0; k < socp.cone_dims.size(); o += socp.cone_dims[k++]) {
    const int row = linear + static_cast<int>(o);
    if (!std::isnan(start->z[row])) continue;
    const double t = RowTimes(socp.A, static_cast<int>(o), start->x) + socp.b[o];
    start->z.segment(row, socp.cone_dims[k]).setZero();
    start->z[row] = 1.0 / std::max(std::abs(t), 1.0);
  }
  return true;
}

}  // namespace quasidyn
