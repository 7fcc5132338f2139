#include "quasidyn/formulations/programs/pyramid_qp_warm_start.h"

#include <algorithm>
#include <cmath>

#include "quasidyn/formulations/warm_start_row_key.h"

namespace quasidyn {

// Rows in the order of BuildPyramidConstraints: contact-major, ray j within a contact, then the
// joint-limit rows. The occurrence counts the contacts of the same geometry pair just before
// (the contact set lists a pair's manifold points together).
bool PyramidQpWarmStart::KeysOf(const StepProblem& problem, std::vector<RowKey>* keys) {
  const ContactSet& contacts = problem.contacts;
  keys->clear();
  int occurrence = 0;
  RowKey key = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const bool same_pair = i > 0 && contacts[i - 1].geometry_a == c.geometry_a &&
                           contacts[i - 1].geometry_b == c.geometry_b;
    occurrence = same_pair ? occurrence + 1 : 0;
    for (int j = 0; j < contacts.ray_count(); ++j) {
      if (!PackWarmStartRowKey(c.geometry_a, c.geometry_b, occurrence, j, &key)) return false;
      keys->push_back(key);
    }
  }
  for (const JointLimitRow& row : problem.cost.limits.rows) {
    if (!PackWarmStartRowKey(-1, row.joint, row.direction > 0 ? 0 : 1, 0, &key)) return false;
    keys->push_back(key);
  }
  return true;
}

void PyramidQpWarmStart::Remember(const StepProblem& problem, const QpResult& result) {
  // The keys of the last Start when it was given this problem (SolvePyramidQp's order: Start,
  // solve, Remember of one unchanged problem); formed here otherwise.
  const bool keys_of_start = keys_problem_ == &problem;
  keys_problem_ = nullptr;
  if ((!keys_of_start && !KeysOf(problem, &keys_)) ||
      static_cast<Eigen::Index>(keys_.size()) != result.z.size()) {
    has_previous_ = false;  // not the rows of this problem: nothing to start from
    return;
  }
  previous_x_ = result.x;
  storage_.Resize(&previous_z_, result.z.size());
  previous_z_ = result.z;
  previous_rows_.Remember(&keys_);
  has_previous_ = true;
}

bool PyramidQpWarmStart::Start(const StepProblem& problem, const QpProblem& qp,
                               QpWarmStart* start) {
  mapped_rows_ = 0;
  keys_problem_ = nullptr;
  if (!has_previous_ || previous_x_.size() != qp.Q.rows()) return false;
  if (!KeysOf(problem, &keys_)) return false;
  keys_problem_ = &problem;  // keys_ are this problem's rows, for its Remember
  if (static_cast<Eigen::Index>(keys_.size()) != qp.G.rows()) return false;
  start->y.resize(0);
  start->x = previous_x_;  // same size: the storage is kept
  storage_.Resize(&Gx_, qp.G.rows());
  bool have_Gx = false;  // G x₀ only for a new row's guess (none while the contacts stay)
  storage_.Resize(&start->z, qp.G.rows());
  if (previous_rows_.SameAs(keys_)) {  // the same rows in the same order
    start->z = previous_z_;
    mapped_rows_ = static_cast<int>(keys_.size());
    return true;
  }
  for (size_t r = 0; r < keys_.size(); ++r) {
    const int previous = previous_rows_.Find(keys_[r]);
    if (previous >= 0) {
      start->z[r] = previous_z_[previous];
      ++mapped_rows_;
    } else {  // a new row: the cold start's z = 1/s, s = max(|G_i x − h_i|, 1) (solvers/qp.h)
      if (!have_Gx) qp.G.Multiply(start->x, &Gx_);
      have_Gx = true;
      start->z[r] = 1.0 / std::max(std::abs(Gx_[r] - qp.h[r]), 1.0);
    }
  }
  return true;
}

}  // namespace quasidyn
