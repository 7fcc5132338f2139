#pragma once
// Mixed nonlinear complementarity problem MNCP(F, kinds): find z ∈ Rⁿ with
//
//   F_i(z) = 0                     for every free index i            (kind kFree),
//   0 <= z_i ⊥ F_i(z) >= 0          for every complementarity index i (kind kComplementarity),
//
// solved by the semismooth Newton method on the Fischer–Burmeister reformulation
//
//   Φ_i(z) = F_i(z) (free),   Φ_i(z) = φ(z_i, F_i(z)) = z_i + F_i − √(z_i² + F_i²) (compl.),
//
// φ(a, b) = 0 ⇔ a >= 0, b >= 0, ab = 0 (Fischer 1992), with a line search on the merit
// Ψ(z) = ½‖Φ(z)‖² (De Luca, Facchinei & Kanzow, Math. Prog. 75, 1996, Algorithm 3.1 (the
// Newton direction, its descent test and the gradient fallback); Facchinei & Pang,
// "Finite-Dimensional Variational Inequalities and Complementarity Problems", 2003, §9.1):
//
//   H_k ∈ ∂Φ(z_k):  rows of free i: ∇F_i;  complementarity i: (1 − z_i/r) e_iᵀ + (1 − F_i/r) ∇F_i,
//                   r = ‖(z_i, F_i)‖, and (1 − 1/√2)(e_iᵀ + ∇F_i) at r = 0 (an element of the
//                   generalized Jacobian of φ at the origin: Facchinei & Pang, Prop. 9.1.4);
//   Newton          H_k d = −Φ_k, accepted when ∇Ψᵀd <= −ρ‖d‖^p (De Luca et al., eq. (17));
//                   ∇Ψᵀd = Φ_kᵀ H_k d = −‖Φ_k‖², so ∇Ψ = H_kᵀΦ_k is formed only when the Newton
//                   step is not taken (for the other directions and the stationarity test: an
//                   H_k that passes the pivot test is invertible, and ∇Ψ = 0 only at a solution);
//   non-monotone    Ψ(z + d) <= max_{j < M} Ψ_{k−j} + σ ∇Ψᵀd for the full step (Grippo,
//                   Lampariello & Lucidi 1986), then Ψ(z + t d) <= Ψ_k + σ t ∇Ψᵀd for
//                   t = β, β², … (a shortened step must decrease the merit);
//   fallback        when the Newton system is singular, the direction fails the descent test,
//                   its line search fails, or the merit stalls (Ψ_k > stall_ratio·Ψ_{k−W} over
//                   W = stall_window iterations): a Levenberg–Marquardt step
//                   (H_kᵀH_k + λ_k I) d = −∇Ψ, λ_k = ‖Φ_k‖₂ clamped to [1e-12, 1]·max diag(HᵀH)
//                   (Fan & Yuan 2005, δ = 1) with a monotone Armijo search, and, if that fails
//                   too, the steepest-descent step d = −∇Ψ (De Luca et al., step 3).
//
// The caller supplies F and its Jacobian (MixedNcpFunction): dense, because the problems this
// solver is for (the ECP time step, formulations/ecp/) have tens of unknowns with dense coupling
// blocks (6 per body, about 20 per contact pair: under 100 in the paper's scenes), where a
// sparse factorisation's symbolic work and indirection would cost more than it saves. In the
// Newton systems, a row that is a multiple of a unit row gives its unknown at once (in H: an
// inactive complementarity, z_i = 0 < F_i, where ∂φ/∂b = 0; in the min-Newton system: every
// row with z_i <= F_i), and the rest is factorised by SchurLu (schur_lu.h): the first
// `eliminated_leading` unknowns (the ECP step's velocities) are eliminated first, and zero
// entries cost nothing. The singularity test below is over the pivots of that factorisation
// and the unit rows' multiples.
//
// Active-set switch of the Newton step: when the Newton direction's linear model, z + d and
// F + J d, puts a complementarity pair below −switch_threshold (the Fischer–Burmeister step held
// an unknown at its bound that the model then crosses: at a stick–slip switch of the ECP step's
// friction, σ = 0 at the start with its margin > 0, or σ > 0 with the margin 0 where the contact
// comes to rest), the direction is replaced by the min-Newton direction (below) with its rows
// chosen at the model's point, re-chosen at the new direction's model point until the choice
// repeats (at most switch_rounds linear solves: the linearised complementarity problem solved by
// its active set, as in Josephy's Newton method for generalized equations, 1979). Its step must
// decrease the merit, Ψ(z + t d) <= (1 − 2σt) Ψ(z), within switch_backtracks halvings; when it
// does not, the Newton direction's own line search follows. The switch is not considered where
// the full Newton step is expected to end the iterations (below); near a solution with strict
// complementarity the model does not cross, and the iterations are Newton's.
//
// Chord step: after a full Newton step of iteration k >= 1 (not switched) from a residual
// r_k = ‖Φ_k‖∞ to r_{k+1} with 4 r_{k+1}² <= tolerance · r_k, the next step solves with the same
// factor, H_k d = −Φ_{k+1} (the simplified Newton method, Ortega & Rheinboldt 1970, §7.1): near a
// solution its residual is about (‖H_{k+1} − H_k‖ ‖H_k⁻¹‖) r_{k+1}, i.e. 2 C ‖Δz‖ r_{k+1} with
// C = r_{k+1}/r_k² the step's contraction and ‖Δz‖ ~ r_k: about 2 r_{k+1}²/r_k, within half
// the tolerance (2–4× r_{k+1}²/r_k on the ECP scenes; after the first step, where ‖Δz‖ and r_k
// need not be alike, 5–8×, hence k >= 1). It needs neither J at z_{k+1} nor a factorisation;
// its full step must decrease the merit, Ψ(z + d) <= (1 − 2σ) Ψ(z), else the iteration is
// Newton's. It is counted as an iteration (MixedNcpInfo::chord_steps).
//
// Evaluations: a trial point of the line search is evaluated without the Jacobian when it is
// expected to end the iterations (a backtracked step, a chord step, or a full Newton step whose
// predicted residual C‖Φ_k‖∞², C the ‖Φ_{k+1}‖∞/‖Φ_k‖∞² observed at the full Newton step of the
// same index k in the last solve that had one, else the last observed, is within the tolerance
// or such that the chord step is expected to follow); the Jacobian is evaluated there afterwards
// if the iterations go on. F is the same with or without the Jacobian, so the iterates do not
// depend on it.
//
// When the iterations end without a solution, the iterate of least merit is returned (the
// non-monotone search may have left it).
//
// Use (the set-up / solve split of the other solvers): Setup(kinds, settings) validates and
// sizes every buffer; Solve(function, z0) starts from z0 (a warm start: the previous step's
// solution) and does not allocate unless it fails (its message).

#include <Eigen/Core>
#include <Eigen/LU>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "quasidyn/solvers/schur_lu.h"
#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

enum class NcpKind : std::uint8_t {
  kFree,             // F_i(z) = 0, z_i unbounded
  kComplementarity,  // 0 <= z_i ⊥ F_i(z) >= 0
};

// F and its Jacobian, given by the caller.
class MixedNcpFunction {
 public:
  virtual ~MixedNcpFunction() = default;
  // F(z) into *F (size n) and, when J is not null, ∂F/∂z into *J (n × n, every entry written).
  // *F and *J come sized; an implementation must not resize them. Returns false when F cannot
  // be evaluated at z (a point outside its domain): the solver treats z as a rejected trial
  // point (and stops with kNumericalFailure if it is the starting point).
  virtual bool Evaluate(const Eigen::VectorXd& z, Eigen::VectorXd* F, Eigen::MatrixXd* J) = 0;
};

// One iteration, for MixedNcpSettings::trace.
struct MixedNcpTrace {
  int iteration = 0;
  // "newton", "newton-switch", "chord", "min-newton", "levenberg-marquardt", "gradient"
  const char* direction = "";
  double step = 0.0;                   // the line search's t
  double merit = 0.0;                  // Ψ after the step
  double residual = 0.0;               // ‖Φ‖∞ after the step
  int worst_index = -1;                // argmax |Φ_i| after the step
  const Eigen::VectorXd* z = nullptr;  // the iterate after the step
};

struct MixedNcpSettings {
  int max_iterations = 100;  // Newton iterations, > 0
  // kSolved when ‖Φ‖∞ <= tolerance (units of F: the caller scales its rows), > 0;
  // kSolvedInaccurate when the iterations end (limit, stall) with ‖Φ‖∞ <= inaccurate_tolerance
  // (>= tolerance).
  double tolerance = 1e-10;
  double inaccurate_tolerance = 1e-6;
  double armijo_fraction = 1e-4;  // σ, in (0, 0.5)
  double backtrack_factor = 0.5;  // β, in (0, 1)
  int max_backtracks = 40;        // per direction, > 0
  int nonmonotone_memory = 5;     // M >= 1 (1: monotone Armijo)
  // Descent test of the Newton direction, ∇Ψᵀd <= −ρ‖d‖^p: ρ > 0, p > 2 (De Luca et al.).
  double descent_rho = 1e-10;
  double descent_power = 2.1;
  // Stall: Ψ_k > stall_ratio·Ψ_{k−W} with W = stall_window turns on the Levenberg–Marquardt
  // step for the next W iterations. stall_ratio in (0, 1), stall_window >= 1.
  double stall_ratio = 0.5;
  int stall_window = 5;
  // A rejected Newton system: min |pivot| <= singular_pivot_ratio · max |pivot| over the pivots
  // of its factorisation (SchurLu, partial pivoting) and its unit rows' multiples, in [0, 1).
  double singular_pivot_ratio = 1e-14;
  // Stop with kInfeasible (a local minimum or stationary point of Ψ that is not a solution:
  // the problem may have none near z) when ‖∇Ψ‖∞ <= stationarity_tolerance · max(1, ‖Φ‖∞)
  // (>= 0), when no direction's line search succeeds, or when the least Ψ so far has decreased
  // by less than stagnation_tolerance times itself (in [0, 1)) over the last
  // stagnation_window (>= 1) iterations; with
  // kSolvedInaccurate instead when ‖Φ‖∞ <= inaccurate_tolerance there.
  double stationarity_tolerance = 1e-12;
  double stagnation_tolerance = 1e-6;
  int stagnation_window = 30;
  // The first k unknowns (free, with an invertible block of the Jacobian: the ECP step's
  // velocities) are eliminated first in the Newton systems (schur_lu.h); 0 <= k <= n (checked
  // by Setup), 0 = a plain LU with partial pivoting.
  int eliminated_leading = 0;
  // The active-set switch of the Newton step (above): taken when the Newton step's linear
  // model z + d, F + J d puts a complementarity pair below −switch_threshold (units of F and z:
  // the caller scales its rows; >= 0, +∞ turns the switch off); at most switch_rounds (>= 1)
  // linear solves choose its rows; its line search stops after switch_backtracks (>= 0)
  // halvings, then the Newton direction's own search follows.
  double switch_threshold = 1e-6;
  int switch_rounds = 3;
  int switch_backtracks = 4;
  // The chord step (above) after a full Newton step that came close; false turns it off.
  bool chord_steps = true;
  // Called after every iteration when set (diagnostics; empty by default).
  std::function<void(const MixedNcpTrace&)> trace;
};

struct MixedNcpInfo {
  int iterations = 0;                 // directions taken (Newton, LM or gradient)
  int newton_steps = 0;               // of which Newton
  int min_newton_steps = 0;           // of which Newton on the min reformulation
  int switch_steps = 0;               // of which Newton with the active-set switch
  int chord_steps = 0;                // of which the chord step (the last factor kept)
  int levenberg_marquardt_steps = 0;  // of which Levenberg–Marquardt
  int gradient_steps = 0;             // of which steepest descent
  int line_search_steps = 0;          // backtracks over all iterations
  int function_evaluations = 0;       // calls of MixedNcpFunction::Evaluate
  double merit = 0.0;                 // Ψ = ½‖Φ‖² at the returned z
  double residual = 0.0;              // ‖Φ‖∞ at the returned z (units of F)
  double solve_time_seconds = 0.0;    // wall-clock time of Solve
};

struct MixedNcpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;   // empty when solved; otherwise why, naming the worst index
  Eigen::VectorXd z;     // (n) the last iterate (the solution when Succeeded(status))
  Eigen::VectorXd F;     // (n) F(z)
  Eigen::VectorXd phi;   // (n) Φ(z)
  int worst_index = -1;  // argmax_i |Φ_i(z)|
  MixedNcpInfo info;
};

class MixedNcpSolver {
 public:
  // Sizes the solver for problems with these kinds (n = kinds.size() >= 0) and validates the
  // settings (std::invalid_argument naming the field). A second Setup of the same size does
  // not allocate.
  void Setup(const std::vector<NcpKind>& kinds, const MixedNcpSettings& settings = {});
  int size() const { return n_; }
  const std::vector<NcpKind>& kinds() const { return kinds_; }
  const MixedNcpSettings& settings() const { return settings_; }

  // Solves from z0 (size n, finite; std::invalid_argument otherwise).
  const MixedNcpResult& Solve(MixedNcpFunction& function, const Eigen::VectorXd& z0);
  const MixedNcpResult& result() const { return result_; }
  // Evaluates the Jacobian at the returned z of the last Solve unless the solve ended with it
  // (the last point may have been evaluated without it), for phi_jacobian() and
  // function_jacobian(); false when `function` cannot be evaluated there.
  bool EnsureJacobian(MixedNcpFunction& function);
  // After EnsureJacobian: H ∈ ∂Φ(z) (n × n) at the returned z, and the Jacobian J of F there,
  // for implicit differentiation.
  const Eigen::MatrixXd& phi_jacobian() const { return H_; }
  const Eigen::MatrixXd& function_jacobian() const { return J_; }
  // For F depending on parameters p as well, ∂Φ/∂p at the returned z from ∂F/∂p (n × k):
  // rows of free i unchanged, of complementarity i scaled by ∂φ/∂b = 1 − F_i/r (the element
  // of PhiJacobian). Implicit differentiation of Φ(z(p), p) = 0 then gives
  // dz/dp = −H⁻¹ ∂Φ/∂p where H is invertible.
  void PhiParameterJacobian(const Eigen::MatrixXd& dF_dp, Eigen::MatrixXd* dPhi_dp) const;

 private:
  enum class Direction { kNewton, kLevenbergMarquardt, kGradient };
  // Φ from F at z (into phi), and ‖Φ‖²/2; ‖(z_i, F_i)‖ of the complementarity rows into radius
  // (for ∂φ/∂a, ∂φ/∂b at the point, PhiJacobian).
  double Merit(const Eigen::VectorXd& z, const Eigen::VectorXd& F, Eigen::VectorXd* phi,
               Eigen::VectorXd* radius) const;
  // ∂φ/∂a, ∂φ/∂b from z, F (H = diag(∂φ/∂b) J + diag(∂φ/∂a) is not formed: the Newton system
  // and ∇Ψ use J and them).
  void PhiJacobian();
  // H itself into H_ (for the Levenberg–Marquardt step and phi_jacobian()).
  void PhiJacobianMatrix();
  bool NewtonDirection();
  // d_ from M d = rhs_, M = diag(row_scale) J_ + diag(diagonal) (null: ones, zeros), where the
  // rows i with unit_[i] are pivot_[i] e_iᵀ (SchurLu on the rest).
  // With kept_factor_jacobian set, M is not factorised: the last factorisation is used as it is
  // (the chord step), and the unit rows' columns are read from that matrix (the J it was of).
  bool SolveWithUnitRows(const double* row_scale, const double* diagonal,
                         const Eigen::MatrixXd* kept_factor_jacobian = nullptr);
  // The chord step from z_ (the .cc); true when it moved.
  bool ChordStep(MixedNcpFunction& function, int iteration);
  bool chord_ = false;        // LineSearch evaluates the chord step (without J)
  bool chord_ready_ = false;  // the last step allows a chord step next (LineSearch)
  // lu_, unit_ and pivot_ hold the last Newton direction's system (not the switched or min-Newton
  // direction's, which factorise into the same storage).
  bool newton_factor_ = false;
  bool MinNewtonDirection();
  bool LevenbergMarquardtDirection();
  // Backtracking from z_ along d_ against reference merit `reference`; on success z_, F_,
  // phi_, merit_ hold the new point (and J_ when jacobian_current_).
  // `iteration`: k, the index of the direction's iteration.
  bool LineSearch(MixedNcpFunction& function, double reference, bool newton, int iteration,
                  int first_backtrack, int last_backtrack);
  bool LineSearch(MixedNcpFunction& function, double reference, bool newton, int iteration) {
    return LineSearch(function, reference, newton, iteration, 0, settings_.max_backtracks);
  }
  // Whether the full Newton step of iteration k from a residual ‖Φ‖∞ is expected to end the
  // iterations (the contraction C, above).
  bool ExpectedLast(int iteration, double residual) const;
  // C‖Φ‖∞² of that step (the contraction C above).
  double PredictedResidual(int iteration, double residual) const;
  // Whether the chord step after the full Newton step of iteration k, from a residual `before`
  // to `after`, is expected to end the iterations (the .cc).
  bool ChordExpected(int iteration, double before, double after) const;
  // F + J d at z_ into *model, on the complementarity rows (the others are not written).
  void ModelFunction(const Eigen::VectorXd& d, Eigen::VectorXd* model) const;
  // z + d and F + J d for the Newton direction d_ into model_z_, model_F_ (complementarity
  // rows), F + J d from the Newton system's own rows where it can (the .cc).
  void NewtonModelFunction();
  // Whether min(z_i, F_i) < −switch_threshold for a complementarity i.
  bool Crosses(const Eigen::VectorXd& z, const Eigen::VectorXd& F) const;
  // The switched direction into d_ from the model point model_z_, model_F_ of the Newton
  // direction (which it keeps in newton_d_); false (d_ the Newton direction again) when a
  // system is singular.
  bool SwitchedDirection();
  Eigen::VectorXd newton_d_, model_z_, model_F_;
  std::vector<int> complementarity_;  // the complementarity indices, increasing
  bool record_contraction_ = true;    // LineSearch records C (false for the switched direction)
  // J_ at z_ (evaluated when not current); false when F cannot be evaluated there.
  bool UpdateJacobian(MixedNcpFunction& function);
  double last_step_ = 0.0;  // the last accepted line-search t
  void Finish(SolverStatus status, const char* why);

  int n_ = -1;
  std::vector<NcpKind> kinds_;
  MixedNcpSettings settings_;
  MixedNcpResult result_;
  Eigen::VectorXd z_, F_, phi_, gradient_, d_, trial_z_, trial_F_, trial_phi_, rhs_;
  Eigen::MatrixXd J_, H_, normal_, trial_J_;
  bool jacobian_current_ = false;      // J_ is the Jacobian at z_
  bool phi_jacobian_current_ = false;  // H_ is ∂Φ at z_
  // C in ‖Φ_{k+1}‖∞ ≈ C‖Φ_k‖∞² of the last full Newton step (kept across solves), ∞ unknown.
  double contraction_ = 0.0;
  // The same per iteration index k (of the last solve whose step k was a full Newton step), ∞
  // unknown: the prediction uses it when known (Setup sizes it).
  std::vector<double> contractions_;
  // The iterate of least merit so far: returned when the iterations end on a worse one.
  Eigen::VectorXd best_z_, best_F_, best_phi_;
  double best_merit_ = 0.0;
  bool best_is_current_ = false;  // the best iterate is z_ (best_z_, … not written)
  double residual_ = 0.0;         // ‖Φ‖∞ at z_ (phi_), kept with it
  SchurLu lu_;
  Eigen::VectorXd da_, db_;  // ∂φ/∂a, ∂φ/∂b per row (free rows: 0, 1), from PhiJacobian
  // ‖(z_i, F_i)‖ of the complementarity rows at z_ (kept with phi_) and at the trial point.
  Eigen::VectorXd radius_, trial_radius_;
  std::vector<unsigned char> unit_;  // rows that are multiples of a unit row
  Eigen::VectorXd pivot_, reduced_;  // their multiples; the reduced system's right side
  Eigen::VectorXd scaled_phi_;       // ∂φ/∂b ∘ Φ
  std::vector<int> keep_;            // the other rows
  Eigen::PartialPivLU<Eigen::MatrixXd> normal_lu_;
  std::vector<double> merits_;       // Ψ_k of every iteration
  std::vector<double> best_merits_;  // min_{j <= k} Ψ_j
  double merit_ = 0.0;
};

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateMixedNcpSettings(const MixedNcpSettings& settings);

// φ(a, b) = a + b − √(a² + b²), evaluated without cancellation (2ab / (a + b + √(a² + b²))
// when a + b > 0).
double FischerBurmeister(double a, double b);

}  // namespace quasidyn
