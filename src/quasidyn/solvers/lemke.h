#pragma once
// Linear complementarity problem LCP(M, q): find z, w with
//   w = M z + q,   w >= 0,   z >= 0,   wᵀ z = 0,
// solved by Lemke's complementary pivoting with the covering vector d = (1, …, 1) and the
// lexicographic minimum-ratio rule, which prevents cycling on degenerate problems
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", 1992, §4.4 and §4.9).
// A basis met twice ends a run as cycling, and when every run fails Lemke runs once more on
// M + δI (LemkeSettings::regularisation).
// Lemke's method finds a solution whenever M is copositive-plus (e.g. positive semidefinite)
// and the LCP is feasible; otherwise it may end on a secondary ray, reported as kInfeasible.
// Dense basis inverse with rank-one updates: O(n²) per pivot.
// The pivoting runs on the normalised data M̂ = 2^(−e_M) M, q̂ = 2^(−e_q) q, with 2^e_M <= ‖M‖∞
// < 2^(e_M+1), whose solution is ẑ = 2^(e_M − e_q) z (w = 2^e_q ŵ): scaling by powers of two
// is exact, so the pivots are the same for any such scaling of M and of q, and the tolerances
// below, which compare numbers with 1, are relative to the data's magnitude. For q that
// magnitude is the geometric mean of two: e_q = ⌊(e_min + e_∞)/2⌋, with e_min and e_∞ the
// binary exponents of |min q| and ‖q‖∞ (e_q = e_∞ when q >= 0, where no pivot runs). The tie
// test must lie above the rounding of the basic values, which grows with ‖q‖∞, and below the
// differences that decide the pivots, of the order of |min q|, the level at which z0 enters;
// contact LCPs at small time steps have both at once (arm_cubes under stewart-trinkle at
// h = 5e-5 s: ‖q‖∞ = 9.1e4 from the gaps φ/h of distant contacts, min q = −5e-5 m/s from
// gravity on a resting stack). Normalised by ‖q‖∞, min q̂ fell within the tie tolerance of
// exact zeros (a false ray after 1 pivot); by |min q|, rounding of 2e-11 broke ties between
// degenerate ratios (a false ray after 129 pivots, then the retries ran to their pivot limits:
// 3.7 s per solve). The first is LemkeTest.RestingContactBesideAFarContactAtASmallStep; both
// are steps of docs/formulations.md's time-step study, which they stopped.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/solver_status.h"
#include "quasidyn/solvers/view_storage.h"

namespace quasidyn {

struct LcpProblem {
  Eigen::MatrixXd M;  // (n × n)
  Eigen::VectorXd q;  // (n)
};

// LCP(M, q) read where it lies, without a copy: an LcpProblem, or views on a builder's storage
// (the quasistatic LCP's, whose M keeps its largest size: view_storage.h). The solvers take
// this, so an LcpProblem converts implicitly.
struct LcpView {
  LcpView(const LcpProblem& problem) : M(problem.M), q(problem.q) {}  // NOLINT: implicit
  LcpView(const Eigen::Ref<const Eigen::MatrixXd>& M_, const Eigen::Ref<const Eigen::VectorXd>& q_)
      : M(M_), q(q_) {}
  Eigen::Ref<const Eigen::MatrixXd> M;  // (n × n)
  Eigen::Ref<const Eigen::VectorXd> q;  // (n)
};

struct LemkeSettings {
  // Pivot limit, > 0; 0 means 50·(n + 1). Lemke terminates in finitely many pivots with the
  // lexicographic rule, but the count can be exponential in n in the worst case.
  int max_pivots = 0;
  // A pivot-column entry a_i counts as positive when a_i > pivot_tolerance · max(1, ‖a‖∞)
  // (on the normalised data).
  // Dimensionless, in (0, 1e-3]. A run that ends on a ray or fails the final check below is
  // repeated with this tolerance multiplied by 100, 10⁴, … while it stays <= 1e-3 (rounding
  // on rank-deficient contact LCPs makes zero pivot entries look positive).
  double pivot_tolerance = 1e-9;
  // Ties of the ratio test (Harris's two-pass form, applied to each lexicographic column): with
  // v_i the column's entry of row i (the basic value, then B⁻¹'s columns) and a_i > 0 the pivot
  // column's, row i ties with the minimum when v_i / a_i <= min_k (v_k + tie_tolerance ·
  // max(1, |v_k|)) / a_k, i.e. when the step of the minimum would leave row i within
  // tie_tolerance · max(1, |v_i|) of 0 (on the normalised data), and the next column decides
  // among the tied rows; z0 leaves whenever it is among them. A tolerance on the ratios
  // themselves (the rule before 2026-11-26) tied every ratio below 1e-9 where the pivot column
  // reaches 1e6 (the finger grasp of lemke_test.cc: z0 left on a false tie). Dimensionless, in
  // [0, 1e-3]; on degenerate contact LCPs values that are 0 in exact arithmetic are rounding of
  // order 1e-12·‖B⁻¹‖, hence the default 1e-9.
  double tie_tolerance = 1e-9;
  // Final check of the returned pair: with scale = ‖q‖∞ + ‖M‖∞‖z‖∞ (units of w), the
  // violation max(‖w − Mz − q‖∞, −min w, −‖M‖∞ min z, max_i |w_i z_i| / ‖z‖∞) must be
  // <= residual_tolerance · scale for kSolved, <= inaccurate_tolerance · scale for
  // kSolvedInaccurate; above both the status is kNumericalFailure. A q with
  // min q >= −residual_tolerance · ‖q‖∞ is answered by z = 0 without pivoting (that pair passes
  // this check). Dimensionless,
  // residual_tolerance in (0, 1e-3], inaccurate_tolerance in [residual_tolerance, 1).
  double residual_tolerance = 1e-10;
  double inaccurate_tolerance = 1e-6;
  // δ of the last retry, on M̂ + δI (the normalised M, 1 <= ‖M̂‖∞ < 2), when every run above
  // failed: a copositive M becomes strictly copositive, and the nearly singular bases of
  // redundant contacts regular (lemke.cc, Solve). Its answer is kept only when it passes the
  // check above (kSolved) against the original M and q; otherwise the first run's status stays.
  // Dimensionless, in [0, 1e-6]; 0: no such retry. Ours (not from a paper): 1e-10, so that δ‖ẑ‖
  // stays at the final check's tolerance. Each such run stops after min(max_pivots, 10·(n + 1))
  // pivots (lemke.cc, kRegularisedPivotsPerRow).
  double regularisation = 1e-10;
};

// Statistics of one Solve.
struct LemkeInfo {
  int pivots = 0;                   // pivots over all runs (see LemkeSettings::pivot_tolerance)
  double residual = 0.0;            // ‖w − Mz − q‖∞ (units of w)
  double sign_violation = 0.0;      // max(0, −min z, −min w)
  double complementarity = 0.0;     // Σ |w_i z_i|
  double solve_time_seconds = 0.0;  // wall-clock time of Solve()
};

struct LcpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // on ray termination names the driving variable
  Eigen::VectorXd z;    // (n)
  Eigen::VectorXd w;    // (n) = M z + q
  // (n) 1 where z_i is basic in the complementary basis of the answer (Lemke's final basis; the
  // guessed one of lcp_basis_guess.h), 0 where w_i is: a regular basis to try first on a nearby
  // problem (a degenerate answer's values, z_i = w_i = 0, do not tell it). Set when solved.
  std::vector<char> z_basic;
  LemkeInfo info;
};

class LemkeSolver {
 public:
  LemkeSolver() = default;
  // Not copyable: its views and best_ point into its own storage.
  LemkeSolver(const LemkeSolver&) = delete;
  LemkeSolver& operator=(const LemkeSolver&) = delete;

  // Sizes the workspace for LCPs of size n >= 0 and validates the settings
  // (std::invalid_argument naming the field). Its storage keeps its largest size, so a Setup
  // for a size met before (or a smaller one) allocates nothing.
  void Setup(int n, const LemkeSettings& settings = {});
  int size() const { return n_; }

  // Solves LCP(M, q) of the size given to Setup (std::invalid_argument on another size or on
  // non-finite data). No allocation, failures included: their messages (at most 255
  // characters) are written into room reserved by Setup.
  const LcpResult& Solve(const LcpView& problem);
  const LcpResult& result() const { return *best_; }

 private:
  using MatrixView = ViewStorage::MatrixView;
  using VectorView = ViewStorage::VectorView;
  // The normalised data (Normalise), laid out as an LcpProblem's.
  struct NormalisedLcp {
    MatrixView M{nullptr, 0, 0};
    VectorView q{nullptr, 0};
  };

  // One run of Lemke's method with the given pivot tolerance (no timing), into *result, of at
  // most max_pivots pivots (> 0). Pivots on normalised_ (Normalise first), answers and checks
  // in the units of `original`.
  void SolveOnce(const LcpView& original, double pivot_tolerance, int max_pivots,
                 LcpResult* result);
  // normalised_ = (2^(−e_M) M, 2^(−e_q) q) with the exponents of the header comment.
  void Normalise(const LcpView& problem);
  // Row of the lexicographic minimum ratio among rows with a_i > threshold; −1 if none.
  int LexicographicMinimumRow(double threshold, double tie_tolerance);
  void Pivot(int row, int entering);
  void EnteringColumn(const NormalisedLcp& problem, int variable);
  // B⁻¹ and B⁻¹q recomputed from the current basis; false if B is singular.
  bool Refactor(const NormalisedLcp& problem);
  // Entry `equation` of the column of basic variable `variable` in [I, −M, −d].
  double BasisEntry(const NormalisedLcp& problem, int variable, int equation) const;

  int n_ = -1;
  LemkeSettings settings_;
  // Every n × n and n-sized buffer below is a view on storage_ (Setup), which grows to the
  // largest size met and is never given back; results_' vectors keep theirs in results_storage_.
  ViewStorage storage_;
  SizedStoragePool results_storage_;
  NormalisedLcp normalised_;
  int q_exponent_ = 0, m_exponent_ = 0;  // e_q, e_M
  LcpResult results_[2];
  LcpResult* best_ = &results_[0];
  LcpResult* retry_ = &results_[1];
  MatrixView basis_inverse_{nullptr, 0, 0};  // B⁻¹ (n × n)
  VectorView basic_values_{nullptr, 0};      // B⁻¹ q
  VectorView column_{nullptr, 0};            // B⁻¹ A_entering
  VectorView product_{nullptr, 0}, residual_{nullptr, 0}, correction_{nullptr, 0};
  std::vector<int> basis_;  // variable in each row: w_i = i, z_i = n + i, z0 = 2n
  // Keys of the last bases of a run (lemke.cc, VariableKey), to detect a basis met again.
  static constexpr int kRecentBases = 64;
  std::array<std::uint64_t, kRecentBases> recent_bases_{};
  std::vector<int> candidates_, survivors_;
  std::vector<int> support_;                // the entering column's non-zero rows (EnteringColumn)
  MatrixView basis_matrix_{nullptr, 0, 0};  // B, for the refinement of a refactorisation
  // Refactorisation scratch: K = B(T, Z) and its inverse (leading k × k block), the pivot rows
  // of its elimination, the basis row of each basic w_i (−1 if not basic), the basis rows of
  // the basic z's and z0, the equations T whose w is not basic, one row of B(i, Z). K and its
  // pivots keep their largest size (only the leading k × k block and k entries are used).
  Eigen::MatrixXd schur_;
  Eigen::VectorXi schur_pivots_;
  Eigen::VectorXd schur_column_;  // the inversion's scratch
  std::vector<int> basic_row_of_w_, z_rows_, free_equations_;
  VectorView coupling_{nullptr, 0};
};

// Convenience: a fresh solver per call.
LcpResult Solve(const LcpView& problem, const LemkeSettings& settings = {});

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateLemkeSettings(const LemkeSettings& settings);

}  // namespace quasidyn
