#pragma once
// The warm start of a contact LCP solved once per time step (the halm-posa LCP, halm_posa_lcp.h;
// the Stewart–Trinkle LCP, quasistatic_lcp.h): when the contacts are those of the previous solve
// (the same geometry pairs in the same order), the previous solution's basic set
// {i : z_i > max(w_i, 0)} is tried first (solvers/lcp_basis_guess.h); Lemke's method runs only
// when that guess fails. Contacts that keep their mode (sticking, sliding, separating) from one
// step to the next then cost one LU of the basis instead of Lemke's pivots.

#include <utility>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/solvers/lcp_basis_guess.h"
#include "quasidyn/solvers/lemke.h"

namespace quasidyn {

class ContactLcpWarmStart {
 public:
  // Tries the previous basis on `problem` (built from `contacts`); true with the answer in
  // *result (0 pivots) when it solves it to residual_tolerance (LemkeSettings' meaning).
  bool Try(const ContactSet& contacts, const LcpProblem& problem, double residual_tolerance,
           LcpResult* result);
  // Remembers the contacts and the basis of `result` when it succeeded, forgets them otherwise.
  void Remember(const ContactSet& contacts, const LcpResult& result);
  // Forgets the previous solution (the next solve is a function of its problem alone).
  void Clear() { has_previous_ = false; }

 private:
  LcpBasisGuess guess_;
  int guess_size_ = -1;
  bool has_previous_ = false;
  std::vector<std::pair<int, int>> previous_pairs_;  // geometry pairs, contact order
  std::vector<char> previous_basic_;                 // z_i basic in the previous solution
};

}  // namespace quasidyn
