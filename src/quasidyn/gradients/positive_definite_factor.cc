#include "quasidyn/gradients/positive_definite_factor.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace quasidyn {

bool PositiveDefiniteFactor::Factor(const Eigen::MatrixXd& P) {
  if (P.rows() != P.cols())
    throw std::invalid_argument("PositiveDefiniteFactor: P is " + std::to_string(P.rows()) + " × " +
                                std::to_string(P.cols()) + ", not square");
  size_ = 0;
  blocks_.clear();
  const int n = static_cast<int>(P.rows());
  if (n == 0 || !P.allFinite()) return false;
  // reach[j]: the last row i >= j with P(i, j) != 0 (lower triangle). A block [start, end)
  // closes at the first end where no column of it reaches row end or below.
  std::vector<int> reach(n);
  for (int j = 0; j < n; ++j) {
    reach[j] = j;
    for (int i = n - 1; i > j; --i)
      if (P(i, j) != 0.0) {
        reach[j] = i;
        break;
      }
  }
  const double threshold = 1e-12 * P.diagonal().cwiseAbs().maxCoeff();
  for (int start = 0; start < n;) {
    // The smallest end > start with no column of [start, end) reaching row end or below.
    int end = start;
    for (int last = start; end <= last; ++end) last = std::max(last, reach[end]);
    Block block;
    block.start = start;
    block.size = end - start;
    const Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt(
        P.block(start, start, block.size, block.size));
    if (llt.info() != Eigen::Success) return false;
    block.L = llt.matrixL();
    if (!(block.L.diagonal().cwiseAbs2().minCoeff() > threshold)) return false;
    blocks_.push_back(std::move(block));
    start = end;
  }
  size_ = n;
  return true;
}

Eigen::MatrixXd PositiveDefiniteFactor::SolveTranspose(const Eigen::MatrixXd& B) const {
  if (size_ == 0 || B.rows() != size_)
    throw std::invalid_argument("PositiveDefiniteFactor::SolveTranspose: B has " +
                                std::to_string(B.rows()) + " rows, the factor size " +
                                std::to_string(size_) + " (0: not factored)");
  // Forward substitution block by block, column by column (the blocks are small: plain loops
  // beat a general triangular solve's set-up per block).
  Eigen::MatrixXd X = B;
  for (int c = 0; c < X.cols(); ++c) {
    double* x = X.col(c).data();
    for (const Block& b : blocks_) {
      double* xb = x + b.start;
      for (int i = 0; i < b.size; ++i) {
        double sum = xb[i];
        for (int k = 0; k < i; ++k) sum -= b.L(i, k) * xb[k];
        xb[i] = sum / b.L(i, i);
      }
    }
  }
  return X;
}

Eigen::VectorXd PositiveDefiniteFactor::InverseQuadraticForms(const Eigen::MatrixXd& G) const {
  if (size_ == 0 || G.cols() != size_)
    throw std::invalid_argument("PositiveDefiniteFactor::InverseQuadraticForms: G has " +
                                std::to_string(G.cols()) + " columns, the factor size " +
                                std::to_string(size_) + " (0: not factored)");
  Eigen::VectorXd forms = Eigen::VectorXd::Zero(G.rows());
  std::vector<double> w;
  for (const Block& b : blocks_) {
    w.resize(b.size);
    for (int j = 0; j < G.rows(); ++j) {
      bool touches = false;
      for (int i = 0; i < b.size && !touches; ++i) touches = G(j, b.start + i) != 0.0;
      if (!touches) continue;
      double form = 0.0;  // |L_b⁻¹ g|² by forward substitution, as SolveTranspose
      for (int i = 0; i < b.size; ++i) {
        double sum = G(j, b.start + i);
        for (int k = 0; k < i; ++k) sum -= b.L(i, k) * w[k];
        w[i] = sum / b.L(i, i);
        form += w[i] * w[i];
      }
      forms[j] += form;
    }
  }
  return forms;
}

Eigen::MatrixXd PositiveDefiniteFactor::Solve(const Eigen::MatrixXd& X) const {
  if (size_ == 0 || X.rows() != size_)
    throw std::invalid_argument("PositiveDefiniteFactor::Solve: X has " + std::to_string(X.rows()) +
                                " rows, the factor size " + std::to_string(size_) +
                                " (0: not factored)");
  Eigen::MatrixXd Y = X;  // back substitution with L_bᵀ, as SolveTranspose
  for (int c = 0; c < Y.cols(); ++c) {
    double* y = Y.col(c).data();
    for (const Block& b : blocks_) {
      double* yb = y + b.start;
      for (int i = b.size - 1; i >= 0; --i) {
        double sum = yb[i];
        for (int k = i + 1; k < b.size; ++k) sum -= b.L(k, i) * yb[k];
        yb[i] = sum / b.L(i, i);
      }
    }
  }
  return Y;
}

}  // namespace quasidyn
