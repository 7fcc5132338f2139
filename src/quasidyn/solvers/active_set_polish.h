#pragma once
// Solution polishing for the interior-point solvers (qp.h, socp.h), as OSQP does it (Stellato,
// Banjac, Goulart, Bemporad & Boyd, "OSQP: an operator splitting solver for quadratic
// programs", Math. Prog. Comp. 2020, §5.2): from the interior-point answer, guess which
// constraints are active, solve the equality-constrained problem on them exactly, and keep the
// result only when its KKT residual is smaller and its stationarity no worse. Interior-point
// answers stop at a tolerance: a contact that is open carries a multiplier of the order of the
// tolerance (1e-9 … 6e-8 N of "phantom" force), and at a degenerate point (a contact closing
// exactly at the step's end) both the multiplier and the slack are small and the answer can be 5e-4
// N off. The polished answer has exact zeros where the constraint is inactive.
//
// Problems (both solvers, in the stacked-block layout of constraint_blocks.h):
//   minimise ½ xᵀ Q x + cᵀ x   subject to   u_k = A_k x + b_k ∈ K_k  (k = 0 … K−1),
// K_k the half line (a 1-row block: a QP row) or a second-order cone (m_k rows), with duals
// z_k ∈ K_k, Q x + c − Σ_k A_kᵀ z_k = 0, u_kᵀ z_k = 0.
//
// 1. Active set, from w_k = z_k − u_k and its spectral values σ₁ = w₀ − ‖w₁‖ <= σ₂ = w₀ + ‖w₁‖
//    (the Moreau split z = Π_K(w), u = Π_K(−w) at the exact solution; the cases of
//    formulations/programs/socp_gradient.h, with unit scale): σ₁ > 0 binding (u_k = 0: P_k = I);
//    σ₂ <= 0 inactive (z_k = 0: P_k = 0); otherwise sliding on the cone's boundary, ŵ =
//    w₁/‖w₁‖: u_k ⟂ l̂ = (1, ŵ)/√2 exactly (P_k = l̂ l̂ᵀ) and, across the slip (the directions
//    e ⟂ ŵ of the tangent plane), the linearised turn of ŵ: z_e = −(α/β) u_e with z ≈ α(1, ŵ),
//    u ≈ β(1, −ŵ) at the guess (S_k = (α/β)(0 ⊕ (I − ŵŵᵀ)), z_k = z_h − S_k u_k, z_h along
//    l̂). For a half line: active when z_k > u_k.
// 2. The equality problem  min ½ xᵀQx + cᵀx  s.t.  P_k (A_k x + b_k) = 0,  z_k = P_k z_k
//    (+ the sliding cones' −S_k u_k), solved through its regularised KKT system (δ on the
//    multipliers, OSQP's δ): eliminating z_k = −P_k (A_k x + b_k)/δ − S_k u_k gives the normal
//    matrix Q + Σ A_kᵀ (P_k/δ + S_k) A_k (+ a tiny δ_x I)
//    of block_normal_matrix.h, then iterative refinement against the unregularised system
//    (Nocedal & Wright §16.6 / OSQP's polish_refine_iter) until its error stops falling or
//    reaches the rounding floor (PolishSettings::rounding_floor), the dual error against the
//    dual terms (‖Q x‖, ‖c‖, ‖Aᵀ z‖), the primal error against ‖A x‖, ‖b‖; each error counts
//    only above its own floor (an error at its floor moves by an ulp from pass to pass, which
//    must not decide whether the other's correction is kept). A sliding block's products with
//    P_k = ½ a aᵀ (a = (1, ŵ)) are taken as a t, t = ½ aᵀ v, and its multiplier correction as
//    a (t₁ − t₂)/δ, a difference of scalars: the difference of the two projected vectors,
//    each along a only to its rounding (ε · 0.05 where the slip speed is 0.05), left 1e-10 of
//    force across the ray after the division by δ, which no later pass corrects (the
//    corrections lie along a); the force then sat 1e-11 outside its cone and the rounds
//    stalled there (the fingers' ball of tests/reference, the Allegro hand).
// 3. Rounds (PolishSettings::max_rounds): the guess of step 1 made again from the polished
//    answer, then step 2 again, while the guess changes or a cone slides and the residual
//    falls by half at least. A primal–dual active-set step (Hintermüller, Ito & Kunisch 2002:
//    the guess from w = z − u is their semismooth Newton step): a QP row whose multiplier came
//    out negative leaves the active set (four pyramid rays of a sticking contact, dependent,
//    their least-norm multipliers one negative), a row the answer violates enters it; a
//    sliding cone's boundary condition is nonlinear (the slip direction ŵ sets P_k) and the
//    rounds iterate ŵ from the polished w = z − u to rounding. The round of least residual is
//    kept.
// 4. Acceptance: the KKT residual of both answers, the largest of ‖Q x + c − Aᵀ z‖∞, the cone
//    violations of u and z (max(0, −(t − ‖s‖))) and the complementarity max_k ‖u_k ∘ z_k‖∞
//    (the Jordan product (uᵀz, u₀ z₁ + z₀ u₁): first order in a sliding cone's misaligned slip,
//    where uᵀz is second order; |u_k z_k| for a row); the
//    polished answer replaces the interior-point one only when its residual is smaller and its
//    stationarity ‖Q x + c − Aᵀ z‖∞ no larger (or at most rounding_floor · ε of its terms).
//
// Setup sizes everything (and may allocate); Polish does not allocate.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/solvers/block_normal_matrix.h"
#include "quasidyn/solvers/polish_normal_system.h"
#include "quasidyn/solvers/polish_settings.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

class ActiveSetPolisher {
 public:
  // Q (n × n), A the stacked blocks (offset, dim as block_normal_matrix.h). Copies them into
  // the polish's own normal matrix; keeps the sparse analysis when the pattern is that of the
  // last Setup.
  void Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A, const std::vector<int>& offset,
             const std::vector<int>& dim, const SparsePathRule& rule);
  // The polish of a problem whose normal matrix the caller lends at each Polish (n variables,
  // `rows` rows of A in the blocks offset, dim): no copy of Q or A, no pattern; the polish's
  // own normal matrix is released.
  void SetupLent(int n, int rows, const std::vector<int>& offset, const std::vector<int>& dim);
  // New values on the same patterns; no allocation (nothing to do after SetupLent).
  void UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A);

  // Polishes the answer (x, z) of  min ½xᵀQx + cᵀx  s.t.  A x + b ∈ K  (z stacked like A's
  // rows). When the polished answer is better, overwrites x and z with it and returns true.
  // `info` is filled either way. `lent` is the normal matrix to use after SetupLent (required
  // then; null after Setup: the polish's own). `dual_residual`, when given, is Q x + c − Aᵀ z at
  // the (x, z) passed in, computed with the products of `lent` (the interior point's own last
  // r_d): the residual of (x, z) then takes no products with Q and Aᵀ. No allocation.
  bool Polish(const Eigen::VectorXd& c, const Eigen::VectorXd& b, const PolishSettings& settings,
              Eigen::VectorXd* x, Eigen::VectorXd* z, PolishInfo* info,
              PolishNormalSystem* lent = nullptr, const Eigen::VectorXd* dual_residual = nullptr);

  // The KKT residual of the header, step 4, of (x, z); from dual_residual = Q x + c − Aᵀ z when
  // given (no products with Q and Aᵀ).
  double Residual(const Eigen::VectorXd& c, const Eigen::VectorXd& b, const Eigen::VectorXd& x,
                  const Eigen::VectorXd& z, const Eigen::VectorXd* dual_residual = nullptr);

  // After Polish returned true: u = A x + b and Q x at the polished x (the products the
  // residual was computed from), so that the caller needs no products of its own.
  const Eigen::VectorXd& polished_rows() const { return u_; }
  const Eigen::VectorXd& polished_cost_product() const { return qx_; }

 private:
  enum class BlockKind : signed char { kInactive, kBinding, kSliding };
  // Classifies every block from u_ = A x + b (Residual's or SolveActiveSet's) and z; fills
  // projections_ (P_k) and kinds_; counts into info. Returns how many blocks changed kind.
  // δ: PolishSettings::delta (the stiffest turn of a sliding cone, 1/δ).
  int Classify(const Eigen::VectorXd& z, double delta, PolishInfo* info);
  // full_z_ = z_ − S u_ (S_k of the sliding blocks, softs_).
  void FullMultipliers();
  // One solve of the equality problem of projections_ (header, step 2), into x_, z_ (u_, qx_,
  // stationarity_, dual_term_ and at_rounding_ theirs); returns their KKT residual (infinite
  // when not finite). The normal matrix must be factorised.
  double SolveActiveSet(const Eigen::VectorXd& c, const Eigen::VectorXd& b,
                        const PolishSettings& settings);
  // out_k = P_k in_k for every block (the kinds of the last Classify); a sliding block's
  // exactly a multiple of its a (SetAlongSlidingRay).
  void Project(const Eigen::VectorXd& in, Eigen::VectorXd* out) const;
  // ½ aᵀ v_k of sliding block k: P_k = ½ a aᵀ, a = (1, ŵ) (header, step 1).
  double SlidingComponent(size_t k, const Eigen::VectorXd& v) const;
  // out_k = a t for sliding block k.
  void SetAlongSlidingRay(size_t k, double t, Eigen::VectorXd* out) const;
  // The refinement's multiplier correction dz_ = (e2_ − P A dx)/δ from a_dx = A dx (header,
  // step 2); a sliding block's difference is taken of the two scalars along a, so that dz_k is
  // exactly along a.
  void MultiplierStep(const Eigen::VectorXd& a_dx, double delta);
  // max over the blocks of the cone violations of u and z and of ‖u_k ∘ z_k‖∞ (header, step 4).
  double BlockResidual(const Eigen::VectorXd& u, const Eigen::VectorXd& z) const;

  void SizeWorkspace(int n, int rows);

  std::unique_ptr<BlockNormalMatrix> normal_;  // the polish's own (Setup; none after SetupLent)
  bool lent_ = false;                          // SetupLent: the caller's normal matrix
  PolishNormalSystem* system_ = nullptr;       // the one the running Polish uses
  std::vector<int> offset_, dim_;
  // Every block is one row (the QP's): P is diagonal (0 or 1), so the projections and the
  // block residual are coefficient-wise (the same values as the general loops).
  bool single_rows_ = false;
  Eigen::MatrixXd projections_, weights_;  // rows × max dim: P_k, P_k/δ + S_k
  Eigen::MatrixXd softs_;                  // rows × max dim: S_k (sliding cones; else 0)
  bool soft_ = false;                      // some block slides: z = z_ − S u_ (full_z_)
  Eigen::VectorXd full_z_;
  Eigen::VectorXd x_, z_, dx_, dz_, u_, e1_, e2_, rows_, columns_, rhs_;
  Eigen::VectorXd qx_;  // Q x at the x of the last products (Residual, the refinement's passes)
  Eigen::VectorXd best_x_, best_z_, best_u_, best_qx_;  // the best round's x, z, u, Q x
  std::vector<BlockKind> kinds_;                        // the last guess, per block
  double stationarity_ = 0.0;  // ‖Q x + c − Aᵀ z‖∞ of the last Residual or SolveActiveSet
  double dual_term_ = 0.0;  // the largest of ‖Q x‖∞, ‖c‖∞, ‖Aᵀ z‖∞ at SolveActiveSet's end
  bool at_rounding_ = false;  // SolveActiveSet's refinement reached the rounding floor
  double sliding_scale_ = 0.0;  // the kept round's max(dual term, ‖u‖∞, ‖z‖∞, ‖u‖∞ ‖z‖∞)
  // The storage of the buffers above for other sizes (sized_storage_pool.h): a Setup for a
  // row count met before allocates nothing.
  SizedStoragePool storage_;
};

}  // namespace quasidyn
