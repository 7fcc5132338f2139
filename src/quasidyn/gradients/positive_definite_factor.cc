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
    block.inverse_diagonal = block.L.diagonal().cwiseInverse();
    block.diagonal = block.size == 1;
    if (block.diagonal && !blocks_.empty() && blocks_.back().diagonal) {  // extend the run
      Block& run = blocks_.back();
      ++run.size;
      run.inverse_diagonal.conservativeResize(run.size);
      run.inverse_diagonal[run.size - 1] = block.inverse_diagonal[0];
    } else {
      blocks_.push_back(std::move(block));
    }
    start = end;
  }
  size_ = n;
  return true;
}

namespace {

void CheckFactored(const char* function, const char* what, long count, int size) {
  if (size == 0 || count != size)
    throw std::invalid_argument(std::string("PositiveDefiniteFactor::") + function + ": " + what +
                                " " + std::to_string(count) + ", the factor size " +
                                std::to_string(size) + " (0: not factored)");
}

}  // namespace

// x ← L_b⁻¹ x on the block's contiguous segment x (plain loops: the blocks are small, and a
// general triangular solve's set-up per block would cost more than the arithmetic).
void PositiveDefiniteFactor::ForwardSubstitute(const Block& b, double* x) {
  if (b.diagonal) {
    for (int i = 0; i < b.size; ++i) x[i] *= b.inverse_diagonal[i];
    return;
  }
  for (int i = 0; i < b.size; ++i) {
    double sum = x[i];
    for (int k = 0; k < i; ++k) sum -= b.L(i, k) * x[k];
    x[i] = sum * b.inverse_diagonal[i];
  }
}

// x ← L_b⁻ᵀ x on the block's segment.
void PositiveDefiniteFactor::BackSubstitute(const Block& b, double* x) {
  if (b.diagonal) {
    for (int i = 0; i < b.size; ++i) x[i] *= b.inverse_diagonal[i];
    return;
  }
  for (int i = b.size - 1; i >= 0; --i) {
    double sum = x[i];
    for (int k = i + 1; k < b.size; ++k) sum -= b.L(k, i) * x[k];
    x[i] = sum * b.inverse_diagonal[i];
  }
}

Eigen::MatrixXd PositiveDefiniteFactor::SolveTranspose(const Eigen::MatrixXd& B) const {
  Eigen::MatrixXd X = B;
  SolveTransposeInPlace(&X);
  return X;
}

void PositiveDefiniteFactor::SolveTransposeInPlace(Eigen::MatrixXd* B) const {
  CheckFactored("SolveTranspose", "B has rows:", B->rows(), size_);
  for (int c = 0; c < B->cols(); ++c)
    for (const Block& b : blocks_) ForwardSubstitute(b, B->col(c).data() + b.start);
}

Eigen::VectorXd PositiveDefiniteFactor::InverseQuadraticForms(const Eigen::MatrixXd& G) const {
  CheckFactored("InverseQuadraticForms", "G has columns:", G.cols(), size_);
  SparseRows rows;
  WhitenRows(G, &rows);
  Eigen::VectorXd forms(G.rows());
  for (int j = 0; j < G.rows(); ++j) forms[j] = rows.SquaredNorm(j);
  return forms;
}

void PositiveDefiniteFactor::WhitenRows(const Eigen::MatrixXd& G, SparseRows* out) const {
  CheckFactored("WhitenRows", "G has columns:", G.cols(), size_);
  const int m = static_cast<int>(G.rows());
  out->start.assign(1, 0);
  out->index.clear();
  out->value.clear();
  for (int j = 0; j < m; ++j) {
    for (const Block& b : blocks_) {
      bool touches = false;  // does row j have a non-zero in this block?
      for (int i = 0; i < b.size && !touches; ++i) touches = G(j, b.start + i) != 0.0;
      if (!touches) continue;
      const size_t first = out->value.size();
      for (int i = 0; i < b.size; ++i) {
        out->index.push_back(b.start + i);
        out->value.push_back(G(j, b.start + i));
      }
      ForwardSubstitute(b, out->value.data() + first);
    }
    out->start.push_back(static_cast<int>(out->value.size()));
  }
}

double PositiveDefiniteFactor::SparseRows::SquaredNorm(int row) const {
  double sum = 0.0;
  for (int k = start[row]; k < start[row + 1]; ++k) sum += value[k] * value[k];
  return sum;
}

Eigen::MatrixXd PositiveDefiniteFactor::Solve(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd Y = X;
  SolveInPlace(&Y);
  return Y;
}

void PositiveDefiniteFactor::SolveInPlace(Eigen::MatrixXd* X) const {
  CheckFactored("Solve", "X has rows:", X->rows(), size_);
  for (int c = 0; c < X->cols(); ++c)
    for (const Block& b : blocks_) BackSubstitute(b, X->col(c).data() + b.start);
}

}  // namespace quasidyn
