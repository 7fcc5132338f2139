#pragma once
// Comparison of matrices in tests, with a message that shows where they differ:
//
//   EXPECT_TRUE(MatricesNear(A, A_fd, 1e-6 * (1 + A_fd.cwiseAbs().maxCoeff())));
//
// The tolerance is absolute: state in the test what it is relative to (the solver's
// tolerance, the finite-difference step, machine epsilon), never a bare number.

#include <gtest/gtest.h>

#include <Eigen/Core>

namespace quasidyn::testing {

// Success when a and b have the same shape and max_ij |a_ij − b_ij| <= tolerance (NaN never
// passes); otherwise the shapes or the worst entry (row, column, both values).
::testing::AssertionResult MatricesNear(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                        const Eigen::Ref<const Eigen::MatrixXd>& b,
                                        double tolerance);

// Success when every entry is equal bit for bit (±0 equal, NaN never).
::testing::AssertionResult MatricesEqual(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                         const Eigen::Ref<const Eigen::MatrixXd>& b);

// max_ij |a_ij − b_ij| / max(1, max_ij |b_ij|): b is the reference (infinity when the shapes
// differ, 0 for two empty matrices).
double RelativeError(const Eigen::Ref<const Eigen::MatrixXd>& a,
                     const Eigen::Ref<const Eigen::MatrixXd>& b);

}  // namespace quasidyn::testing
