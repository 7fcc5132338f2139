#include "quasidyn/solvers/lemke.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/gauss_jordan_inverse.h"

namespace quasidyn {
namespace {

// Pivots between two refactorisations of the basis.
constexpr int kRefactorInterval = 50;

// Pivots per row (n + 1) of each last-resort run on M + δI (Solve). Such a run exists for LCPs
// whose bases are nearly singular; where it succeeded, in the test suite and on every example
// scene's LCP formulations (2026-11-27), it took at most 1.14 (n + 1) pivots. On a deeply
// infeasible LCP (a fuzzed two-arm scene whose links overlap by a metre: n = 396, rays after
// 236–341 pivots) the run with 100δ went on to the default limit of 50 (n + 1), 19,850 pivots
// and 92 % of the step's time; 10 (n + 1) keeps nine times the margin.
constexpr int kRegularisedPivotsPerRow = 10;

// A 64-bit key of a tableau variable (the splitmix64 finaliser of its index; Steele, Lea &
// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the basis is
// identified by the exclusive or of its variables' keys (Zobrist hashing), updated in O(1) per
// pivot. Two different bases share a key with probability about 2^−64 per comparison.
std::uint64_t VariableKey(int variable) {
  std::uint64_t x = static_cast<std::uint64_t>(variable) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The name of a tableau variable ("w[3]", "z[0]", "z0 (artificial)") into name[0 .. size).
void VariableName(int variable, int n, char* name, std::size_t size) {
  if (variable < n) {
    std::snprintf(name, size, "w[%d]", variable);
  } else if (variable < 2 * n) {
    std::snprintf(name, size, "z[%d]", variable - n);
  } else {
    std::snprintf(name, size, "z0 (artificial)");
  }
}

// *message = the printf-style text, written into the message's reserved room (Setup): a
// step whose first attempt fails and whose retry succeeds makes no heap allocation.
void SetMessage(std::string* message, const char* format, ...) {
  char text[256];
  std::va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(text, sizeof(text), format, arguments);
  va_end(arguments);
  message->assign(text);
}

// The exponent e of the power of two with 2^e <= x < 2^(e+1), for finite x > 0; 0 for x = 0.
// Kept in [−1022, 1022], so that 2^−e is a normal double and a product with it is exact.
int BinaryExponent(double x) { return x > 0 ? std::clamp(std::ilogb(x), -1022, 1022) : 0; }

}  // namespace

// Column of the entering variable in the tableau [I, −M, −d] (Cottle, Pang & Stone, eq.
// (4.4.2): w − M z − d z0 = q), premultiplied by B⁻¹.
void LemkeSolver::EnteringColumn(const NormalisedLcp& problem, int variable) {
  const int n = static_cast<int>(problem.q.size());
  if (variable < n) {
    column_ = basis_inverse_.col(variable);
  } else if (variable < 2 * n) {
    // −B⁻¹ M e_j over the non-zero M_kj only: a contact LCP's M couples only the contacts that
    // share a body (J P⁻¹ Jᵀ with P block diagonal), so most of a column is exact zeros. Four
    // columns of B⁻¹ per pass, as a dense product does, so that a dense column costs no more.
    // Its sums are grouped otherwise than a dense product's, so they differ from it by rounding.
    const auto entering = problem.M.col(variable - n);
    support_.clear();
    for (int k = 0; k < n; ++k)
      if (entering[k] != 0.0) support_.push_back(k);
    const auto& B = basis_inverse_;
    column_.setZero();
    const std::size_t count = support_.size();
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
      const int a = support_[i], b = support_[i + 1], c = support_[i + 2], d = support_[i + 3];
      column_ -= entering[a] * B.col(a) + entering[b] * B.col(b) + entering[c] * B.col(c) +
                 entering[d] * B.col(d);
    }
    for (; i < count; ++i) column_ -= entering[support_[i]] * B.col(support_[i]);
  } else {
    column_ = -basis_inverse_.rowwise().sum();
  }
}

// Lexicographic minimum-ratio test (Cottle, Pang & Stone §4.9): among rows with a_i > 0 pick
// the lexicographic minimum of (B⁻¹q, B⁻¹)_i / a_i, column by column, keeping ties.
int LemkeSolver::LexicographicMinimumRow(double threshold, double tie_tolerance) {
  candidates_.clear();
  for (int i = 0; i < column_.size(); ++i) {
    if (column_[i] > threshold) candidates_.push_back(i);
  }
  if (candidates_.empty()) return -1;
  const int n = static_cast<int>(column_.size());
  for (int j = -1; j < n && candidates_.size() > 1; ++j) {
    const auto value = [&](int i) {
      return j < 0 ? std::max(basic_values_[i], 0.0) : basis_inverse_(i, j);
    };
    double bound = std::numeric_limits<double>::infinity();
    for (int i : candidates_) {
      const double v = value(i);
      bound = std::min(bound, (v + tie_tolerance * std::max(1.0, std::abs(v))) / column_[i]);
    }
    survivors_.clear();
    for (int i : candidates_) {
      if (value(i) / column_[i] <= bound) survivors_.push_back(i);
    }
    candidates_.swap(survivors_);
    if (j < 0) {
      for (int i : candidates_) {
        if (basis_[i] == 2 * n) return i;
      }
    }
  }
  return candidates_.front();
}

// Recomputes B⁻¹ and B⁻¹q from the basic variables' columns of [I, −M, −d] by LU with
// partial pivoting, discarding the rounding that rank-one updates accumulate over many pivots
// (the product-form update's drift, Chvátal, "Linear Programming", 1983, ch. 24). False when
// B is numerically singular.
// Column of the tableau [I, −M, −d] of a basic variable, entry `equation`.
double LemkeSolver::BasisEntry(const NormalisedLcp& problem, int variable, int equation) const {
  const int n = n_;
  if (variable < n) return variable == equation ? 1.0 : 0.0;
  if (variable < 2 * n) return -problem.M(equation, variable - n);
  return -1.0;
}

// B⁻¹ without factoring all of B. Its w columns are unit vectors e_i, so with Z the basis
// rows holding z's or z0 (k of them) and T the k equations whose w is not basic, B x = b
// splits into K x_Z = b_T with K = B(T, Z) (k × k), and x_r = b_i − B(i, Z) x_Z for the row r
// holding w_i (the Schur complement of the identity block; Golub & Van Loan §3.2.10). So
// B⁻¹(Z, T) = K⁻¹, B⁻¹(r, T) = −B(i, Z) K⁻¹, B⁻¹(r, i) = 1, and every other entry is 0.
// K is inverted in place (gauss_jordan_inverse.h): O(k³ + (n − k) k²), no heap allocation.
bool LemkeSolver::Refactor(const NormalisedLcp& problem) {
  const int n = n_;
  int k = 0;
  std::fill(basic_row_of_w_.begin(), basic_row_of_w_.end(), -1);
  for (int row = 0; row < n; ++row) {
    const int variable = basis_[row];
    if (variable < n) {
      basic_row_of_w_[variable] = row;
    } else {
      z_rows_[k++] = row;
    }
  }
  for (int i = 0, t = 0; i < n; ++i) {
    if (basic_row_of_w_[i] < 0) free_equations_[t++] = i;
  }
  for (int q = 0; q < k; ++q) {
    const int variable = basis_[z_rows_[q]];
    for (int p = 0; p < k; ++p) schur_(p, q) = BasisEntry(problem, variable, free_equations_[p]);
  }
  if (!InvertInPlace(k, &schur_, &schur_pivots_, &schur_column_)) return false;
  basis_inverse_.setZero();
  for (int q = 0; q < k; ++q) {
    for (int p = 0; p < k; ++p) basis_inverse_(z_rows_[q], free_equations_[p]) = schur_(q, p);
  }
  for (int i = 0; i < n; ++i) {
    const int row = basic_row_of_w_[i];
    if (row < 0) continue;
    basis_inverse_(row, i) = 1.0;
    // −B(i, Z) K⁻¹, one row at a time (a row-vector product, no blocking buffers).
    for (int q = 0; q < k; ++q) coupling_[q] = -BasisEntry(problem, basis_[z_rows_[q]], i);
    product_.head(k).noalias() = schur_.topLeftCorner(k, k).transpose() * coupling_.head(k);
    for (int p = 0; p < k; ++p) basis_inverse_(row, free_equations_[p]) = product_[p];
  }
  // B itself, for one step of iterative refinement of B x = q (Higham, "Accuracy and
  // Stability of Numerical Algorithms", 2002, ch. 12).
  for (int row = 0; row < n; ++row) {
    const int variable = basis_[row];
    if (variable < n) {
      basis_matrix_.col(row).setZero();
      basis_matrix_(variable, row) = 1.0;
    } else if (variable < 2 * n) {
      basis_matrix_.col(row) = -problem.M.col(variable - n);
    } else {
      basis_matrix_.col(row).setConstant(-1.0);
    }
  }
  basic_values_.noalias() = basis_inverse_ * problem.q;
  residual_ = problem.q;
  residual_.noalias() -= basis_matrix_ * basic_values_;
  correction_.noalias() = basis_inverse_ * residual_;
  basic_values_ += correction_;
  return basis_inverse_.allFinite() && basic_values_.allFinite();
}

// B⁻¹ ← E B⁻¹ and B⁻¹q ← E B⁻¹q, E the elementary matrix of the pivot on a = column_ at `row`
// (the product-form update, Chvátal ch. 24): row r is divided by a_r, then each other row i
// loses a_i times it. B⁻¹ is updated column by column (contiguous axpys; column-major storage),
// each entry with the same operations as a row update, and a column whose b_rj is 0 is left as
// it is (b_ij − a_i·0 = b_ij): B⁻¹ starts as I, so its pivot rows are sparse.
void LemkeSolver::Pivot(int row, int entering) {
  const double pivot = column_[row];
  basic_values_[row] /= pivot;
  for (int i = 0; i < column_.size(); ++i) {
    if (i == row || column_[i] == 0.0) continue;
    basic_values_[i] -= column_[i] * basic_values_[row];
  }
  column_[row] = 0.0;  // so that the axpys leave row r as divided
  for (int j = 0; j < basis_inverse_.cols(); ++j) {
    if (basis_inverse_(row, j) == 0.0) continue;
    const double divided = basis_inverse_(row, j) / pivot;
    basis_inverse_(row, j) = divided;
    basis_inverse_.col(j) -= divided * column_;
  }
  column_[row] = pivot;
  basis_[row] = entering;
}

void LemkeSolver::Normalise(const LcpView& problem) {
  // q by 2^e_q with e_q midway between the exponents of |min q| and ‖q‖∞ (lemke.h); by ‖q‖∞
  // when q >= 0 (no pivot then). Floor division keeps e_q + k for q scaled by 2^k.
  const double q_min = problem.q.size() > 0 ? problem.q.minCoeff() : 0.0;  // n = 0: no pivot
  const int norm_exponent = BinaryExponent(problem.q.lpNorm<Eigen::Infinity>());
  if (q_min < 0.0) {
    const int sum = BinaryExponent(-q_min) + norm_exponent;
    q_exponent_ = sum >= 0 ? sum / 2 : -((1 - sum) / 2);
  } else {
    q_exponent_ = norm_exponent;
  }
  m_exponent_ = BinaryExponent(problem.M.lpNorm<Eigen::Infinity>());
  // Products with powers of two: exact (unless a product falls below the normal range).
  normalised_.M.noalias() = std::ldexp(1.0, -m_exponent_) * problem.M;
  normalised_.q.noalias() = std::ldexp(1.0, -q_exponent_) * problem.q;
}

void LemkeSolver::SolveOnce(const LcpView& original, double pivot_tolerance, int max_pivots,
                            LcpResult* out) {
  const LemkeSettings& settings = settings_;
  const int n = n_;
  // Pivoting on the normalised data (Normalise); `original` for the answer and its check.
  const NormalisedLcp& problem = normalised_;

  basis_inverse_.setIdentity();
  basic_values_ = problem.q;
  for (int i = 0; i < n; ++i) basis_[i] = i;

  LcpResult& result = *out;
  result.message.clear();
  result.info = LemkeInfo();
  SolverStatus status = SolverStatus::kMaxIterations;
  int pivots = 0;
  // z = 0, w = q when that pair passes the final check below (min q >= −residual_tolerance ·
  // ‖q‖∞). A q whose negative entries are rounding of exact zeros (the tangential rows of a
  // frictionless contact pushed along its normal, ±1e-23) is such a case; pivoting on it ties
  // those entries with the exact zeros of the Γ rows, and the lexicographic choice among the
  // tie, a Γ row, leads to a false ray after one pivot (the drawer's LCP in lemke_test.cc).
  if (n == 0 || original.q.minCoeff() >=
                    -settings.residual_tolerance * original.q.lpNorm<Eigen::Infinity>()) {
    status = SolverStatus::kSolved;
  } else {
    // First pivot: z0 enters, the row of the most negative q_i leaves (ties: lexicographic
    // rule on (q_i, e_iᵀ), which keeps the basis lexicographically feasible).
    column_.setConstant(-1.0);
    const double q_min = problem.q.minCoeff();
    int row = -1;
    for (int i = 0; i < n; ++i) {
      if (problem.q[i] <= q_min + settings.tie_tolerance * std::max(1.0, std::abs(q_min))) {
        row = i;  // among ties, the largest index is the lexicographic minimum of e_iᵀ / 1
      }
    }
    int entering = 2 * n;
    Pivot(row, entering);
    pivots = 1;
    int leaving = row;  // w_row left the basis
    // The basis's key (VariableKey) and those of the last kRecentBases bases: Lemke's path
    // with the lexicographic rule meets no basis twice (Cottle, Pang & Stone §4.4 and §4.9), so
    // a repeat is rounding (a pivot on an entry that is 0 in exact arithmetic, on the nearly
    // singular bases of redundant contacts) and the run would go round it to the pivot limit.
    std::uint64_t key = VariableKey(leaving) ^ VariableKey(entering);
    for (int i = 0; i < n; ++i) key ^= VariableKey(i);
    recent_bases_.fill(key);
    while (true) {
      entering = leaving < n ? leaving + n : leaving - n;  // complement of the leaving variable
      if (pivots >= max_pivots) break;
      EnteringColumn(problem, entering);
      const double threshold = pivot_tolerance * std::max(1.0, column_.lpNorm<Eigen::Infinity>());
      row = LexicographicMinimumRow(threshold, settings.tie_tolerance);
      if (row < 0) {
        status = SolverStatus::kInfeasible;
        char name[32];
        VariableName(entering, n, name, sizeof(name));
        SetMessage(&result.message,
                   "secondary ray: entering variable %s is unbounded after %d pivots (LCP "
                   "infeasible, or M not copositive-plus)",
                   name, pivots);
        break;
      }
      leaving = basis_[row];
      Pivot(row, entering);
      ++pivots;
      key ^= VariableKey(leaving) ^ VariableKey(entering);
      if (std::find(recent_bases_.begin(), recent_bases_.end(), key) != recent_bases_.end()) {
        status = SolverStatus::kNumericalFailure;
        SetMessage(&result.message,
                   "cycling: the basis after %d pivots is one of the %d before it (rounding on "
                   "a nearly singular basis)",
                   pivots, kRecentBases);
        break;
      }
      recent_bases_[pivots % kRecentBases] = key;
      if (pivots % kRefactorInterval == 0 && !Refactor(problem)) {
        status = SolverStatus::kNumericalFailure;
        char name[32];
        VariableName(entering, n, name, sizeof(name));
        SetMessage(&result.message,
                   "basis matrix numerically singular after %d pivots (entering %s)", pivots, name);
        break;
      }
      if (leaving == 2 * n) {
        status = SolverStatus::kSolved;
        break;
      }
    }
    if (status == SolverStatus::kMaxIterations) {
      SetMessage(&result.message, "pivot limit %d reached", max_pivots);
    }
  }

  result.z.setZero(n);
  result.w.setZero(n);
  result.z_basic.assign(n, 0);
  if (status == SolverStatus::kSolved) {
    if (pivots == 0) {
      result.w = original.q;
    } else if (!Refactor(problem)) {  // the final basis, solved afresh
      status = SolverStatus::kNumericalFailure;
      SetMessage(&result.message, "final basis matrix numerically singular after %d pivots",
                 pivots);
    } else {
      // Non-basic variables are 0; the basic z's value (back in the units of the original
      // data: z = 2^(e_q − e_M) ẑ, exact), then w = Mz + q exactly as defined.
      for (int i = 0; i < n; ++i) {
        const int variable = basis_[i];
        if (variable >= n && variable < 2 * n) {
          result.z[variable - n] = std::ldexp(basic_values_[i], q_exponent_ - m_exponent_);
          result.z_basic[variable - n] = 1;
        }
      }
      result.w.noalias() = original.M * result.z;
      result.w += original.q;
    }
  }
  result.info.pivots = pivots;
  if (n > 0) {
    product_.noalias() = original.M * result.z;
    result.info.residual = (result.w - product_ - original.q).lpNorm<Eigen::Infinity>();
    result.info.sign_violation = std::max({0.0, -result.z.minCoeff(), -result.w.minCoeff()});
    result.info.complementarity = result.w.cwiseProduct(result.z).cwiseAbs().sum();
  }
  if (status == SolverStatus::kSolved && n > 0) {
    // Honest status: check the returned pair, in units of w, against the scale
    // ‖q‖∞ + ‖M‖∞‖z‖∞ of the terms of w = Mz + q.
    const double scale = original.q.lpNorm<Eigen::Infinity>() +
                         original.M.lpNorm<Eigen::Infinity>() * result.z.lpNorm<Eigen::Infinity>();
    const double z_scale = std::max(result.z.lpNorm<Eigen::Infinity>(), 1e-300);
    // Complementarity per pair: min(w_i, z_i·‖w‖/‖z‖) must vanish; use |w_i z_i| / ‖z‖∞.
    const double complementarity = result.w.cwiseProduct(result.z).cwiseAbs().maxCoeff() / z_scale;
    const double violation =
        std::max({result.info.residual, -result.w.minCoeff(),
                  -result.z.minCoeff() * original.M.lpNorm<Eigen::Infinity>(), complementarity});
    if (!(violation <= settings.residual_tolerance * scale)) {
      const bool loose = violation <= settings.inaccurate_tolerance * scale;
      status = loose ? SolverStatus::kSolvedInaccurate : SolverStatus::kNumericalFailure;
      SetMessage(&result.message,
                 "%s solution after %d pivots: violation %g of w = Mz + q, z >= 0, w >= 0, "
                 "w∘z = 0 exceeds %g × scale %g",
                 loose ? "inaccurate" : "rejected", pivots, violation, settings.residual_tolerance,
                 scale);
    }
  }
  result.status = status;
}

void ValidateLemkeSettings(const LemkeSettings& s) {
  constexpr const char* kWhere = "LemkeSettings";
  QUASIDYN_CHECK_ARGUMENT(s.max_pivots >= 0, kWhere, "max_pivots must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.pivot_tolerance > 0 && s.pivot_tolerance <= 1e-3, kWhere,
                          "pivot_tolerance must be in (0, 1e-3]");
  QUASIDYN_CHECK_ARGUMENT(s.tie_tolerance >= 0 && s.tie_tolerance <= 1e-3, kWhere,
                          "tie_tolerance must be in [0, 1e-3]");
  QUASIDYN_CHECK_ARGUMENT(s.residual_tolerance > 0 && s.residual_tolerance <= 1e-3, kWhere,
                          "residual_tolerance must be in (0, 1e-3]");
  QUASIDYN_CHECK_ARGUMENT(
      s.inaccurate_tolerance >= s.residual_tolerance && s.inaccurate_tolerance < 1, kWhere,
      "inaccurate_tolerance must be in [residual_tolerance, 1)");
  QUASIDYN_CHECK_ARGUMENT(s.regularisation >= 0 && s.regularisation <= 1e-6, kWhere,
                          "regularisation must be in [0, 1e-6]");
}

void LemkeSolver::Setup(int n, const LemkeSettings& settings) {
  QUASIDYN_CHECK_ARGUMENT(n >= 0, "LemkeSolver::Setup", "n must be >= 0");
  ValidateLemkeSettings(settings);
  settings_ = settings;
  n_ = n;
  // Three n × n matrices and seven n-vectors on storage_, which grows only, so once a size has
  // been met no Setup allocates.
  storage_.Seat({{&normalised_.M, n, n}, {&basis_inverse_, n, n}, {&basis_matrix_, n, n}},
                {{&normalised_.q, n},
                 {&basic_values_, n},
                 {&column_, n},
                 {&product_, n},
                 {&residual_, n},
                 {&correction_, n},
                 {&coupling_, n}});
  const std::size_t size = static_cast<std::size_t>(n);
  if (schur_.rows() < n) schur_.resize(n, n);
  if (schur_pivots_.size() < n) schur_pivots_.resize(n);
  if (schur_column_.size() < n) schur_column_.resize(n);
  basis_.resize(size);
  basic_row_of_w_.resize(size);
  z_rows_.resize(size);
  free_equations_.resize(size);
  candidates_.reserve(size);
  survivors_.reserve(size);
  support_.reserve(size);
  // Results not yet solved, on the storage of the last ones (their vectors through the pool,
  // the message's and the basis flags' capacity kept).
  for (LcpResult& result : results_) {
    result.status = SolverStatus::kNotRun;
    result.message.clear();
    result.message.reserve(256);
    results_storage_.Resize(&result.z, n);
    results_storage_.Resize(&result.w, n);
    result.z_basic.resize(size);
    result.info = LemkeInfo();
  }
}

const LcpResult& LemkeSolver::Solve(const LcpView& problem) {
  QUASIDYN_CHECK_ARGUMENT(n_ >= 0, "LemkeSolver::Solve", "call Setup first");
  CheckVector("LemkeSolver::Solve", "q", problem.q, n_, "the size given to Setup");
  QUASIDYN_CHECK_ARGUMENT(problem.M.rows() == n_ && problem.M.cols() == n_, "LemkeSolver::Solve",
                          "M is " + std::to_string(problem.M.rows()) + " × " +
                              std::to_string(problem.M.cols()) +
                              ", expected n × n with n = " + std::to_string(n_));
  QUASIDYN_CHECK_ARGUMENT(problem.M.allFinite(), "LemkeSolver::Solve", "M must be finite");
  const auto start_time = std::chrono::steady_clock::now();
  Normalise(problem);
  // On contact LCPs M = J P⁻¹ Jᵀ has rank <= n_v < n, and a pivot entry that is 0 in exact
  // arithmetic can come out as 1e-8·‖a‖ after a few dozen pivots; pivoting on it makes B
  // nearly singular and the method ends on a false ray or a wrong "solution" (caught by the
  // final check). So an unsuccessful run is repeated with the pivot tolerance raised 100-fold
  // (up to 1e-3), keeping the best outcome: solved, then solved_inaccurate, then the first.
  const int max_pivots = settings_.max_pivots > 0 ? settings_.max_pivots : 50 * (n_ + 1);
  SolveOnce(problem, settings_.pivot_tolerance, max_pivots, best_);
  int total_pivots = best_->info.pivots;
  for (double tolerance = 100 * settings_.pivot_tolerance;
       best_->status != SolverStatus::kSolved && best_->status != SolverStatus::kMaxIterations &&
       tolerance <= 1e-3 * (1 + 1e-9);
       tolerance *= 100) {
    SolveOnce(problem, tolerance, max_pivots, retry_);
    total_pivots += retry_->info.pivots;
    if (retry_->status == SolverStatus::kSolved ||
        (retry_->status == SolverStatus::kSolvedInaccurate &&
         best_->status != SolverStatus::kSolvedInaccurate)) {
      std::swap(best_, retry_);
    }
  }
  // Last resort: Lemke on M + δI (δ = regularisation on the normalised data, where
  // 1 <= ‖M̂‖∞ < 2). M copositive (a contact LCP's) makes M + δI strictly copositive, which
  // Lemke's method processes without a secondary ray (Cottle, Pang & Stone, §3.8 and
  // §4.4), and it keeps the bases of redundant contacts (M of rank n_v < n) away from
  // singular. Its answer is checked against the original M and q like any other and replaces
  // the first run's only when it passes (kSolved): an LCP(M, q) without a solution has one
  // with M + δI, which must not hide the first run's ray.
  // δ, then 100δ (at most 1e-6) if δ too meets cycling or a ray: the bases' conditioning
  // improves with δ, while the answer's error, of order δ‖ẑ‖, stays below the check's scale.
  const double deltas[2] = {settings_.regularisation,
                            std::min(100 * settings_.regularisation, 1e-6)};
  double added = 0.0;  // δ already on the diagonal of normalised_.M
  for (const double delta : deltas) {
    if (best_->status == SolverStatus::kSolved || n_ == 0 || !(delta > added)) break;
    normalised_.M.diagonal().array() += delta - added;
    added = delta;
    SolveOnce(problem, settings_.pivot_tolerance,
              std::min(max_pivots, kRegularisedPivotsPerRow * (n_ + 1)), retry_);
    total_pivots += retry_->info.pivots;
    if (retry_->status == SolverStatus::kSolved) std::swap(best_, retry_);
  }
  best_->info.pivots = total_pivots;
  best_->info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return *best_;
}

LcpResult Solve(const LcpView& problem, const LemkeSettings& settings) {
  LemkeSolver solver;
  solver.Setup(static_cast<int>(problem.q.size()), settings);
  return solver.Solve(problem);
}

}  // namespace quasidyn
