#pragma once
// Lemke's method (solvers/lemke.h) on the contact LCPs solved once per time step (the
// halm-posa LCP, halm_posa_lcp.h; the quasistatic and Stewart–Trinkle LCP, quasistatic_lcp.h),
// with the two things every such sequence wants:
//
// * a warm start: when the contacts are those of the previous solve (the same geometry pairs in
//   the same order), the previous answer's complementary basis
//   (LcpResult::z_basic: Lemke's final basis, regular even where the answer is degenerate, e.g.
//   redundant contacts of a box flat on the ground with loads that are not unique) is tried first
//   (solvers/ lcp_basis_guess.h), and Lemke's method runs only when that guess fails. Contacts that
//   keep their mode (sticking, sliding, separating) from one step to the next then cost one LU of
//   the basis instead of Lemke's pivots;
// * rescaled retries: a degenerate LCP can end on a false ray or a rejected pair; Lemke then
//   runs again on LCP(M, s q) for s = 10³ and 10⁻³ (whose solution is s z) and fails only when
//   every scale does (the pivots of every run are summed). Lemke's tests are relative to the
//   data (it normalises M and q by powers of two), so a retry sees data within a factor 2 of
//   the first run's and rarely changes the outcome; they were absolute below 1 when it was added.
//   A ray (kInfeasible) is not retried: its pivots are the same at every scale of q (a fuzzed
//   infeasible step of n = 396 took the same 21,534 pivots three times).

#include <utility>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/solvers/lcp_basis_guess.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/solvers/sized_storage_pool.h"

namespace quasidyn {

class ContactLcpSolver {
 public:
  explicit ContactLcpSolver(const LemkeSettings& settings = {}) : settings_(settings) {}

  // The guess, else Lemke with retries, on `problem` (built from `contacts`); remembers the
  // answer's basis for the next call. *warm_started (may be null) tells whether the guess gave
  // the answer (0 pivots). The result stays valid until the next call.
  const LcpResult& Solve(const ContactSet& contacts, const LcpView& problem, bool* warm_started);

  // The pieces of Solve, for a caller with its own fallbacks (halm-posa's kept penetrations):
  // the guess (true with *result when it solves `problem`), Lemke with the retries, and the
  // basis to remember (a failed result forgets the previous one).
  bool TryWarmStart(const ContactSet& contacts, const LcpView& problem, const LcpResult** result);
  const LcpResult& SolveWithRetries(const LcpView& problem);
  void Remember(const ContactSet& contacts, const LcpResult& result);

  // Forgets the previous solution (the next solve is a function of its problem alone).
  void ClearWarmStart() { has_previous_ = false; }

 private:
  // Sets Lemke and the guess up for LCPs of size n, both at once, so that a step whose first
  // call to either comes after the other's at the same size does not allocate.
  void Resize(int n);

  LemkeSettings settings_;
  int size_ = -1;  // the LCP size Lemke and the guess are set up for
  LemkeSolver lemke_;
  Eigen::VectorXd rescaled_q_;  // q scaled for a retry (failures only)
  LcpResult answer_;            // Lemke's answer (unscaled), with the pivots of every run
  LcpBasisGuess guess_;
  LcpResult guess_result_;
  SizedStoragePool results_storage_;  // the results' vectors for other sizes
  bool has_previous_ = false;
  std::vector<std::pair<int, int>> previous_pairs_;  // geometry pairs, contact order
  std::vector<char> previous_basic_;                 // z_i basic in the previous solution
};

}  // namespace quasidyn
