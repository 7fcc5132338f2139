#include "quasidyn/dynamics/contact_lcp_solver.h"

#include <algorithm>
#include <chrono>

namespace quasidyn {

const LcpResult& ContactLcpSolver::Solve(const ContactSet& contacts, const LcpView& problem,
                                         bool* warm_started) {
  const auto start_time = std::chrono::steady_clock::now();
  const LcpResult* result = nullptr;
  const bool warm = TryWarmStart(contacts, problem, &result);
  if (warm_started != nullptr) *warm_started = warm;
  if (!warm) {
    SolveWithRetries(problem);
    // The step's solve time includes a guess that failed before Lemke ran.
    answer_.info.solve_time_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    result = &answer_;
  }
  Remember(contacts, *result);
  return *result;
}

bool ContactLcpSolver::TryWarmStart(const ContactSet& contacts, const LcpView& problem,
                                    const LcpResult** result) {
  const int n = static_cast<int>(problem.q.size());
  const int nc = contacts.size();
  bool same_contacts = has_previous_ && static_cast<int>(previous_pairs_.size()) == nc &&
                       static_cast<int>(previous_basic_.size()) == n;
  for (int i = 0; same_contacts && i < nc; ++i) {
    same_contacts =
        previous_pairs_[i] == std::make_pair(contacts[i].geometry_a, contacts[i].geometry_b);
  }
  if (!same_contacts || n == 0) return false;
  Resize(n);
  if (!guess_.Solve(problem, previous_basic_, &guess_result_)) return false;
  *result = &guess_result_;
  return true;
}

const LcpResult& ContactLcpSolver::SolveWithRetries(const LcpView& problem) {
  Resize(static_cast<int>(problem.q.size()));
  answer_ = lemke_.Solve(problem);
  int pivots = answer_.info.pivots;
  double seconds = answer_.info.solve_time_seconds;
  for (const double scale : {1e3, 1e-3}) {
    // A ray (kInfeasible) ends the same pivots at every scale of q: the ratio test's ratios all
    // scale alike and the ray test reads the pivot column alone.
    if (Succeeded(answer_.status) || answer_.status == SolverStatus::kInfeasible) break;
    rescaled_q_ = scale * problem.q;  // sized by Resize
    const LcpResult& retry = lemke_.Solve(LcpView(problem.M, rescaled_q_));
    pivots += retry.info.pivots;
    seconds += retry.info.solve_time_seconds;
    if (Succeeded(retry.status)) {
      answer_ = retry;
      answer_.z /= scale;
      answer_.w /= scale;
      answer_.info.residual /= scale;
      answer_.info.sign_violation /= scale;
      answer_.info.complementarity /= scale * scale;
    }
  }
  answer_.info.pivots = pivots;
  answer_.info.solve_time_seconds = seconds;
  return answer_;
}

void ContactLcpSolver::Resize(int n) {
  if (size_ == n) return;
  lemke_.Setup(n, settings_);
  guess_.Setup(n, settings_.residual_tolerance);
  for (LcpResult* result : {&answer_, &guess_result_}) {
    results_storage_.Resize(&result->z, n);
    results_storage_.Resize(&result->w, n);
    result->z_basic.resize(n);
  }
  results_storage_.Resize(&rescaled_q_, n);
  size_ = n;
}

void ContactLcpSolver::Remember(const ContactSet& contacts, const LcpResult& result) {
  has_previous_ = Succeeded(result.status);
  if (!has_previous_) return;
  const int nc = contacts.size();
  const int n = static_cast<int>(result.z.size());
  previous_pairs_.resize(nc);
  for (int i = 0; i < nc; ++i)
    previous_pairs_[i] = {contacts[i].geometry_a, contacts[i].geometry_b};
  previous_basic_.resize(n);
  if (static_cast<int>(result.z_basic.size()) == n) {  // the answer's own basis (lemke.h)
    for (int i = 0; i < n; ++i) previous_basic_[i] = result.z_basic[i];
  } else {
    for (int i = 0; i < n; ++i) previous_basic_[i] = result.z[i] > std::max(result.w[i], 0.0);
  }
}

}  // namespace quasidyn
