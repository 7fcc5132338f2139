// The active-set polish (active_set_polish.h) on two cases its guess from the interior point's
// answer used to get wrong, each checked against its KKT conditions: a sticking contact's four
// dependent pyramid rays (QP: the rounds of step 3 drop the negative least-norm multiplier;
// with one round the answer is not kept), and a body turning on four sliding contact cones at
// once (SOCP: the sliding cones' linearised turn of step 1, iterated to rounding).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kRoundingUnit = std::numeric_limits<double>::epsilon();

double Largest(std::initializer_list<double> values) { return std::max(values); }

// min ½‖x − v0‖² s.t. (n + μ d_i)·x >= 0 for the four rays d_i = ±e_x, ±e_y (n = e_z, μ =
// 0.5): a contact pushed into the ground and sideways inside the pyramid sticks (x = 0) with
// all four rows active. Their multipliers are not unique (four rays in three dimensions);
// with the push's tangential part 0.7 μ of its normal part the least-norm ones, which one
// solve of the four active rows gives, make ray −e_x's negative.
QpProblem StickingOnFourRays() {
  const double mu = 0.5, normal = 2.0;
  MatrixXd G(4, 3);
  G << mu, 0, 1, 0, mu, 1, -mu, 0, 1, 0, -mu, 1;
  QpProblem problem;
  problem.Q = SparseRowMatrix::FromDense(MatrixXd::Identity(3, 3));
  problem.c = -Eigen::Vector3d(-0.7 * mu * normal, 0.0, -normal);  // c = −v0
  problem.G = SparseRowMatrix::FromDense(G);
  problem.h = VectorXd::Zero(4);
  problem.A = SparseRowMatrix::FromDense(MatrixXd::Zero(0, 3));
  problem.b.resize(0);
  return problem;
}

TEST(PolishRoundsTest, DependentRaysOfAStickingContactPolishToRounding) {
  const QpProblem problem = StickingOnFourRays();
  const MatrixXd G = problem.G.ToDense();
  QpSettings settings;
  const QpResult result = Solve(problem, settings);
  ASSERT_EQ(result.status, SolverStatus::kSolved) << result.message;
  ASSERT_TRUE(result.info.polish.succeeded);
  EXPECT_GE(result.info.polish.rounds, 2);  // the least-norm multipliers were dropped from
  // Stationarity x + c = Gᵀz, feasibility, z >= 0 and complementarity, to rounding.
  const VectorXd Gtz = G.transpose() * result.z;
  const double scale =
      Largest({result.x.lpNorm<Eigen::Infinity>(), problem.c.lpNorm<Eigen::Infinity>(),
               Gtz.lpNorm<Eigen::Infinity>()});
  EXPECT_LE((result.x + problem.c - Gtz).lpNorm<Eigen::Infinity>(), 16 * kRoundingUnit * scale);
  EXPECT_LE(result.x.lpNorm<Eigen::Infinity>(), 16 * kRoundingUnit * scale);  // it sticks
  EXPECT_GE(result.z.minCoeff(), 0.0);
  const VectorXd slack = G * result.x - problem.h;
  EXPECT_GE(slack.minCoeff(), -16 * kRoundingUnit * scale);
  EXPECT_LE(slack.cwiseProduct(result.z).cwiseAbs().maxCoeff(), 16 * kRoundingUnit * scale * scale);
  // One round only: the least-norm multipliers (one negative) are rejected.
  settings.polish.max_rounds = 1;
  const QpResult one = Solve(problem, settings);
  ASSERT_EQ(one.status, SolverStatus::kSolved) << one.message;
  EXPECT_FALSE(one.info.polish.succeeded);
}

// A square body on four contact points (±1, ±1, 0) of its bottom face, velocity x = (v_x, v_y,
// v_z, ω_z), turned and pressed down: min ½‖x − x0‖² s.t. for each point u_k = (v_z, μ v_k,x,
// μ v_k,y) ∈ K (μ = 0.5; v_k = (v_x − ω p_y, v_y + ω p_x) the point's tangential velocity).
// It turns: every cone is on its boundary, each slip in its own direction, and the four
// cones' eight boundary conditions on four velocities are consistent only at the exact slip
// directions.
SocpProblem SlidingAndTurningOnFourCones() {
  const double mu = 0.5;
  const std::vector<Eigen::Vector2d> points = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  MatrixXd A = MatrixXd::Zero(12, 4);
  for (int k = 0; k < 4; ++k) {
    // Point velocity: (v_x − ω p_y, v_y + ω p_x).
    A(3 * k, 2) = 1.0;
    A(3 * k + 1, 0) = mu;
    A(3 * k + 1, 3) = -mu * points[k].y();
    A(3 * k + 2, 1) = mu;
    A(3 * k + 2, 3) = mu * points[k].x();
  }
  SocpProblem problem;
  problem.Q = SparseRowMatrix::FromDense(MatrixXd::Identity(4, 4));
  problem.c = -Eigen::Vector4d(0.0, 0.0, -0.5, 0.6);  // c = −x0
  problem.G = SparseRowMatrix::FromDense(MatrixXd::Zero(0, 4));
  problem.h.resize(0);
  problem.A = SparseRowMatrix::FromDense(A);
  problem.b = VectorXd::Zero(12);
  problem.cone_dims = {3, 3, 3, 3};
  return problem;
}

// The four cones' rounds iterate the slip directions to rounding (each round's linearised turn
// is Newton's step; active_set_polish.h, step 2). Until the sliding blocks' multiplier
// corrections were taken along their rays as a difference of scalars, these rounds stalled at
// a complementarity of 8.9e-12 (the interior point's whole residual: 1.6e-11) and the answer
// was the interior point's.
TEST(PolishRoundsTest, ConesSlidingAndTurningPolishToRounding) {
  const SocpProblem problem = SlidingAndTurningOnFourCones();
  const MatrixXd A = problem.A.ToDense();
  const SocpResult result = Solve(problem, SocpSettings());
  ASSERT_EQ(result.status, SolverStatus::kSolved) << result.message;
  ASSERT_TRUE(result.info.polish.succeeded);
  EXPECT_EQ(result.info.polish.sliding_blocks, 4);
  const VectorXd& z = result.cone_duals;
  const VectorXd u = A * result.x + problem.b;
  const VectorXd Atz = A.transpose() * z;
  const double scale =
      Largest({result.x.lpNorm<Eigen::Infinity>(), problem.c.lpNorm<Eigen::Infinity>(),
               Atz.lpNorm<Eigen::Infinity>(), z.lpNorm<Eigen::Infinity>()});
  const double rounding = 16 * kRoundingUnit * scale;
  EXPECT_LE((result.x + problem.c - Atz).lpNorm<Eigen::Infinity>(), rounding);
  for (int k = 0; k < 4; ++k) {
    const Eigen::Vector3d uk = u.segment<3>(3 * k), zk = z.segment<3>(3 * k);
    // Both on the cone's boundary (sliding: the contact moves and its force is μ times its
    // normal force), within rounding of either side.
    EXPECT_NEAR(uk[0], uk.tail<2>().norm(), rounding) << "cone " << k;
    EXPECT_NEAR(zk[0], zk.tail<2>().norm(), rounding) << "cone " << k;
    EXPECT_GT(uk[0], 1e3 * rounding) << "cone " << k << " slides";
    EXPECT_GT(zk[0], 1e3 * rounding) << "cone " << k << " carries force";
    // Complementary: the friction exactly opposite the slip.
    EXPECT_LE(std::abs(uk.dot(zk)), rounding * scale) << "cone " << k;
    const Eigen::Vector2d slip = uk.tail<2>().normalized(), friction = zk.tail<2>().normalized();
    EXPECT_LE((slip + friction).norm(), 16 * kRoundingUnit) << "cone " << k;
  }
}

}  // namespace
}  // namespace quasidyn
