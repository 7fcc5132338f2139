#pragma once
// The equality-constrained KKT system of a step's sensitivity,
//   [ H    E ᵀ ] [  dv ]   [ r₁ ]
//   [ E    0   ] [ −dβ ] = [ r₂ ],     H = Cᵀ C positive definite (n × n),  E = G_𝒜 (|𝒜| × n),
// solved in the velocities whitened by the block factor of H (positive_definite_factor.h),
// x = C dv, where it reads min ½|x|² − yᵀx s.t. Wᵀx = r₂ with y = C⁻ᵀr₁ and W = C⁻ᵀE ᵀ (the
// range-space method, Nocedal & Wright, "Numerical Optimization", 2nd ed., §16.2, done in
// velocity space so that its cost does not grow with |𝒜|, which exceeds n when boxes rest
// face on face). With M = W Wᵀ (n × n), M⁺ its pseudo-inverse and N an orthonormal basis of
// null(M) = range(W)^⊥,
//   x = N Nᵀ y + M⁺ W r₂ = x₀ + N Nᵀ (y − x₀),   x₀ any solution of M x₀ = W r₂,   dv = C⁻¹ x.
// The problem in x splits into independent ones: M = Σ_{j∈𝒜} w_j w_jᵀ couples two whitened
// velocities only when one row w_j has both (a contact row touches the velocities of its two
// bodies' chains), so the connected components of that graph (found by union–find over the
// rows' non-zero entries) are the diagonal blocks of M after a permutation, and each is solved
// alone, on the right-hand sides that are non-zero on it (a direction moves only the contacts
// of the bodies below its joint). A velocity no row touches has x_i = y_i. On a scene of
// resting boxes this is a handful of blocks of one to three bodies' velocities instead of one
// n × n system. Per block, M_c is factored by the diagonally pivoted LDLᵀ Π M_c Πᵀ = L D Lᵀ
// (Golub & Van Loan, "Matrix Computations", 4th ed., §4.2.9, rank-revealing for M ⪰ 0; pivots
// below 1e-10 × the largest pivot of all blocks are zero, the threshold of one factorisation
// of the whole M, whose pivots are those of the blocks). The zero pivots k give null(M_c)
// exactly: M_c Πᵀ L⁻ᵀ e_k = Πᵀ L D e_k = 0, and Gram–Schmidt (twice) on these few makes N_c
// orthonormal; x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W r₂.
// Only N_c is dense work per right-hand side beyond two triangular solves, and for r₂ = 0
// x = N Nᵀ y. The solves use only the leading block of L up to the last kept pivot (D⁺ is zero
// past it, so the rest of L⁻¹'s rows are discarded and L⁻ᵀ of a vector zero there stays zero
// there). A small block with fewer rows than velocities, all clearly independent, forms the
// same operators from the Gram matrix G = W_cᵀ W_c instead: M_c⁺ W_c = W_c G⁻¹ and
// N Nᵀ = I − W_c G⁻¹ W_cᵀ (FormGramOperators).
// When E is rank deficient (more active rows than the velocities they constrain, e.g. a box
// flat on the ground: 16 pyramid rows on 6 velocities) the multipliers are not unique but dv
// is, and r₂ enters through its orthogonal projection onto range(E): the rows hold in the
// least-squares sense when the perturbed ones are inconsistent. Deterministic and finite for
// every input.
//
// Users: the pyramid QP's sensitivity (qp_gradient.h, H = P, E its active pyramid and limit
// rows) and the exact-cone SOCP's (socp_gradient.h, H = P plus the sliding cones' curvature,
// E the directions the cones hold fixed).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "quasidyn/gradients/kept_capacity_matrix.h"
#include "quasidyn/gradients/positive_definite_factor.h"

namespace quasidyn {

class RangeSpaceKkt {
 public:
  // r₂ᵀ by active row: row a (0 … |𝒜| − 1, the order of `active` in FactorRows) holds the
  // entries r₂(a, t) of the right-hand sides t it is non-zero in, in CSR form (start: |𝒜| + 1;
  // index: t, each < r2_columns, any order, no repeats within a row; value). A row of the step
  // touches the directions that move its contact's two bodies only, so this holds the key's
  // columns rather than r2_columns × |𝒜| mostly zero entries.
  using R2Rows = PositiveDefiniteFactor::SparseRows;

  // Buffers of a solve, kept between calls by the caller.
  struct Workspace {
    Eigen::MatrixXd x;             // the result dv (n × c)
    std::vector<int> columns;      // a block's right-hand sides with r₂ ≠ 0 on it
    std::vector<int> column_slot;  // per right-hand side, its place in `columns` (−1: none)
    R2Rows r2_rows;                // the dense overload's r₂ᵀ by row
    std::vector<double> z, y;      // a large block's x₀ (size × |columns|) and one column of y
  };

  // Factors H = Cᵀ C (PositiveDefiniteFactor::Factor: only the lower triangle is read).
  // Returns false, and nothing may be solved, when H is not numerically positive definite.
  bool FactorCost(const Eigen::MatrixXd& H);
  // The same, but the factor is kept when H's lower triangle (all Factor reads) equals, entry
  // for entry, that of the H this method factored last with no FactorCost call since: the
  // step's P is often the same from call to call (cubes, whose M_u does not turn with q, and a
  // diagonal K_a: P = blockdiag(s·M_u, h²K_a)). Costs one comparison, and one copy of H when
  // it changed; for a cost that changes on every call (the SOCP's) FactorCost is cheaper.
  bool FactorCostReusing(const Eigen::MatrixXd& H);
  // C, for whitening the rows of E: cost_factor().WhitenRows(G, &whitened).
  const PositiveDefiniteFactor& cost_factor() const { return cost_factor_; }

  // Finds the blocks of M and factors them, after FactorCost. whitened: w_j = C⁻ᵀ g_jᵀ of every
  // row g_j of some G (cost_factor().WhitenRows); active: the rows of G that make E, in the
  // order of r₂'s columns. Copies what it needs (neither is read after this call). Reuses this
  // object's storage, each buffer kept at its largest use: a call with blocks that earlier
  // calls have met (a batch's second pass over the same points) allocates nothing.
  // Throws std::invalid_argument for an active row outside the whitened rows or when H has not
  // been factored.
  void FactorRows(const PositiveDefiniteFactor::SparseRows& whitened,
                  const std::vector<int>& active);

  // rank(E) (the sum of the blocks' ranks).
  int rank() const { return rank_; }
  // The independent blocks of the whitened system: their count and sizes.
  int block_count() const { return block_count_; }
  int block_size(int b) const { return static_cast<int>(blocks_[b].indices.size()); }

  // dv (n × c) into w->x from r₁ (n × c) and r₂ᵀ (r2_columns × |𝒜|): r₂ is zero in r₁'s other
  // columns, which come last. dv = H⁻¹ r₁ when no row is active.
  void Solve(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed, int r2_columns,
             Workspace* w) const;
  // The same with r₂ᵀ by active row (R2Rows): nothing of size r2_columns × |𝒜| is formed or
  // zeroed. Throws std::invalid_argument when r2_rows has not |𝒜| rows or an index is outside
  // 0 … r2_columns − 1.
  void Solve(const Eigen::MatrixXd& r1, const R2Rows& r2_rows, int r2_columns, Workspace* w) const;

 private:
  using Factor = Eigen::LDLT<Eigen::MatrixXd>;

  // One diagonal block of M (header comment). Its buffers keep the storage of their largest
  // shape (kept_capacity_matrix.h): a block's velocities and rows change with the active set,
  // and once every shape has been met a factorisation allocates nothing.
  struct Block {
    std::vector<int> indices;  // its velocity indices, increasing
    std::vector<int> rows;     // its active rows, as positions in `active` (columns of r₂ᵀ)
    KeptCapacityMatrix W;      // W_c: the rows' w_j on the block's velocities (size × |rows|)
    // Per row q, the places of its non-zeros in W_c lie in row_first[q] … row_end[q] − 1.
    std::vector<int> row_first, row_end;
    KeptCapacityMatrix M;               // M_c = W_c W_cᵀ, lower triangle (size × size)
    const Factor* factor = nullptr;     // Π M_c Πᵀ = L D Lᵀ (one of factors_by_size_[size])
    std::vector<double> pivot_inverse;  // D⁺: 1/D_i on the kept pivots, 0 on the zero ones
    int rank = 0;
    int leading = 0;                  // 1 + the index of the last kept pivot
    KeptCapacityMatrix N;             // orthonormal basis of null(M_c) (size × nullity)
    KeptCapacityMatrix N_transposed;  // Nᵀ, large blocks with a null space only (SolveBlock)
    // Small blocks (at most kSmallBlock velocities) only, formed once per factorisation:
    // K = (I − N Nᵀ) S W_c (size × |rows|), S = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π so that x₀ = S W_c r₂,c, and
    // Q = N Nᵀ (size × size, empty when N is). The solve is then x_c = K r₂,c + Q y_c, the
    // same x as x₀ + N Nᵀ (y − x₀) without the per-column set-up.
    KeptCapacityMatrix K, Q;
    // K and Q came from the Gram matrix G = W_cᵀ W_c (fewer rows than velocities, all
    // independent: K = W_c G⁻¹, Q = I − K W_cᵀ; M, factor, N and the pivots are not formed).
    bool gram = false;
  };

  void FindBlocks(const PositiveDefiniteFactor::SparseRows& whitened,
                  const std::vector<int>& active);
  void FactorBlocks(const PositiveDefiniteFactor::SparseRows& whitened,
                    const std::vector<int>& active);
  // Block::K and Block::Q of a factored small block of rank > 0.
  static void FormSmallOperators(Block* block);
  // The Gram path (Block::gram) for a small block with fewer rows than velocities: returns
  // false, the block unchanged, when a pivot of G fails the tolerance
  // (range_space_kkt.cc); largest: the largest pivot of every block's M.
  static bool FormGramOperators(double largest, Block* block);
  // x on a large block: x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W_c r₂,c on the right-hand sides with r₂ ≠ 0 on
  // it, all of them together, then x = x₀ + N Nᵀ (y − x₀) (N Nᵀ y where r₂ = 0), by plain
  // loops on the block's own arrays.
  static void SolveBlock(const Block& block, const R2Rows& r2_rows, int r2_columns, Workspace* w);
  // x_c = K r₂,c + Q y_c on every column (Block::K, Block::Q), for a small block.
  static void SolveSmallBlock(const Block& block, const R2Rows& r2_rows, Workspace* w);

  PositiveDefiniteFactor cost_factor_;
  bool cost_factored_ = false;
  bool cost_kept_ = false;     // kept_cost_ is the H that cost_factor_ factors
  Eigen::MatrixXd kept_cost_;  // FactorCostReusing's last H
  int active_count_ = 0;       // |𝒜|, the columns of r₂ᵀ
  int rank_ = 0;
  // The blocks of M: blocks_[0 … block_count_ − 1] (the vector keeps more, for reuse), and
  // per velocity its block (−1 when no active row touches it) and its place in it.
  std::vector<Block> blocks_;
  int block_count_ = 0;
  std::vector<int> block_of_, place_in_block_, union_parent_;
  std::vector<int> zero_pivots_;  // FactorBlocks' scratch: a block's zero pivots
  // The blocks' factors by size: factors_by_size_[s] holds as many factors of s × s matrices
  // as the most blocks of s velocities one call has had (Eigen's LDLT keeps its storage while
  // its size is the same); factors_used_[s] counts those of the current call (0 between
  // calls).
  std::vector<std::vector<Factor>> factors_by_size_;
  std::vector<int> factors_used_;
};

}  // namespace quasidyn
