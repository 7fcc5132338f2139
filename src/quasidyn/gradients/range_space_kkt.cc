#include "quasidyn/gradients/range_space_kkt.h"

#include <algorithm>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// Pivots of M = W Wᵀ below this fraction of the largest are numerically zero (M's entries
// carry rounding of ≈ 1e-16 × ‖M‖; conditioning up to 1e10 is still treated as regular).
constexpr double kRankTolerance = 1e-10;

// Blocks of at most this many velocities (the planar hand's: 7) form M_c and the null space
// entry by entry, and are solved through the two operators K and Q formed once per
// factorisation (Block::K, Block::Q; SolveSmallBlock): for them the per-column solve costs more
// than the arithmetic. Larger blocks (the arm's) keep Eigen's LDLᵀ and are solved by plain
// loops on the right-hand sides with r₂ ≠ 0 on them (SolveBlock).
constexpr int kSmallBlock = 12;

// A small block with fewer rows than velocities forms K and Q from the Gram matrix
// G = W_cᵀ W_c of its rows instead of M_c = W_c W_cᵀ when every pivot of G's diagonally
// pivoted LDLᵀ exceeds this fraction of its first (and the rank cut kRankTolerance of the
// largest pivot of M): rows independent with a margin of 1e4 over that cut. Otherwise (rows
// dependent or nearly so) the rank-revealing factorisation of M_c decides.
constexpr double kGramTolerance = 1e-6;

}  // namespace

bool RangeSpaceKkt::FactorCost(const Eigen::MatrixXd& H) {
  cost_factored_ = cost_factor_.Factor(H);
  cost_kept_ = false;
  block_count_ = 0;
  rank_ = 0;
  active_count_ = 0;
  return cost_factored_;
}

bool RangeSpaceKkt::FactorCostReusing(const Eigen::MatrixXd& H) {
  // A NaN entry never compares equal, so such an H is always factored (and rejected) anew.
  bool same = cost_factored_ && cost_kept_ && H.rows() == kept_cost_.rows() &&
              H.cols() == kept_cost_.cols();
  for (Eigen::Index j = 0; same && j < H.cols(); ++j)
    same =
        std::equal(H.col(j).data() + j, H.col(j).data() + H.rows(), kept_cost_.col(j).data() + j);
  if (!same) {
    FactorCost(H);
    if (cost_factored_) {
      kept_cost_ = H;
      cost_kept_ = true;
    }
  }
  block_count_ = 0;
  rank_ = 0;
  active_count_ = 0;
  return cost_factored_;
}

void RangeSpaceKkt::FactorRows(const PositiveDefiniteFactor::SparseRows& whitened,
                               const std::vector<int>& active) {
  QUASIDYN_CHECK_ARGUMENT(cost_factored_, "RangeSpaceKkt::FactorRows",
                          "H is not factored (FactorCost failed or was not called)");
  const int rows = static_cast<int>(whitened.start.size()) - 1;
  for (int j : active)
    QUASIDYN_CHECK_ARGUMENT(j >= 0 && j < rows, "RangeSpaceKkt::FactorRows",
                            "active row " + std::to_string(j) + " is not one of the " +
                                std::to_string(std::max(rows, 0)) + " whitened rows");
  block_count_ = 0;
  rank_ = 0;
  active_count_ = static_cast<int>(active.size());
  if (active.empty()) return;
  FindBlocks(whitened, active);
  FactorBlocks(whitened, active);
  for (int b = 0; b < block_count_; ++b) rank_ += blocks_[b].rank;
}

namespace {

// c ← Πᵀ L⁻ᵀ D⁺ L⁻¹ Π c on kColumns columns c[0 … kColumns − 1] of a block's `size` entries
// each, from the block's LDLᵀ with its kept pivots' inverses (header: D⁺ is zero past the
// `lead` kept pivots, so only L's leading block enters and c is zero past it before Πᵀ). L is
// column-major, L(i, j) = L[i + j·size]; Π applies the factor's transpositions in order, Πᵀ in
// reverse order. L⁻¹ goes by columns of L (contiguous, vectorisable): c_i − Σ_{j<i} L_ij c_j
// subtracted in the order j = 0, 1, …. The columns are taken side by side so that each entry
// of L is read once for all of them; each column's arithmetic is that of the column alone.
template <int kColumns>
void ApplyLeadingPseudoInverse(const double* L, const int* transposition,
                               const double* pivot_inverse, int size, int lead, double* const* c) {
  for (int m = 0; m < kColumns; ++m)
    for (int i = 0; i < size; ++i) std::swap(c[m][i], c[m][transposition[i]]);
  for (int j = 0; j + 1 < lead; ++j) {
    double c_j[kColumns];
    for (int m = 0; m < kColumns; ++m) c_j[m] = c[m][j];
    const double* l_column = L + static_cast<size_t>(j) * size;
    for (int i = j + 1; i < lead; ++i) {
      const double l = l_column[i];
      for (int m = 0; m < kColumns; ++m) c[m][i] -= l * c_j[m];
    }
  }
  for (int m = 0; m < kColumns; ++m)
    for (int i = 0; i < lead; ++i) c[m][i] *= pivot_inverse[i];
  for (int i = lead - 2; i >= 0; --i) {
    double sum[kColumns];
    for (int m = 0; m < kColumns; ++m) sum[m] = c[m][i];
    const double* l_column = L + static_cast<size_t>(i) * size;
    for (int j = i + 1; j < lead; ++j) {
      const double l = l_column[j];
      for (int m = 0; m < kColumns; ++m) sum[m] -= l * c[m][j];
    }
    for (int m = 0; m < kColumns; ++m) c[m][i] = sum[m];
  }
  for (int m = 0; m < kColumns; ++m) {
    for (int i = lead; i < size; ++i) c[m][i] = 0.0;
    for (int i = size - 1; i >= 0; --i) std::swap(c[m][i], c[m][transposition[i]]);
  }
}

// The same on `count` contiguous columns of `size` entries from `first`, two at a time.
void ApplyLeadingPseudoInverseToColumns(const double* L, const int* transposition,
                                        const double* pivot_inverse, int size, int lead,
                                        double* first, int count) {
  int s = 0;
  for (; s + 2 <= count; s += 2) {
    double* const pair[2] = {first + static_cast<size_t>(s) * size,
                             first + static_cast<size_t>(s + 1) * size};
    ApplyLeadingPseudoInverse<2>(L, transposition, pivot_inverse, size, lead, pair);
  }
  if (s < count) {
    double* const one[1] = {first + static_cast<size_t>(s) * size};
    ApplyLeadingPseudoInverse<1>(L, transposition, pivot_inverse, size, lead, one);
  }
}

int FindRoot(std::vector<int>* parent, int i) {
  while ((*parent)[i] != i) {
    (*parent)[i] = (*parent)[(*parent)[i]];  // path halving
    i = (*parent)[i];
  }
  return i;
}

}  // namespace

void RangeSpaceKkt::FindBlocks(const PositiveDefiniteFactor::SparseRows& whitened,
                               const std::vector<int>& active) {
  const int n = cost_factor_.size();
  // Union–find over the velocities: the non-zero entries of one active whitened row are
  // joined (M couples them).
  union_parent_.resize(n);
  for (int i = 0; i < n; ++i) union_parent_[i] = i;
  block_of_.assign(n, -1);  // first: touched (0) or not (−1)
  {
    // Plain pointers (no reload of the vectors' arrays after each store); the root found by
    // path halving, as FindRoot.
    int* const parent = union_parent_.data();
    int* const touched = block_of_.data();
    const int* const w_start = whitened.start.data();
    const int* const w_index = whitened.index.data();
    const double* const w_value = whitened.value.data();
    for (int j : active) {
      int root = -1;
      for (int e = w_start[j]; e < w_start[j + 1]; ++e) {
        if (w_value[e] == 0.0) continue;
        int other = w_index[e];
        touched[other] = 0;
        while (parent[other] != other) {
          parent[other] = parent[parent[other]];
          other = parent[other];
        }
        if (root < 0) {
          root = other;
        } else if (other != root) {
          parent[other] = root;
        }
      }
    }
  }
  // Number the blocks by their smallest velocity; indices come out increasing.
  place_in_block_.assign(n, -1);
  std::vector<int>& block_of_root = place_in_block_;  // reused below, per root first
  for (int i = 0; i < n; ++i) {
    if (block_of_[i] < 0) continue;
    const int root = FindRoot(&union_parent_, i);
    if (block_of_root[root] < 0) {
      block_of_root[root] = block_count_;
      if (block_count_ == static_cast<int>(blocks_.size())) blocks_.emplace_back();
      blocks_[block_count_].indices.clear();
      blocks_[block_count_].rows.clear();
      ++block_count_;
    }
    block_of_[i] = block_of_root[root];
  }
  for (int i = 0; i < n; ++i) {
    if (block_of_[i] < 0) continue;
    std::vector<int>& indices = blocks_[block_of_[i]].indices;
    indices.push_back(i);
  }
  for (int b = 0; b < block_count_; ++b) {
    const std::vector<int>& indices = blocks_[b].indices;
    for (int k = 0; k < static_cast<int>(indices.size()); ++k) place_in_block_[indices[k]] = k;
  }
  for (int r = 0; r < static_cast<int>(active.size()); ++r) {
    const int j = active[r];
    for (int e = whitened.start[j]; e < whitened.start[j + 1]; ++e) {
      if (whitened.value[e] == 0.0) continue;
      blocks_[block_of_[whitened.index[e]]].rows.push_back(r);
      break;
    }
    // A row with w_j = 0 adds nothing to M and nothing to W r₂: in no block.
  }
}

void RangeSpaceKkt::FactorBlocks(const PositiveDefiniteFactor::SparseRows& whitened,
                                 const std::vector<int>& active) {
  // W_c (the block's whitened rows as columns, dense on its velocities), and the largest
  // pivot of the diagonally pivoted LDLᵀ of every M_c = W_c W_cᵀ, which is its largest
  // diagonal entry Σ_q W_c(i, q)² (the first pivot; the later ones are diagonal entries of
  // Schur complements, no larger for M_c ⪰ 0).
  double largest = 0.0;
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    const int size = static_cast<int>(block.indices.size());
    const int rows = static_cast<int>(block.rows.size());
    block.W.SetZero(size, rows);
    block.row_first.resize(rows);
    block.row_end.resize(rows);
    for (int q = 0; q < rows; ++q) {
      const int j = active[block.rows[q]];
      // The places of the row's non-zeros, first … end − 1: its entries' indices increase, and
      // so do their places in the block (the block's indices increase).
      int first = -1, end = 0;
      double* const w_column = block.W.col(q);
      for (int e = whitened.start[j]; e < whitened.start[j + 1]; ++e)
        if (whitened.value[e] != 0.0) {
          const int k = place_in_block_[whitened.index[e]];
          w_column[k] = whitened.value[e];
          if (first < 0) first = k;
          end = k + 1;
        }
      block.row_first[q] = std::max(first, 0);
      block.row_end[q] = end;
    }
    for (int i = 0; i < size; ++i) {
      double sum = 0.0;
      for (int q = 0; q < rows; ++q) sum += block.W(i, q) * block.W(i, q);
      largest = std::max(largest, sum);
    }
  }
  // M_c (its lower triangle, all the factorisation reads) and its factor, or the Gram path.
  // Each factored block takes an unused factor of its size (made when this call has more
  // blocks of that size than any call before), once every block has counted its size (a new
  // factor may move those of its size): the first pass counts up, the second takes them back
  // down, which leaves every count at 0 for the next call.
  const int n = cost_factor_.size();
  if (static_cast<int>(factors_by_size_.size()) < n + 1) {
    factors_by_size_.resize(n + 1);
    factors_used_.resize(n + 1, 0);
  }
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    const int size = static_cast<int>(block.indices.size());
    const int rows = static_cast<int>(block.rows.size());
    block.gram = size <= kSmallBlock && rows < size && FormGramOperators(largest, &block);
    if (block.gram) continue;
    if (factors_used_[size]++ == static_cast<int>(factors_by_size_[size].size())) {
      // A default-constructed LDLT leaves its status unset, and the vector's growth moves it,
      // reading that status (UBSan: "not a valid value for type 'ComputationInfo'"); factoring
      // the empty matrix sets it. The block's own matrix is factored below.
      factors_by_size_[size].emplace_back().compute(Eigen::MatrixXd(0, 0));
    }
  }
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    if (block.gram) continue;
    const int size = static_cast<int>(block.indices.size());
    const int rows = static_cast<int>(block.rows.size());
    Factor& factor = factors_by_size_[size][--factors_used_[size]];
    block.factor = &factor;
    block.M.SetZero(size, size);
    if (size <= kSmallBlock) {
      for (int i = 0; i < size; ++i)
        for (int k = 0; k <= i; ++k) {
          double sum = 0.0;
          for (int q = 0; q < rows; ++q) sum += block.W(i, q) * block.W(k, q);
          block.M(i, k) = sum;
        }
    } else {
      block.M.view().selfadjointView<Eigen::Lower>().rankUpdate(block.W.view());
    }
    factor.compute(block.M.view());
  }
  std::vector<int>& zero_pivots = zero_pivots_;
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    if (block.gram) continue;
    const int size = static_cast<int>(block.indices.size());
    const auto D = block.factor->vectorD();  // a view of the factor (a VectorXd would copy it)
    // Eigen's pivoting does not always leave the zero pivots last (an exactly zero column is
    // skipped in place), so every pivot is tested.
    block.pivot_inverse.assign(size, 0.0);
    zero_pivots.clear();
    for (int i = 0; i < size; ++i) {
      if (D[i] > kRankTolerance * largest)
        block.pivot_inverse[i] = 1.0 / D[i];
      else
        zero_pivots.push_back(i);
    }
    block.rank = size - static_cast<int>(zero_pivots.size());
    block.leading = size;
    while (block.leading > 0 && block.pivot_inverse[block.leading - 1] == 0.0) --block.leading;
    const bool small = size <= kSmallBlock;
    if (zero_pivots.empty() || block.rank == 0) {
      // Full rank: no null space. Rank 0: x = y on the whole block (N = I, never formed).
      block.N.Resize(size, 0);
      if (small && block.rank > 0) FormSmallOperators(&block);
      continue;
    }
    // null(M_c) = span of Πᵀ L⁻ᵀ e_k over the zero pivots k (header), independent vectors
    // (L is unit triangular); modified Gram–Schmidt, each vector orthogonalised twice ("twice
    // is enough": Giraud, Langou & Rozložník, Comput. Math. Appl. 2005), makes them an
    // orthonormal basis of that span, which is all x = N Nᵀ y reads.
    const int nullity = static_cast<int>(zero_pivots.size());
    block.N.SetZero(size, nullity);
    KeptCapacityMatrix::View N = block.N.view();
    for (int c = 0; c < nullity; ++c) N(zero_pivots[c], c) = 1.0;
    if (small) {
      // Lᵀ is unit upper triangular: back substitution, column by column.
      const Eigen::MatrixXd& L = block.factor->matrixLDLT();
      for (int c = 0; c < nullity; ++c) {
        double* column = N.col(c).data();
        for (int i = size - 2; i >= 0; --i)
          for (int j = i + 1; j < size; ++j) column[i] -= L(j, i) * column[j];
      }
    } else {
      block.factor->matrixU().solveInPlace(N);
    }
    N = block.factor->transpositionsP().transpose() * N;
    for (int c = 0; c < nullity; ++c) {
      for (int pass = 0; pass < 2; ++pass)
        for (int d = 0; d < c; ++d) N.col(c) -= N.col(d).dot(N.col(c)) * N.col(d);
      N.col(c).normalize();
    }
    if (small)
      FormSmallOperators(&block);
    else {
      block.N_transposed.Resize(nullity, size);  // SolveBlock reads N's rows
      block.N_transposed.view() = N.transpose();
    }
  }
}

bool RangeSpaceKkt::FormGramOperators(double largest, Block* block) {
  const int size = static_cast<int>(block->indices.size());
  const int rows = static_cast<int>(block->rows.size());
  const double* W = block->W.data();  // column-major: W_c(k, q) = W[k + q·size]
  // G = W_cᵀ W_c in full (rows × rows, column-major in g), then its diagonally pivoted LDLᵀ
  // Π G Πᵀ = L D Lᵀ in place (Golub & Van Loan, "Matrix Computations", 4th ed., §4.2.9):
  // g(i, k) below the diagonal becomes L(i, k), g(k, k) the pivot d_k; perm[k] is the row of G
  // at place k.
  double g[kSmallBlock * kSmallBlock];
  int perm[kSmallBlock];
  for (int i = 0; i < rows; ++i) {
    perm[i] = i;
    for (int j = 0; j <= i; ++j) {
      double sum = 0.0;
      for (int k = 0; k < size; ++k) sum += W[k + i * size] * W[k + j * size];
      g[i + j * rows] = sum;
      g[j + i * rows] = sum;
    }
  }
  double first = 0.0;
  for (int k = 0; k < rows; ++k) {
    int p = k;
    for (int i = k + 1; i < rows; ++i)
      if (g[i + i * rows] > g[p + p * rows]) p = i;
    if (p != k) {
      std::swap(perm[k], perm[p]);
      for (int i = 0; i < rows; ++i) std::swap(g[k + i * rows], g[p + i * rows]);
      for (int i = 0; i < rows; ++i) std::swap(g[i + k * rows], g[i + p * rows]);
    }
    const double d = g[k + k * rows];
    if (k == 0) first = d;
    if (!(d > kGramTolerance * first && d > kRankTolerance * largest)) return false;
    for (int i = k + 1; i < rows; ++i) {
      const double l = g[i + k * rows] / d;
      for (int j = k + 1; j <= i; ++j) {
        g[i + j * rows] -= l * g[j + k * rows];
        g[j + i * rows] = g[i + j * rows];
      }
    }
    for (int i = k + 1; i < rows; ++i) g[i + k * rows] /= d;
  }
  // K = W_c G⁻¹ (= M_c⁺ W_c for W_c of full column rank), row by row: G Kᵀ's column i =
  // W_c's row i, solved through the factor; Q = I − K W_cᵀ, the projector onto null(W_cᵀ) =
  // null(M_c) (= N Nᵀ).
  block->K.Resize(size, rows);
  double* K = block->K.data();  // column-major, as W
  double z[kSmallBlock];
  for (int i = 0; i < size; ++i) {
    for (int k = 0; k < rows; ++k) z[k] = W[i + perm[k] * size];
    for (int k = 1; k < rows; ++k)
      for (int j = 0; j < k; ++j) z[k] -= g[k + j * rows] * z[j];
    for (int k = 0; k < rows; ++k) z[k] /= g[k + k * rows];
    for (int k = rows - 2; k >= 0; --k)
      for (int j = k + 1; j < rows; ++j) z[k] -= g[j + k * rows] * z[j];
    for (int k = 0; k < rows; ++k) K[i + perm[k] * size] = z[k];
  }
  // Q symmetric: its lower triangle, mirrored.
  block->Q.Resize(size, size);
  double* Q = block->Q.data();
  for (int j = 0; j < size; ++j)
    for (int i = j; i < size; ++i) {
      double sum = i == j ? 1.0 : 0.0;
      for (int q = 0; q < rows; ++q) sum -= K[i + q * size] * W[j + q * size];
      Q[i + j * size] = sum;
      Q[j + i * size] = sum;
    }
  block->rank = rows;
  block->N.Resize(size, 0);  // not formed: the small solve reads Q
  return true;
}

void RangeSpaceKkt::FormSmallOperators(Block* block) {
  const int size = static_cast<int>(block->indices.size());
  const int rows = static_cast<int>(block->rows.size());
  const int lead = block->leading;
  const double* L = block->factor->matrixLDLT().data();  // column-major, L(i, j) = L[i + j·size]
  const int* transposition = block->factor->transpositionsP().indices().data();
  const double* pivot_inverse = block->pivot_inverse.data();
  const double* N = block->N.data();
  const int nullity = block->N.cols();
  // K = (I − N Nᵀ) S W_c, S = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π, column by column, as SolveBlock forms x₀ from
  // W_c r₂: only L's leading block enters (D⁺ is zero past it). Π applies the factor's
  // transpositions in order, Πᵀ in reverse order.
  block->K.Resize(size, rows);
  double z[kSmallBlock], coordinates[kSmallBlock];
  for (int q = 0; q < rows; ++q) {
    for (int i = 0; i < size; ++i) z[i] = block->W(i, q);
    double* const z_column[1] = {z};
    ApplyLeadingPseudoInverse<1>(L, transposition, pivot_inverse, size, lead, z_column);
    for (int c = 0; c < nullity; ++c) {
      double sum = 0.0;
      for (int k = 0; k < size; ++k) sum += N[k + c * size] * z[k];
      coordinates[c] = sum;
    }
    for (int c = 0; c < nullity; ++c)
      for (int k = 0; k < size; ++k) z[k] -= N[k + c * size] * coordinates[c];
    double* column = block->K.col(q);
    for (int i = 0; i < size; ++i) column[i] = z[i];
  }
  // Q = N Nᵀ (symmetric; empty for a full-rank block).
  block->Q.Resize(nullity > 0 ? size : 0, nullity > 0 ? size : 0);
  for (int j = 0; j < block->Q.cols(); ++j) {
    double* column = block->Q.col(j);
    for (int i = 0; i < size; ++i) column[i] = 0.0;
    for (int c = 0; c < nullity; ++c) {
      const double n_jc = N[j + c * size];
      for (int i = 0; i < size; ++i) column[i] += N[i + c * size] * n_jc;
    }
  }
}

void RangeSpaceKkt::SolveSmallBlock(const Block& block, const R2Rows& r2_rows, Workspace* w) {
  const int size = static_cast<int>(block.indices.size());
  const int rows = static_cast<int>(block.rows.size());
  const bool projects = block.Q.size() > 0;
  Eigen::MatrixXd& x = w->x;  // y on entry
  const int* indices = block.indices.data();
  // Q y_c (zero when the block has full rank) on every column first, then K r₂,c added row by
  // row: each column gets the same sums in the same order as K r₂,c + Q y_c formed column by
  // column. Every product is a sum of columns (Q's, K's) scaled by one entry.
  double y[kSmallBlock], out[kSmallBlock];
  for (int t = 0; t < static_cast<int>(x.cols()); ++t) {
    double* column = x.col(t).data();
    for (int k = 0; k < size; ++k) out[k] = 0.0;
    if (projects) {
      for (int j = 0; j < size; ++j) y[j] = column[indices[j]];
      for (int j = 0; j < size; ++j) {
        if (y[j] == 0.0) continue;
        const double* q_column = block.Q.col(j);
        for (int k = 0; k < size; ++k) out[k] += q_column[k] * y[j];
      }
    }
    for (int k = 0; k < size; ++k) column[indices[k]] = out[k];
  }
  for (int q = 0; q < rows; ++q) {
    const int a = block.rows[q];
    const double* k_column = block.K.col(q);
    for (int e = r2_rows.start[a]; e < r2_rows.start[a + 1]; ++e) {
      const double entry = r2_rows.value[e];
      if (entry == 0.0) continue;
      double* column = x.col(r2_rows.index[e]).data();
      for (int k = 0; k < size; ++k) column[indices[k]] += k_column[k] * entry;
    }
  }
}

void RangeSpaceKkt::SolveBlock(const Block& block, const R2Rows& r2_rows, int r2_columns,
                               Workspace* w) {
  const int size = static_cast<int>(block.indices.size());
  const int rows = static_cast<int>(block.rows.size());
  const int lead = block.leading;
  const int nullity = block.N.cols();
  Eigen::MatrixXd& x = w->x;  // y on entry
  const int* indices = block.indices.data();
  // z = W_c r₂,c (size × with_r2, column-major) on the right-hand sides with r₂ ≠ 0 on the
  // block's rows, row by row of r₂ᵀ, each right-hand side given the next slot of z (zeroed)
  // where it first appears; each row on the span of its non-zeros in W_c (a contact row of
  // stacked boxes touches two of them).
  std::vector<int>& slot = w->column_slot;  // all −1 on entry, and again on return
  std::vector<int>& columns = w->columns;
  columns.resize(r2_columns);  // the first with_r2 are used
  std::vector<double>& z = w->z;
  if (z.size() < static_cast<size_t>(size) * r2_columns)
    z.resize(static_cast<size_t>(size) * r2_columns);
  int with_r2 = 0;
  {
    // Plain pointers: the stores into z cannot then make the compiler reload the rows' arrays.
    double* const z_data = z.data();
    int* const slot_of = slot.data();
    int* const column_of = columns.data();
    const int* const r2_start = r2_rows.start.data();
    const int* const r2_index = r2_rows.index.data();
    const double* const r2_value = r2_rows.value.data();
    const double* const W = block.W.data();
    for (int q = 0; q < rows; ++q) {
      const int a = block.rows[q];
      const int first = block.row_first[q], end = block.row_end[q];
      const double* w_column = W + static_cast<size_t>(q) * size;
      for (int e = r2_start[a]; e < r2_start[a + 1]; ++e) {
        const double entry = r2_value[e];
        if (entry == 0.0) continue;
        const int t = r2_index[e];
        if (slot_of[t] < 0) {
          slot_of[t] = with_r2;
          column_of[with_r2] = t;
          double* fresh = z_data + static_cast<size_t>(with_r2) * size;
          for (int k = 0; k < size; ++k) fresh[k] = 0.0;
          ++with_r2;
        }
        double* z_column = z_data + static_cast<size_t>(slot_of[t]) * size;
        for (int k = first; k < end; ++k) z_column[k] += w_column[k] * entry;
      }
    }
  }
  columns.resize(with_r2);
  // x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π z, column by column. D⁺ is zero past the last kept pivot, so only the
  // leading block of L enters (header), and x₀ is zero past it before Πᵀ. Π applies the
  // factor's transpositions in order, Πᵀ in reverse order.
  const double* L = block.factor->matrixLDLT().data();  // column-major, L(i, j) = L[i + j·size]
  const int* transposition = block.factor->transpositionsP().indices().data();
  const double* pivot_inverse = block.pivot_inverse.data();
  ApplyLeadingPseudoInverseToColumns(L, transposition, pivot_inverse, size, lead, z.data(),
                                     with_r2);
  // x = x₀ + N Nᵀ (y − x₀) on every column (x₀ = 0 where r₂ is; with no null space x = x₀).
  const double* N = block.N.data();                  // column-major, size × nullity
  const double* N_rows = block.N_transposed.data();  // Nᵀ column-major: N's rows contiguous
  std::vector<double>& d = w->y;  // y − x₀, then N's coordinates of it, then x
  d.resize(2 * static_cast<size_t>(size) + nullity);
  double* coordinates = d.data() + size;
  double* out = coordinates + nullity;
  for (int t = 0; t < static_cast<int>(x.cols()); ++t) {
    double* column = x.col(t).data();
    const int s = t < r2_columns ? slot[t] : -1;
    const double* x0 = s >= 0 ? z.data() + static_cast<size_t>(s) * size : nullptr;
    if (nullity == 0) {
      if (x0 != nullptr)
        for (int k = 0; k < size; ++k) column[indices[k]] = x0[k];
      else
        for (int k = 0; k < size; ++k) column[indices[k]] = 0.0;
      continue;
    }
    bool zero = true;
    if (x0 != nullptr) {
      for (int k = 0; k < size; ++k) d[k] = column[indices[k]] - x0[k];
    } else {
      for (int k = 0; k < size; ++k) {
        d[k] = column[indices[k]];
        zero = zero && d[k] == 0.0;
      }
      if (zero) continue;  // y = 0 and r₂ = 0 on the block: x = 0 = y there
    }
    // Nᵀ d and x₀ + N (Nᵀ d) as sums over k and over the null vectors in increasing order (as
    // the dot products they are), vectorised across the coordinates and across k.
    for (int c = 0; c < nullity; ++c) coordinates[c] = 0.0;
    for (int k = 0; k < size; ++k) {
      const double d_k = d[k];
      const double* n_row = N_rows + static_cast<size_t>(k) * nullity;
      for (int c = 0; c < nullity; ++c) coordinates[c] += n_row[c] * d_k;
    }
    if (x0 != nullptr)
      for (int k = 0; k < size; ++k) out[k] = x0[k];
    else
      for (int k = 0; k < size; ++k) out[k] = 0.0;
    for (int c = 0; c < nullity; ++c) {
      const double coordinate = coordinates[c];
      const double* n_column = N + static_cast<size_t>(c) * size;
      for (int k = 0; k < size; ++k) out[k] += n_column[k] * coordinate;
    }
    for (int k = 0; k < size; ++k) column[indices[k]] = out[k];
  }
  for (int t : columns) slot[t] = -1;
}

void RangeSpaceKkt::Solve(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                          int r2_columns, Workspace* w) const {
  QUASIDYN_CHECK_ARGUMENT(r2_columns >= 0 && r2_transposed.rows() >= r2_columns &&
                              r2_transposed.cols() == active_count_,
                          "RangeSpaceKkt::Solve",
                          "r2ᵀ must have at least r2_columns rows and one column per active row");
  R2Rows& r2_rows = w->r2_rows;
  r2_rows.start.assign(1, 0);
  r2_rows.index.clear();
  r2_rows.value.clear();
  for (int a = 0; a < active_count_; ++a) {
    const double* r2 = r2_transposed.col(a).data();
    for (int t = 0; t < r2_columns; ++t)
      if (r2[t] != 0.0) {
        r2_rows.index.push_back(t);
        r2_rows.value.push_back(r2[t]);
      }
    r2_rows.start.push_back(static_cast<int>(r2_rows.index.size()));
  }
  Solve(r1, r2_rows, r2_columns, w);
}

void RangeSpaceKkt::Solve(const Eigen::MatrixXd& r1, const R2Rows& r2_rows, int r2_columns,
                          Workspace* w) const {
  QUASIDYN_CHECK_ARGUMENT(cost_factored_, "RangeSpaceKkt::Solve", "H is not factored");
  QUASIDYN_CHECK_ARGUMENT(
      r1.rows() == cost_factor_.size() && r2_columns >= 0 && r2_columns <= r1.cols() &&
          static_cast<int>(r2_rows.start.size()) == active_count_ + 1 &&
          r2_rows.start.front() == 0 && r2_rows.index.size() == r2_rows.value.size() &&
          r2_rows.start.back() == static_cast<int>(r2_rows.index.size()),
      "RangeSpaceKkt::Solve",
      "r1 must have n rows and at least r2_columns columns, r2's rows one per active row");
  for (int a = 0; a < active_count_; ++a)
    QUASIDYN_CHECK_ARGUMENT(r2_rows.start[a] <= r2_rows.start[a + 1], "RangeSpaceKkt::Solve",
                            "r2's row starts must not decrease");
  for (int t : r2_rows.index)
    QUASIDYN_CHECK_ARGUMENT(t >= 0 && t < r2_columns, "RangeSpaceKkt::Solve",
                            "an entry of r2's rows is outside the r2_columns right-hand sides");
  Eigen::MatrixXd& x = w->x;
  x = r1;
  cost_factor_.SolveTransposeInPlace(&x);  // y = C⁻ᵀ r₁; x = y where no block reaches
  w->column_slot.assign(r2_columns, -1);
  for (int b = 0; b < block_count_; ++b) {
    if (blocks_[b].rank == 0) continue;
    if (static_cast<int>(blocks_[b].indices.size()) <= kSmallBlock)
      SolveSmallBlock(blocks_[b], r2_rows, w);
    else
      SolveBlock(blocks_[b], r2_rows, r2_columns, w);
  }
  cost_factor_.SolveInPlace(&x);  // dv = C⁻¹ x
}

}  // namespace quasidyn
