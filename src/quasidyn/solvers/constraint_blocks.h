#pragma once
// The constraint rows of the cone solvers (socp.h, log_barrier_newton.h) stacked into one
// matrix, in blocks: each linear row G_i x − h_i ≥ 0 is a 1-row block, then each cone
// A_k x + b_k ∈ K_k is an m_k-row block — the layout BlockNormalMatrix (block_normal_matrix.h)
// works on.

#include <Eigen/Core>
#include <utility>
#include <vector>

#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

// The stacked rows [G; A] and offsets [−h; b], with one block per row of G and one per entry
// of cone_dims (the sizes of the cones of A, in order; they sum to A.rows()); n columns (G
// and A may be empty, 0 × anything, otherwise they have n columns). offset and dim
// receive the first row and the size of each block. Storage is reused: no allocation when the
// sizes are those of the previous call, or, with `storage`, once the offsets' size has been met
// (its spares). Returns the largest block dimension (>= 1).
int StackConstraintBlocks(const SparseRowMatrix& G, const Eigen::VectorXd& h,
                          const SparseRowMatrix& A, const Eigen::VectorXd& b,
                          const std::vector<int>& cone_dims, int n, SparseRowMatrix* stacked,
                          Eigen::VectorXd* stacked_offset, std::vector<int>* offset,
                          std::vector<int>* dim, SizedStoragePool* storage = nullptr);

// Checks (std::invalid_argument naming `where`) that the cone sizes are >= 1 and sum to
// `rows`.
void CheckConeDims(const char* where, const std::vector<int>& cone_dims, int rows);

// True when two problems of a cone solver (fields Q, c, G, h, A, b, cone_dims: SocpProblem,
// LogBarrierProblem) have the same sizes and sparsity patterns, so that values of one may
// replace the other's without a new Setup.
template <typename ConeProblem>
bool SameConePattern(const ConeProblem& p, const ConeProblem& q) {
  return p.Q.SamePattern(q.Q) && p.G.SamePattern(q.G) && p.A.SamePattern(q.A) &&
         p.cone_dims == q.cone_dims && p.c.size() == q.c.size() && p.h.size() == q.h.size() &&
         p.b.size() == q.b.size();
}

// *to = from for a cone solver's problem (fields as above) on *to's storage: its matrices and
// cone sizes keep their capacity (std::vector), its vectors resize through `pool`, so a Setup on
// sizes met before allocates nothing. Other fields (a barrier's κ) are the caller's.
template <typename ConeProblem>
void CopyConeProblem(const ConeProblem& from, ConeProblem* to, SizedStoragePool* pool) {
  to->Q = from.Q;
  to->G = from.G;
  to->A = from.A;
  to->cone_dims = from.cone_dims;
  for (auto [copy, source] :
       {std::pair{&to->c, &from.c}, std::pair{&to->h, &from.h}, std::pair{&to->b, &from.b}}) {
    pool->Resize(copy, source->size());
    *copy = *source;
  }
}

}  // namespace quasidyn
