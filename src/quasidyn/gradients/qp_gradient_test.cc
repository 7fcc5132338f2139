#include "quasidyn/gradients/qp_gradient.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "quasidyn/gradients/gradient_test_support.h"

namespace quasidyn {
namespace {

// A synthetic solved QP on the velocities of planar_pushing (its K_a gives ∂τ_h/∂u): random
// SPD P, rows 0 … active−1 touching (slack 0, β = 1), the others 1 m/s apart (β = 0).
PyramidStepData SyntheticData(const Scene& scene, const Eigen::MatrixXd& G, int active,
                              const Eigen::VectorXd& v, std::mt19937* random) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const int n = scene.nv;
  Eigen::MatrixXd X(n, n);
  for (int i = 0; i < X.size(); ++i) X(i) = uniform(*random);
  PyramidStepData data;
  data.P = X * X.transpose() + Eigen::MatrixXd::Identity(n, n);
  data.tau_h = Eigen::VectorXd::Zero(n);
  data.G = G;
  data.offset = -G * v;
  for (int j = active; j < G.rows(); ++j) data.offset[j] += 1.0;
  return data;
}

Eigen::MatrixXd RandomMatrix(int rows, int cols, std::mt19937* random) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::MatrixXd M(rows, cols);
  for (int i = 0; i < M.size(); ++i) M(i) = uniform(*random);
  return M;
}

// Regular active set: dv/du against the full KKT system solved by full-pivoting LU.
TEST(QpSensitivity, RegularActiveSetMatchesTheKktSystem) {
  const Scene scene = testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(3);
  const Eigen::VectorXd v = RandomMatrix(n, 1, &random);
  const Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  const PyramidStepData data = SyntheticData(scene, G, 3, v, &random);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(5);
  beta.head(3).setOnes();
  const QpSensitivity sensitivity(scene, 0.01, data, v, beta);
  ASSERT_EQ(sensitivity.active_rows(), (std::vector<int>{0, 1, 2}));
  const VelocityGradient g = sensitivity.Gradient(nullptr);
  EXPECT_EQ(g.kkt_rank, n + 3);

  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + 3, n + 3);
  kkt.topLeftCorner(n, n) = data.P;
  kkt.topRightCorner(n, 3) = G.topRows(3).transpose();
  kkt.bottomLeftCorner(3, n) = G.topRows(3);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + 3, scene.nq_a);
  rhs.topRows(n) = CommandForceJacobian(scene, 0.01);
  const Eigen::MatrixXd expected = kkt.fullPivLu().solve(rhs).topRows(n);
  // Both are backward-stable solves of a system with condition ≈ 1e2–1e3: 1e-12 relative.
  EXPECT_LT(testing::RelativeError(g.dv_du, expected), 1e-12);
  // The active rows stay satisfied: G_𝒜 dv = 0.
  EXPECT_LT((G.topRows(3) * g.dv_du).cwiseAbs().maxCoeff(), 1e-12);
}

// Rank-deficient active set (a row repeated twice, one a multiple of another): dv/du is
// unique; against the null-space solution dv = Z (ZᵀPZ)⁻¹ Zᵀ ∂τ_h/∂u, Z spanning ker G_𝒜.
TEST(QpSensitivity, RankDeficientActiveSetMatchesTheNullSpaceSolution) {
  const Scene scene = testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(5);
  const Eigen::VectorXd v = RandomMatrix(n, 1, &random);
  Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  G.row(2) = 2.0 * G.row(0);
  G.row(3) = G.row(1);
  const PyramidStepData data = SyntheticData(scene, G, 4, v, &random);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(5);
  beta.head(4).setOnes();
  const QpSensitivity sensitivity(scene, 0.01, data, v, beta);
  ASSERT_EQ(sensitivity.active_rows().size(), 4u);
  const VelocityGradient g = sensitivity.Gradient(nullptr);
  EXPECT_EQ(g.kkt_rank, n + 2);
  const Eigen::MatrixXd Z = G.topRows(4).fullPivLu().kernel();
  ASSERT_EQ(Z.cols(), n - 2);
  const Eigen::MatrixXd D = CommandForceJacobian(scene, 0.01);
  const Eigen::MatrixXd expected = Z * (Z.transpose() * data.P * Z).ldlt().solve(Z.transpose() * D);
  EXPECT_LT(testing::RelativeError(g.dv_du, expected), 1e-12);
}

TEST(QpSensitivity, RejectsWrongSizes) {
  const Scene scene = testing::LoadExample("planar_pushing");
  std::mt19937 random(1);
  const Eigen::VectorXd v = RandomMatrix(scene.nv, 1, &random);
  const PyramidStepData data =
      SyntheticData(scene, RandomMatrix(3, scene.nv, &random), 1, v, &random);
  EXPECT_THROW(QpSensitivity(scene, 0.01, data, v, Eigen::VectorXd::Zero(2)),
               std::invalid_argument);
  EXPECT_THROW(QpSensitivity(scene, 0.01, data, v.head(1), Eigen::VectorXd::Zero(3)),
               std::invalid_argument);
  EXPECT_THROW(QpSensitivity(scene, 0.0, data, v, Eigen::VectorXd::Zero(3)), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
