#include "quasidyn/gradients/tangent_basis_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "quasidyn/contact/friction_cone.h"

namespace quasidyn {
namespace {

// Central differences of TangentBasis along n + ε dn with ε = 1e-6: truncation ε²|t'''| and
// round-off ε_machine/ε, both ≈ 1e-10 for unit n away from the branch switch (|s + n_z| >=
// 1/2 bounds the derivatives); 1e-8 leaves a margin of 100, while a missed term of the
// closed form (a sign, the da of a) is O(1).
constexpr double kTangentStep = 1e-6;
constexpr double kTangentTolerance = 1e-8;

void CheckTangentsAgainstDifferences(const Eigen::Vector3d& n, const Eigen::Vector3d& dn,
                                     bool planar) {
  Eigen::Vector3d t1_plus, t2_plus, t1_minus, t2_minus, dt1, dt2;
  TangentBasis(n + kTangentStep * dn, planar, &t1_plus, &t2_plus);
  TangentBasis(n - kTangentStep * dn, planar, &t1_minus, &t2_minus);
  TangentBasisDerivative(n, dn, planar, &dt1, &dt2);
  EXPECT_LT((dt1 - (t1_plus - t1_minus) / (2.0 * kTangentStep)).norm(), kTangentTolerance)
      << "n " << n.transpose() << ", dn " << dn.transpose();
  EXPECT_LT((dt2 - (t2_plus - t2_minus) / (2.0 * kTangentStep)).norm(), kTangentTolerance)
      << "n " << n.transpose() << ", dn " << dn.transpose();
}

TEST(TangentBasisDerivative, MatchesDifferencesIn3dOnBothBranches) {
  std::mt19937 random(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  int upper = 0, lower = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::Vector3d n(normal(random), normal(random), normal(random));
    n.normalize();
    if (std::abs(n.z() + 0.5) < 0.05) continue;  // the branch switch: no derivative there
    (n.z() >= -0.5 ? upper : lower)++;
    Eigen::Vector3d dn(normal(random), normal(random), normal(random));
    dn -= n * n.dot(dn);  // a unit normal turns in its tangent plane
    CheckTangentsAgainstDifferences(n, dn, false);
  }
  EXPECT_GT(upper, 20);
  EXPECT_GT(lower, 20);
}

TEST(TangentBasisDerivative, MatchesDifferencesPlanar) {
  std::mt19937 random(9);
  std::uniform_real_distribution<double> angle(-3.14159, 3.14159), rate(-2.0, 2.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double a = angle(random), da = rate(random);
    const Eigen::Vector3d n(std::cos(a), std::sin(a), 0.0);
    const Eigen::Vector3d dn = da * Eigen::Vector3d(-std::sin(a), std::cos(a), 0.0);
    CheckTangentsAgainstDifferences(n, dn, true);
    // A change along n itself (not of unit length) leaves the planar tangent unchanged.
    Eigen::Vector3d dt1, dt2;
    TangentBasisDerivative(n, n, true, &dt1, &dt2);
    EXPECT_LT(dt1.norm(), 1e-15);
  }
}

// qsim's frame (contact/friction_cone.h, QsimTangentBasis) against central differences with its
// reference axis held (it changes only where two components of n have equal magnitude; the
// random normals keep 0.05 away from that), for n_d >= 3 and for n_d = 2 (a = x̂).
TEST(TangentBasisDerivative, QsimFrameMatchesDifferences) {
  std::mt19937 random(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::Vector3d n(normal(random), normal(random), normal(random));
    n.normalize();
    Eigen::Vector3d a = n.cwiseAbs();
    std::sort(a.data(), a.data() + 3);
    if (a[1] - a[0] < 0.05) continue;  // the axis switch: no derivative there
    Eigen::Vector3d dn(normal(random), normal(random), normal(random));
    dn -= n * n.dot(dn);
    for (int rays : {2, 4}) {
      const int axis = QsimReferenceAxis(n, rays);
      Eigen::Vector3d t1p, t2p, t1m, t2m, dt1, dt2;
      QsimTangentBasis((n + kTangentStep * dn).normalized(), axis, &t1p, &t2p);
      QsimTangentBasis((n - kTangentStep * dn).normalized(), axis, &t1m, &t2m);
      QsimTangentBasisDerivative(n, dn, axis, &dt1, &dt2);
      EXPECT_LT((dt1 - (t1p - t1m) / (2 * kTangentStep)).norm(), kTangentTolerance)
          << "n " << n.transpose() << ", n_d " << rays;
      EXPECT_LT((dt2 - (t2p - t2m) / (2 * kTangentStep)).norm(), kTangentTolerance)
          << "n " << n.transpose() << ", n_d " << rays;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace quasidyn
