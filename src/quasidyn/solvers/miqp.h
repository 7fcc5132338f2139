#pragma once
// Convex mixed-integer quadratic program with binary variables, solved by branch and bound on
// the interior-point QP of qp.h:
//
//   minimise   f(x) = ½ xᵀ Q x + cᵀ x + f₀
//   subject to G x >= h,   A x = b,   x_j ∈ {0, 1} for j ∈ B (the binaries).
//
// The MPC through contact of control/contact_mpc.h is one (big-M complementarity, eq. (11) of
// the 2D frictional contact notes); the solver itself knows nothing of contact.
//
// Method (Land & Doig 1960; Dakin 1965; node selection and branching as in Achterberg,
// "Constraint Integer Programming", PhD thesis TU Berlin 2007, ch. 5–6):
//
// * Node relaxation. A node fixes some binaries to 0 or 1 (F); its relaxation is the QP with
//   0 <= x_j <= 1 for the free binaries (two rows of G added by the solver) and x_j = v_j for
//   j ∈ F. A fixed variable is substituted: its column in G and A moves to the right-hand side,
//   its row and column of Q to c, and it becomes the decoupled ½x_j² − v_j x_j; so every node's
//   QP has the sparsity pattern of the root's and one QpSolver workspace (one symbolic
//   factorisation) serves the whole tree through UpdateValues.
// * Node presolve. After the substitution, a row of G with one free variable left is a bound on
//   it, a row of A with one left fixes it; a variable whose bounds meet (within the QP's
//   absolute tolerance) is substituted too, and so on until nothing changes; crossing bounds
//   or a violated constant row make the node infeasible without a QP. This matters for big-M
//   complementarity: fixing z = 0 in 0 <= γ <= M z leaves γ >= 0 and γ <= 0, a feasible set
//   without interior on which the interior point stalls; substituted, γ = 0 is gone. The
//   incumbent's multipliers of those rows are rebuilt from the stationarity residual.
// * Node bound. From the relaxation's answer (x, z, y) the Lagrangian
//     L = f(x̂) − zᵀ(G x̂ − h) − yᵀ(A x̂ − b)   (x̂: x with the fixed binaries exactly at v_j)
//   is the dual function's value up to the QP's dual residual, so a lower bound on every
//   integer point below the node. The global lower bound L_glob is the smallest bound of the
//   open nodes (and of the nodes pruned by bound, which the gap tolerance lets lie below U).
// * Gap. With U the incumbent's objective: gap = U − L_glob (absolute) and
//   relative_gap = gap / max(1, |U|) (f₀ included in U: a constant of the objective, e.g. an
//   MPC's cost of x_0, changes the relative gap's scale and nothing else).
// * Pruning. A node is discarded when its relaxation is infeasible, or when its bound
//     L >= U − max(absolute_gap_tolerance, relative_gap_tolerance · max(1, |U|)),
//   i.e. nothing below it can improve U by more than the tolerance. The run is optimal when no
//   node is left open; then gap <= that tolerance.
// * Node selection. Best bound (the open node of smallest L, deeper first on ties), and from
//   it a depth-first dive: after branching, the child in the direction of rounding is solved
//   next and its sibling goes to the open list, until the dive is pruned or reaches an integer
//   point. Dives find incumbents early; best bound closes the gap.
// * Branching on a free binary j with fractional x_j (distance to 0: f⁻ = x_j, to 1:
//   f⁺ = 1 − x_j, both > integrality_tolerance). Binaries that neither value can satisfy alone
//   (a row of G fails at x for both) are preferred: the others the rounding heuristic settles
//   (for big-M complementarity: a pair already complementary at x). Among the candidates:
//   - most fractional: the largest min(f⁻, f⁺);
//   - pseudo-cost (Bénichou et al. 1971): ψ_j^± = the mean over earlier branchings on j of
//     (L_child − L_parent) / f^± (unknown ψ: the mean of the known ones, else 1), score
//     max(ψ⁻ f⁻, ε) · max(ψ⁺ f⁺, ε) with ε = 1e-6 (Achterberg's product rule); the largest wins.
// * Reliability branching (a setting, off by default; Achterberg, Koch & Martin, "Branching
//   rules revisited", Oper. Res. Lett. 33, 2005): with pseudo-costs, a candidate whose
//   pseudo-costs rest on too few branchings is strong-branched (both children's relaxations
//   solved) before the choice; the measured gains seed its pseudo-costs, and a child that the
//   gain already prunes is never opened (MiqpSettings::strong_branching_*).
// * Rounding heuristic. At a node whose relaxation is fractional, the binaries are rounded
//   one by one (most decided first), each to the nearest value unless that breaks a row of
//   G x >= h (at the relaxation's continuous values and the binaries rounded so far) that the
//   other value keeps; when every binary is rounded, the QP with all binaries fixed gives a
//   candidate incumbent. For big-M complementarity (c <= M z, φ <= M (1 − z)) this picks the
//   side that the relaxation already satisfies.
// * Presolve (bound propagation, once): the rows of G with one non-zero are bounds on their
//   variable; a binary value v for which some row's largest activity over these bounds falls
//   below h_i is impossible, so the binary is fixed to 1 − v (both impossible: infeasible).
//   Repeated until nothing changes.
// * Warm start (a setting, off by default): a child's QP starts from its parent's (x, z, y).
//
// Use: Setup(problem, settings) validates and sizes everything (may allocate; keeps the QP's
// symbolic analysis when the pattern is that of an earlier Setup); Solve() runs the tree. The
// tree allocates its nodes (one byte per binary each); the QP workspace is reused. The problem,
// settings, statistics and result are in miqp_problem.h; this header is the solver and its
// workspace, internal to the library (not installed: cmake/PublicHeaders.cmake).

#include <Eigen/Core>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "quasidyn/solvers/miqp_problem.h"
#include "quasidyn/solvers/qp.h"

namespace quasidyn {

class MiqpSolver {
 public:
  // Validates the problem and settings (std::invalid_argument naming the field) and builds the
  // node QP (the binaries' bound rows, a diagonal entry of Q per binary).
  void Setup(const MiqpProblem& problem, const MiqpSettings& settings = {});
  // Runs branch and bound; never throws for an infeasible or ill-posed problem. Each guess (one
  // entry 0 or 1 per binary; the problem's fixed entries override it) is tried first as an
  // incumbent, one QP each: e.g. an MPC's previous solution shifted by one step, so that the
  // tree starts with a good upper bound (std::invalid_argument for a wrong size or value).
  // `pseudo_costs` (optional) seeds the pseudo-costs, which otherwise start unknown: e.g. an
  // MPC's previous solve's, shifted by one step, so that reliability branching need not
  // strong-branch on binaries the previous tree already measured (std::invalid_argument unless
  // every vector has one entry per binary, sums finite and >= 0, counts >= 0).
  const MiqpResult& Solve(const std::vector<std::vector<signed char>>& guesses = {},
                          const MiqpPseudoCosts* pseudo_costs = nullptr);
  const MiqpResult& result() const { return result_; }
  // The pseudo-costs at the end of the last Solve (seed included).
  const MiqpPseudoCosts& pseudo_costs() const { return pseudo_; }

 private:
  struct Node;
  void BuildColumnLists();
  bool Presolve(std::vector<signed char>* fixing);
  // The node QP's values for `fixing` and the node presolve (header); false when the node is
  // infeasible (a row without free variables violated, bounds that cross).
  bool ApplyFixing(const std::vector<signed char>& fixing);
  // Fixes variable j at v in node_ (value_[j] = v): its column to the right-hand sides, its row
  // and column of Q to c, and ½x_j² − v x_j in their place.
  void Substitute(int j, double v);
  // Sets the free binaries of `fixing` that the last node presolve pinned.
  void AddImpliedBinaries(std::vector<signed char>* fixing) const;
  struct Relaxation {
    SolverStatus status = SolverStatus::kNotRun;
    double bound = 0;      // L
    double objective = 0;  // f(x̂)
  };
  Relaxation SolveRelaxation(const std::vector<signed char>& fixing, const QpWarmStart& warm);
  // The free binary to branch on at x (position among the binaries), −1 when x is integral.
  int ChooseBranch(const std::vector<signed char>& fixing, const Eigen::VectorXd& x);
  // Reliability branching (MiqpSettings) among ChooseBranch's candidates; `branch` its choice.
  // Returns the binary to branch on and, when it was strong-branched, its children's bounds
  // (+∞: infeasible; −∞: not computed).
  int ReliabilityBranch(const std::vector<signed char>& fixing, const Eigen::VectorXd& x,
                        double parent_bound, int branch, double child_bound[2]);
  // True when x_j set to 0 or to 1 keeps every row of G containing it satisfied at x (within
  // rounding_tolerance), activity_ = G x.
  bool Roundable(int j, const Eigen::VectorXd& x) const;
  // Rounds x (header) and solves the QP with every binary fixed; true when it gave an
  // incumbent.
  bool RoundingHeuristic(const std::vector<signed char>& fixing, const Eigen::VectorXd& x);
  // The QP with every binary fixed as in `fixing` (complete), from x; offers its answer.
  void SolveLeaf(const std::vector<signed char>& fixing, const Eigen::VectorXd& x);
  void OfferIncumbent(double objective, const Eigen::VectorXd& x);
  double PruneThreshold() const;
  double GapScale(double upper) const;  // max(1, |U + f₀|)
  double Objective(const Eigen::VectorXd& x) const;

  MiqpProblem problem_;
  MiqpSettings settings_;
  MiqpResult result_;
  bool ready_ = false;
  int n_ = 0;
  int m_ = 0;       // rows of the problem's G (the binaries' bound rows follow them in base_)
  QpProblem base_;  // the root's QP: the problem, the binaries' bound rows, Q's binary diagonal
  QpProblem node_;  // the node QP's values (pattern of base_)
  QpSolver qp_;
  std::vector<int> binary_of_;  // per variable: its position among the binaries, or −1
  // Per variable: the stored entries of its column in G and A (entry index, row), of its row and
  // column of Q (entry index, the other index), and the index of its diagonal entry in Q.
  struct Entry {
    int index;
    int other;
  };
  std::vector<std::vector<Entry>> g_column_, a_column_, q_row_, q_column_;
  std::vector<int> q_diagonal_;
  std::vector<int> bound_row_;  // per binary: its row x_j >= 0 in G (x_j <= 1 is the next)
  // The node's fixed values (NaN: free), the bounds of the node presolve and the rows that set
  // them, and the variables it pinned, in order (by an equality row or by two bounds).
  Eigen::VectorXd value_, lower_, upper_;
  std::vector<int> lower_row_, upper_row_, equality_row_;
  struct Implied {
    int variable;
    bool by_equality;
  };
  std::vector<Implied> implied_;
  // Per row of G and A: the number of stored entries, and at a node those of free columns.
  std::vector<int> g_entries_, a_entries_, g_free_, a_free_;
  // Scratch of the node solves and the heuristic.
  Eigen::VectorXd x_hat_, gx_, ax_, rounded_, activity_;
  std::vector<signed char> heuristic_fixing_, strong_fixing_;
  // ChooseBranch's candidates: position among the binaries, pseudo-cost (or fraction) score,
  // whether rounding alone settles it.
  struct Candidate {
    int binary;
    double score;
    bool roundable;
  };
  std::vector<Candidate> candidates_;
  std::vector<std::pair<double, int>> order_;
  MiqpPseudoCosts pseudo_;
  double start_time_ = 0;
};

// Convenience: a fresh solver per call.
MiqpResult Solve(const MiqpProblem& problem, const MiqpSettings& settings = {});

}  // namespace quasidyn
