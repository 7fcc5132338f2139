#include "quasidyn/testing/matrix_compare.h"

#include <algorithm>
#include <cmath>

namespace quasidyn::testing {
namespace {

::testing::AssertionResult ShapeMismatch(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                         const Eigen::Ref<const Eigen::MatrixXd>& b) {
  return ::testing::AssertionFailure() << "shapes differ: " << a.rows() << "x" << a.cols() << " vs "
                                       << b.rows() << "x" << b.cols();
}

}  // namespace

::testing::AssertionResult MatricesNear(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                        const Eigen::Ref<const Eigen::MatrixXd>& b,
                                        double tolerance) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return ShapeMismatch(a, b);
  double worst = 0.0;
  Eigen::Index worst_row = 0, worst_col = 0;
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const double difference = std::abs(a(i, j) - b(i, j));
      if (!(difference <= worst)) {  // also catches NaN
        worst = std::isnan(difference) ? INFINITY : difference;
        worst_row = i;
        worst_col = j;
      }
    }
  }
  if (worst <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "largest difference " << worst << " > tolerance " << tolerance << " at (" << worst_row
         << ", " << worst_col << "): " << a(worst_row, worst_col) << " vs "
         << b(worst_row, worst_col);
}

::testing::AssertionResult MatricesEqual(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                         const Eigen::Ref<const Eigen::MatrixXd>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return ShapeMismatch(a, b);
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      if (!(a(i, j) == b(i, j))) {
        return ::testing::AssertionFailure()
               << "entry (" << i << ", " << j << ") differs: " << a(i, j) << " vs " << b(i, j);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

double RelativeError(const Eigen::Ref<const Eigen::MatrixXd>& a,
                     const Eigen::Ref<const Eigen::MatrixXd>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  if (b.size() == 0) return 0.0;
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

}  // namespace quasidyn::testing
