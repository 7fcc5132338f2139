#include "quasidyn/formulations/programs/qp_gradient.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/QR>
#include <random>

#include "quasidyn/testing/example_states.h"

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
  data.G_rows = SparseRowMatrix::FromDense(G);
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
  const Scene scene = *testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(3);
  const Eigen::VectorXd v = RandomMatrix(n, 1, &random);
  const Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  const PyramidStepData data = SyntheticData(scene, G, 3, v, &random);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(5);
  beta.head(3).setOnes();
  const QpSensitivity sensitivity(&scene, 0.01, &data, v, beta);
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
  const Scene scene = *testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(5);
  const Eigen::VectorXd v = RandomMatrix(n, 1, &random);
  Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  G.row(2) = 2.0 * G.row(0);
  G.row(3) = G.row(1);
  const PyramidStepData data = SyntheticData(scene, G, 4, v, &random);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(5);
  beta.head(4).setOnes();
  const QpSensitivity sensitivity(&scene, 0.01, &data, v, beta);
  ASSERT_EQ(sensitivity.active_rows().size(), 4u);
  const VelocityGradient g = sensitivity.Gradient(nullptr);
  EXPECT_EQ(g.kkt_rank, n + 2);
  const Eigen::MatrixXd Z = G.topRows(4).fullPivLu().kernel();
  ASSERT_EQ(Z.cols(), n - 2);
  const Eigen::MatrixXd D = CommandForceJacobian(scene, 0.01);
  const Eigen::MatrixXd expected = Z * (Z.transpose() * data.P * Z).ldlt().solve(Z.transpose() * D);
  EXPECT_LT(testing::RelativeError(g.dv_du, expected), 1e-12);
}

// One contact per pyramid row (planar contact rows [n, t], ray_map = [1, 0]) so that
// Gradient(&contraction) builds r₂ = −dφ/h − d(J_c v)_n from the keys, and a random
// contraction (contact_data_derivative.h) with the sizes of the data.
void AddUnitContactKeys(PyramidStepData* data) {
  const int m = static_cast<int>(data->G.rows());
  for (int j = 0; j < m; ++j) {
    PyramidStepData::ContactKey key;
    key.first_row = j;
    key.rows = 1;
    key.first_contact_row = 2 * j;
    key.ray_map = Eigen::RowVector2d(1.0, 0.0);
    key.p_A = key.p_B = Eigen::Vector3d::Zero();
    key.columns.resize(data->G.cols());  // moved by every direction, as the random contraction
    for (int c = 0; c < data->G.cols(); ++c) key.columns[c] = c;
    data->contact_keys.push_back(key);
  }
  data->contact_rows = 2 * m;
}

StepDataContraction RandomContraction(int n, int m, std::mt19937* random) {
  StepDataContraction d;
  d.d_phi = RandomMatrix(m, n, random);
  d.d_Jc_v = RandomMatrix(2 * m, n, random);
  d.d_JcT_lambda = RandomMatrix(n, n, random);
  d.d_P_v = RandomMatrix(n, n, random);
  d.d_tau_h = RandomMatrix(n, n, random);
  return d;
}

// The right-hand sides of qp_gradient.h for the rows `active` of that data.
void KktRightHandSides(const StepDataContraction& d, const std::vector<int>& active, double h,
                       Eigen::MatrixXd* r1, Eigen::MatrixXd* r2) {
  *r1 = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
  r2->resize(static_cast<int>(active.size()), d.d_phi.cols());
  for (int a = 0; a < static_cast<int>(active.size()); ++a)
    r2->row(a) = -d.d_phi.row(active[a]) / h - d.d_Jc_v.row(2 * active[a]);
}

// The A path on synthetic data with rows 0 … active−1 of G touching: the sensitivity's
// active set and dv/dq for a random contraction, and the right-hand sides r₁, r₂.
struct SyntheticConfigurationGradient {
  std::vector<int> active;
  VelocityGradient gradient;
  Eigen::MatrixXd P, r1, r2;
};

SyntheticConfigurationGradient DifferentiateSynthetic(const Scene& scene, const Eigen::MatrixXd& G,
                                                      int active, double h, std::mt19937* random) {
  const Eigen::VectorXd v = RandomMatrix(scene.nv, 1, random);
  PyramidStepData data = SyntheticData(scene, G, active, v, random);
  AddUnitContactKeys(&data);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(G.rows());
  beta.head(active).setOnes();
  const QpSensitivity sensitivity(&scene, h, &data, v, beta);
  const StepDataContraction d = RandomContraction(scene.nv, static_cast<int>(G.rows()), random);
  SyntheticConfigurationGradient out;
  out.active = sensitivity.active_rows();
  out.gradient = sensitivity.Gradient(&d);
  out.P = data.P;
  KktRightHandSides(d, out.active, h, &out.r1, &out.r2);
  return out;
}

// dv/dq with a non-zero r₂ (the A path): regular active set against the full KKT system.
TEST(QpSensitivity, ConfigurationGradientMatchesTheKktSystem) {
  const Scene scene = *testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(11);
  const Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  const SyntheticConfigurationGradient s = DifferentiateSynthetic(scene, G, 3, 0.01, &random);
  ASSERT_EQ(s.active, (std::vector<int>{0, 1, 2}));

  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + 3, n + 3);
  kkt.topLeftCorner(n, n) = s.P;
  kkt.topRightCorner(n, 3) = G.topRows(3).transpose();
  kkt.bottomLeftCorner(3, n) = G.topRows(3);
  Eigen::MatrixXd rhs(n + 3, n);
  rhs << s.r1, s.r2;
  const Eigen::MatrixXd expected = kkt.fullPivLu().solve(rhs).topRows(n);
  EXPECT_LT(testing::RelativeError(s.gradient.dv_dq, expected), 1e-12);
  // The perturbed active rows hold: G_𝒜 dv = r₂.
  EXPECT_LT((G.topRows(3) * s.gradient.dv_dq - s.r2).cwiseAbs().maxCoeff(),
            1e-12 * s.r2.cwiseAbs().maxCoeff());
}

// Rank-deficient active set with an inconsistent r₂: G_𝒜 dv is the orthogonal projection of
// r₂ onto range(G_𝒜), and dv minimises the KKT cost on that affine set (qp_gradient.h):
// against dv = dv_p + Z (ZᵀPZ)⁻¹ Zᵀ (r₁ − P dv_p), dv_p = G_𝒜⁺ r₂ (complete orthogonal
// decomposition), Z spanning ker G_𝒜.
TEST(QpSensitivity, RankDeficientConfigurationGradientProjectsTheConstraints) {
  const Scene scene = *testing::LoadExample("planar_pushing");
  const int n = scene.nv;
  std::mt19937 random(13);
  Eigen::MatrixXd G = RandomMatrix(5, n, &random);
  G.row(2) = 2.0 * G.row(0);
  G.row(3) = G.row(1);
  const SyntheticConfigurationGradient s = DifferentiateSynthetic(scene, G, 4, 0.01, &random);
  ASSERT_EQ(s.active.size(), 4u);
  EXPECT_EQ(s.gradient.kkt_rank, n + 2);

  const Eigen::MatrixXd G_active = G.topRows(4);
  const Eigen::MatrixXd dv_p =
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(G_active).solve(s.r2);
  const Eigen::MatrixXd Z = G_active.fullPivLu().kernel();
  ASSERT_EQ(Z.cols(), n - 2);
  const Eigen::MatrixXd expected =
      dv_p + Z * (Z.transpose() * s.P * Z).ldlt().solve(Z.transpose() * (s.r1 - s.P * dv_p));
  EXPECT_LT(testing::RelativeError(s.gradient.dv_dq, expected), 1e-12);
  // r₂ is inconsistent (rows 2 and 3 repeat rows 0 and 1 with independent data), so the check
  // above is not met by solving the active rows exactly.
  ASSERT_GT((G_active * dv_p - s.r2).cwiseAbs().maxCoeff(), 1e-3);
}

// The whitened system splits into independent blocks (qp_gradient.h): on arm_cubes' velocities
// (ten free cubes, then nine robot joints) with P block diagonal as the step's, active rows
// coupling cubes 0 and 1; cube 2 alone with more rows than rank (rank 2); cube 3 with the robot
// joints (a finger contact); cube 4's rows all inactive; and a sparse random contraction (some
// right-hand sides zero on some blocks). dv/dq and dv/du against the dense reference of
// RankDeficientConfigurationGradientProjectsTheConstraints on the whole system.
TEST(QpSensitivity, IndependentBlocksMatchTheWholeKktSystem) {
  const Scene scene = *testing::LoadExample("arm_cubes");
  const int n = scene.nv;
  ASSERT_EQ(n, 69);
  const double h = 0.01;
  std::mt19937 random(17);
  PyramidStepData data;
  data.P = Eigen::MatrixXd::Zero(n, n);
  for (int b = 0; b < 10; ++b) {
    const Eigen::MatrixXd X = RandomMatrix(6, 6, &random);
    data.P.block(6 * b, 6 * b, 6, 6) = X * X.transpose() + Eigen::MatrixXd::Identity(6, 6);
  }
  for (int i = 60; i < n; ++i) data.P(i, i) = 0.5 + i * 0.01;
  data.tau_h = Eigen::VectorXd::Zero(n);
  const auto cube = [](int b) { return 6 * b; };
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(20, n);
  for (int j = 0; j < 4; ++j) {  // cubes 0 and 1
    G.block(j, cube(0), 1, 6) = RandomMatrix(1, 6, &random);
    G.block(j, cube(1), 1, 6) = RandomMatrix(1, 6, &random);
  }
  const Eigen::MatrixXd basis = RandomMatrix(2, 6, &random);
  for (int j = 4; j < 9; ++j)  // cube 2: five rows of rank 2
    G.block(j, cube(2), 1, 6) = RandomMatrix(1, 2, &random) * basis;
  for (int j = 9; j < 13; ++j) {  // cube 3 and the robot joints
    G.block(j, cube(3), 1, 6) = RandomMatrix(1, 6, &random);
    G.block(j, 60, 1, 9) = RandomMatrix(1, 9, &random);
  }
  // Rows 13 … 19 touch cube 4 and are inactive.
  for (int j = 13; j < 20; ++j) G.block(j, cube(4), 1, 6) = RandomMatrix(1, 6, &random);
  const int active = 13;
  const Eigen::VectorXd v = RandomMatrix(n, 1, &random);
  data.G = G;
  data.G_rows = SparseRowMatrix::FromDense(G);
  data.offset = -G * v;
  for (int j = active; j < G.rows(); ++j) data.offset[j] += 1.0;
  AddUnitContactKeys(&data);
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(G.rows());
  beta.head(active).setOnes();
  const QpSensitivity sensitivity(&scene, h, &data, v, beta);
  ASSERT_EQ(sensitivity.active_rows().size(), static_cast<size_t>(active));
  // Blocks: cubes 0 + 1, cube 2, cube 3 + robot.
  ASSERT_EQ(sensitivity.block_count(), 3);
  EXPECT_EQ(sensitivity.block_size(0), 12);
  EXPECT_EQ(sensitivity.block_size(1), 6);
  EXPECT_EQ(sensitivity.block_size(2), 15);

  StepDataContraction d = RandomContraction(n, static_cast<int>(G.rows()), &random);
  std::bernoulli_distribution keep(0.5);
  for (Eigen::MatrixXd* M : {&d.d_phi, &d.d_Jc_v, &d.d_JcT_lambda, &d.d_P_v, &d.d_tau_h})
    for (int i = 0; i < M->size(); ++i)
      if (!keep(random)) (*M)(i) = 0.0;
  d.d_JcT_lambda.col(5).setZero();  // a direction with r₁ = 0 …
  d.d_P_v.col(5).setZero();
  d.d_tau_h.col(5).setZero();  // … and r₂ ≠ 0
  const VelocityGradient g = sensitivity.Gradient(&d);
  EXPECT_EQ(g.kkt_rank, n + 4 + 2 + 4);

  Eigen::MatrixXd r1, r2;
  KktRightHandSides(d, sensitivity.active_rows(), h, &r1, &r2);
  const Eigen::MatrixXd G_active = G.topRows(active);
  const auto reference = [&](const Eigen::MatrixXd& rhs1, const Eigen::MatrixXd& rhs2) {
    const Eigen::MatrixXd dv_p =
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(G_active).solve(rhs2);
    const Eigen::MatrixXd Z = G_active.fullPivLu().kernel();
    return Eigen::MatrixXd(
        dv_p +
        Z * (Z.transpose() * data.P * Z).ldlt().solve(Z.transpose() * (rhs1 - data.P * dv_p)));
  };
  EXPECT_LT(testing::RelativeError(g.dv_dq, reference(r1, r2)), 1e-12);
  const Eigen::MatrixXd D = CommandForceJacobian(scene, h);
  EXPECT_LT(testing::RelativeError(g.dv_du, reference(D, Eigen::MatrixXd::Zero(active, D.cols()))),
            1e-12);
}

TEST(QpSensitivity, RejectsWrongSizes) {
  const Scene scene = *testing::LoadExample("planar_pushing");
  std::mt19937 random(1);
  const Eigen::VectorXd v = RandomMatrix(scene.nv, 1, &random);
  const PyramidStepData data =
      SyntheticData(scene, RandomMatrix(3, scene.nv, &random), 1, v, &random);
  EXPECT_THROW(QpSensitivity(&scene, 0.01, &data, v, Eigen::VectorXd::Zero(2)),
               std::invalid_argument);
  EXPECT_THROW(QpSensitivity(&scene, 0.01, &data, v.head(1), Eigen::VectorXd::Zero(3)),
               std::invalid_argument);
  EXPECT_THROW(QpSensitivity(&scene, 0.0, &data, v, Eigen::VectorXd::Zero(3)),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
