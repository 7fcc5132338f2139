#pragma once
// The constraint rows of the cone solvers (socp.h, log_barrier_newton.h) stacked into one
// matrix, in blocks: each linear row G_i x + sign·h_i is a 1-row block, then each cone
// A_k x + b_k is an m_k-row block — the layout BlockNormalMatrix (block_normal_matrix.h)
// works on.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/solvers/socp.h"

namespace quasidyn {

// Fills A (rows × n), b (rows), offset and dim (one entry per block, linear rows first);
// linear_sign is +1 or −1 (socp.h writes G x ≥ h as G x − h ∈ R+). Returns the largest block
// dimension (>= 1).
int StackConstraintBlocks(const Eigen::MatrixXd& G, const Eigen::VectorXd& h, double linear_sign,
                          const std::vector<SecondOrderConeConstraint>& cones, Eigen::Index n,
                          Eigen::MatrixXd* A, Eigen::VectorXd* b, std::vector<int>* offset,
                          std::vector<int>* dim);

}  // namespace quasidyn
