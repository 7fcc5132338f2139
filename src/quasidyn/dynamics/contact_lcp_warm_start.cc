#include "quasidyn/dynamics/contact_lcp_warm_start.h"

#include <algorithm>

namespace quasidyn {

bool ContactLcpWarmStart::Try(const ContactSet& contacts, const LcpProblem& problem,
                              double residual_tolerance, LcpResult* result) {
  const int n = static_cast<int>(problem.q.size());
  const int nc = contacts.size();
  bool same_contacts = has_previous_ && static_cast<int>(previous_pairs_.size()) == nc &&
                       static_cast<int>(previous_basic_.size()) == n;
  for (int i = 0; same_contacts && i < nc; ++i) {
    same_contacts =
        previous_pairs_[i] == std::make_pair(contacts[i].geometry_a, contacts[i].geometry_b);
  }
  if (!same_contacts || n == 0) return false;
  if (guess_size_ != n) {
    guess_.Setup(n, residual_tolerance);
    guess_size_ = n;
  }
  return guess_.Solve(problem, previous_basic_, result);
}

void ContactLcpWarmStart::Remember(const ContactSet& contacts, const LcpResult& result) {
  has_previous_ = Succeeded(result.status);
  if (!has_previous_) return;
  const int nc = contacts.size();
  const int n = static_cast<int>(result.z.size());
  previous_pairs_.resize(nc);
  for (int i = 0; i < nc; ++i)
    previous_pairs_[i] = {contacts[i].geometry_a, contacts[i].geometry_b};
  previous_basic_.resize(n);
  for (int i = 0; i < n; ++i) previous_basic_[i] = result.z[i] > std::max(result.w[i], 0.0);
}

}  // namespace quasidyn
