// The halm-posa LCP (halm_posa_lcp.h): its matrix and vector are eqs. (37)-(38), Lemke's method
// solves it whenever c > 0 (Theorem 1) with the answers of Siconos' lexicographic Lemke, a
// squeeze under perfect velocity control (c = 0) has no solution for either, and the solutions
// keep Theorem 2's bound and Theorem 3's limit.

#include "quasidyn/formulations/halm_posa/halm_posa_lcp.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/siconos_lcp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

ScenePtr DiskScene(const std::string& file) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/disk_pushing/" + file));
}

// The LCP of one configuration q under the command u, built as the step model builds it.
struct BuiltLcp {
  BuiltLcp(const ScenePtr& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& u, double c)
      : model(scene), data(model.CreateData()) {
    EXPECT_TRUE(model.Compute(q, &data));
    const Eigen::MatrixXd cB = c * Eigen::MatrixXd::Identity(scene->nq_a, scene->nq_a);
    BuildHalmPosaMobility(ObjectLimitSurfaces(*scene), q, cB, &W);
    BuildHalmPosaLcp(data.contacts(), JointLimitRows(), W, u, scene->time_step, &lcp);
  }
  ContactModel model;
  ContactData data;
  Eigen::MatrixXd W;
  HalmPosaLcp lcp;
};

// max(‖w − Mz − q‖∞, −min z, −min w, max |z_i w_i|) relative to the data's scale.
double Violation(const LcpProblem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  const double scale = 1 + p.q.lpNorm<Eigen::Infinity>() +
                       p.M.lpNorm<Eigen::Infinity>() * z.lpNorm<Eigen::Infinity>();
  return std::max({(w - p.M * z - p.q).lpNorm<Eigen::Infinity>(), -z.minCoeff(), -w.minCoeff(),
                   z.cwiseProduct(w).cwiseAbs().maxCoeff()}) /
         scale;
}

TEST(HalmPosaLcp, MatrixAndVectorAreEquations37And38) {
  const ScenePtr scene = DiskScene("symmetric_push.yaml");
  Eigen::VectorXd q(7), u(4);
  q << 0, 3, 0.2, 0.5, 3.9, -0.55, 3.8;
  u << 0.1, -1, -0.2, -1.5;
  const double c = 0.05, h = scene->time_step;
  BuiltLcp built(scene, q, u, c);
  const ContactSet& contacts = built.data.contacts();
  ASSERT_EQ(contacts.size(), 2);
  // J = [J_N; J_T] with the two tangent rays of each contact, in the order of z.
  const int nc = contacts.size(), nz = 4 * nc;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * nc, scene->nv);
  Eigen::VectorXd phi(nc);
  for (int i = 0; i < nc; ++i) {
    J.row(i) = contacts.DenseNormalJacobian(i);
    J.middleRows(nc + 2 * i, 2) = contacts.DenseRayJacobian(i);
    phi[i] = contacts[i].phi;
  }
  // W = blockdiag(A = I3 (the scene's), c·B = c·I4).
  Eigen::MatrixXd W = c * Eigen::MatrixXd::Identity(7, 7);
  W.topLeftCorner<3, 3>().setIdentity();
  EXPECT_TRUE(testing::MatricesNear(built.W, W, 1e-15));
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nz, nz);
  M.topLeftCorner(3 * nc, 3 * nc) = J * W * J.transpose();
  Eigen::VectorXd w(nz);
  Eigen::VectorXd d0 = Eigen::VectorXd::Zero(7);
  d0.tail(4) = h * u;
  w << phi + J.topRows(nc) * d0, J.bottomRows(2 * nc) * d0, Eigen::VectorXd::Zero(nc);
  for (int i = 0; i < nc; ++i) {
    M.block(nc + 2 * i, 3 * nc + i, 2, 1).setOnes();          // E
    M(3 * nc + i, i) = contacts[i].friction;                  // μ
    M.block(3 * nc + i, nc + 2 * i, 1, 2).setConstant(-1.0);  // −Eᵀ
  }
  // Rate form: the LCP holds M̃ and w̃/h, and Δq = d₀ + h W Jᵀ z_F.
  const double tolerance = 1e-14 * (1 + M.cwiseAbs().maxCoeff());
  EXPECT_TRUE(testing::MatricesNear(built.lcp.lcp.M, M, tolerance));
  EXPECT_TRUE(testing::MatricesNear(h * built.lcp.lcp.q, w, tolerance));
  EXPECT_TRUE(testing::MatricesNear(built.lcp.displacement_map, h * W * built.lcp.JT, tolerance));
  EXPECT_TRUE(testing::MatricesNear(built.lcp.displacement_offset, d0, 0.0));
}

// Random configurations of the disk by the wall: fingers on or near the upper half of the rim,
// random commands, c in [1e-3, 1].
struct RandomConfiguration {
  Eigen::VectorXd q = Eigen::VectorXd(7), u = Eigen::VectorXd(4);
  double c = 1.0;
};

RandomConfiguration Draw(testing::RandomProblems& random) {
  RandomConfiguration r;
  r.c = std::pow(10.0, -random.Uniform(0, 3));
  r.q.head<3>() << random.Uniform(-1, 1), 1 + random.Uniform(0, 0.05), random.Uniform(-3, 3);
  for (int f = 0; f < 2; ++f) {
    const double angle = random.Uniform(0, M_PI);
    const double distance = 1 + random.Uniform(0, 0.05);
    r.q.segment<2>(3 + 2 * f) =
        r.q.head<2>() + distance * Eigen::Vector2d(std::cos(angle), std::sin(angle));
    r.u.segment<2>(2 * f) << random.Uniform(-2, 2), random.Uniform(-2, 0.5);
  }
  return r;
}

// Theorem 1: with c > 0 every configuration with φ >= 0 has a solution: ours is found and
// complementary to Lemke's tolerance in every draw. Siconos' lexicographic Lemke, the
// independent reference, returns a complementary pair too, except in 2 of the 200 draws, where
// it reports success (info 0) with a pair that violates w >= 0 by 2 - 20 % of the data's scale.
// With friction the solutions need not be unique (Halm & Posa 2018, §7: 14 of 200 draws end on
// different, equally complementary solutions of the two), so displacements are compared where
// they are unique, below.
TEST(HalmPosaLcp, SolvedForEveryFeedbackScaleAndCommandLikeSiconos) {
  const ScenePtr scene = DiskScene("wall_push.yaml");
  testing::RandomProblems random(18);
  int siconos_complementary = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const RandomConfiguration r = Draw(random);
    BuiltLcp built(scene, r.q, r.u, r.c);
    HalmPosaLcpSolver solver;
    const LcpResult& ours = solver.Solve(built.data.contacts(), &built.lcp, nullptr);
    ASSERT_TRUE(Succeeded(ours.status)) << "trial " << trial << ": " << ours.message;
    // Lemke's final check: 1e-10 of the scale (solvers/lemke.h).
    EXPECT_LE(Violation(built.lcp.lcp, ours.z, ours.w), 1e-10) << "trial " << trial;
    const testing::SiconosSolution reference = testing::SolveWithSiconos(built.lcp.lcp);
    ASSERT_EQ(reference.info, 0) << "trial " << trial;
    siconos_complementary += Violation(built.lcp.lcp, reference.z, reference.w) <= 1e-8;
  }
  EXPECT_GE(siconos_complementary, 198);
}

// Frictionless contacts (μ = 0, so Λ_T = 0): the LCP in Λ_N has the symmetric positive
// semidefinite matrix J_N W J_Nᵀ, so every solution has the same W J_Nᵀ Λ_N (W ≻ 0 when c > 0):
// the displacement is unique and both solvers must give it.
TEST(HalmPosaLcp, FrictionlessDisplacementIsUniqueAndMatchesSiconos) {
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) + "/examples/disk_pushing/wall_push.yaml");
  std::stringstream text;
  text << file.rdbuf();
  std::string yaml = text.str();
  for (size_t at = yaml.find("friction: 1.0"); at != std::string::npos;
       at = yaml.find("friction: 1.0", at))
    yaml.replace(at, 13, "friction: 0.0");
  const ScenePtr scene = std::make_shared<const Scene>(LoadSceneFromString(yaml, "wall", ""));
  testing::RandomProblems random(19);
  for (int trial = 0; trial < 200; ++trial) {
    const RandomConfiguration r = Draw(random);
    BuiltLcp built(scene, r.q, r.u, r.c);
    HalmPosaLcpSolver solver;
    const LcpResult& ours = solver.Solve(built.data.contacts(), &built.lcp, nullptr);
    ASSERT_TRUE(Succeeded(ours.status)) << "trial " << trial << ": " << ours.message;
    // Siconos on the frictionless LCP proper (Λ_N alone: with μ = 0 the friction rows admit
    // any γ >= |J_t Δq|, and Siconos returns γ ~ 1e13, a pair no use as a reference).
    const int nc = built.data.contacts().size();
    const LcpProblem normal{built.lcp.lcp.M.topLeftCorner(nc, nc), built.lcp.lcp.q.head(nc)};
    const testing::SiconosSolution reference = testing::SolveWithSiconos(normal);
    ASSERT_EQ(reference.info, 0) << "trial " << trial;
    EXPECT_LE(Violation(normal, reference.z, reference.w), 1e-8) << "trial " << trial;
    const Eigen::VectorXd dq = built.lcp.displacement_map * ours.z;
    const Eigen::VectorXd dq_siconos = built.lcp.displacement_map.leftCols(nc) * reference.z;
    // Both to the solvers' accuracy: 1e-9 of the displacement's scale.
    EXPECT_TRUE(testing::MatricesNear(dq, dq_siconos, 1e-9 * (1 + dq.norm()))) << "trial " << trial;
  }
}

TEST(HalmPosaLcp, SqueezeHasNoSolutionUnderPerfectVelocityControlOnly) {
  // The disk rests on the wall (y = 1); both fingers touch it from above, 30° off the top
  // (inside the friction cone μ = 1 of the downward push), and push down.
  const ScenePtr scene = DiskScene("wall_push.yaml");
  Eigen::VectorXd q(7), u(4);
  const double r = 1 + 1e-4;  // the rim plus the fingertips' radius: φ = 0
  const double s = 0.5 * r, t = std::sqrt(0.75) * r;
  q << 0, 1, 0, s, 1 + t, -s, 1 + t;
  u << 0, -1, 0, -1;
  BuiltLcp perfect(scene, q, u, 0.0);
  HalmPosaLcpSolver solver;
  EXPECT_EQ(solver.Solve(perfect.data.contacts(), &perfect.lcp, nullptr).status,
            SolverStatus::kInfeasible);
  // Siconos ends with info 0 but a pair that violates w >= 0 by 1 % of the data's scale.
  const testing::SiconosSolution reference = testing::SolveWithSiconos(perfect.lcp.lcp);
  EXPECT_TRUE(reference.info != 0 || Violation(perfect.lcp.lcp, reference.z, reference.w) > 1e-6);
  BuiltLcp finite(scene, q, u, 0.01);
  const LcpResult& result = solver.Solve(finite.data.contacts(), &finite.lcp, nullptr);
  ASSERT_TRUE(Succeeded(result.status)) << result.message;
  // The fingers stop (their velocity error c B Jᵀ Λ cancels h u) and the disk does not move.
  const Eigen::VectorXd dq =
      finite.lcp.displacement_offset + finite.lcp.displacement_map * result.z;
  EXPECT_LE(dq.head<3>().lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LE(dq.tail<4>().lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(HalmPosaLcp, WarmStartGivesTheColdAnswerWithoutPivots) {
  const ScenePtr scene = DiskScene("symmetric_push.yaml");
  Eigen::VectorXd q(7), u(4);
  q << 0, 3, 0, 0.5, 3.0 + std::sqrt(0.75), -0.5, 3.0 + std::sqrt(0.75);
  u << 0, -1, 0, -1;
  BuiltLcp built(scene, q, u, 0.01);
  HalmPosaLcpSolver warm;
  bool warm_started = true;
  const Eigen::VectorXd cold = warm.Solve(built.data.contacts(), &built.lcp, &warm_started).z;
  EXPECT_FALSE(warm_started);
  const LcpResult& again = warm.Solve(built.data.contacts(), &built.lcp, &warm_started);
  EXPECT_TRUE(warm_started);
  EXPECT_EQ(again.info.pivots, 0);
  EXPECT_TRUE(testing::MatricesNear(again.z, cold, 1e-12 * (1 + cold.norm())));
  warm.ClearWarmStart();
  warm.Solve(built.data.contacts(), &built.lcp, &warm_started);
  EXPECT_FALSE(warm_started);
}

// Theorem 2: c‖F_m‖ <= ‖u‖/λ_min(B) for every solution, F_m = J_mᵀ λ the fingers' generalized
// force (the rate form's z is the force: Δq = d₀ + h W Jᵀ z). The proof carries over to the
// time step's LCP (eq. (38) adds λ_Nᵀ φ⁻/h >= 0 to the complementarity sum) when φ⁻ >= 0, so
// the random draws keep the fingertips (radius 1e-4 m) off the rim. B = I4 (`B: 1`).
TEST(HalmPosaLcp, Theorem2BoundsTheFingersForceByTheCommandOnRandomLcps) {
  const ScenePtr scene = DiskScene("wall_push.yaml");
  testing::RandomProblems random(20);
  double largest = 0;
  for (int trial = 0; trial < 200; ++trial) {
    RandomConfiguration r = Draw(random);
    for (int f = 0; f < 2; ++f) {  // at least 1e-4 m between fingertip and rim: φ >= 0
      Eigen::Vector2d offset = r.q.segment<2>(3 + 2 * f) - r.q.head<2>();
      offset *= std::max(1.0, (1 + 2e-4) / offset.norm());
      r.q.segment<2>(3 + 2 * f) = r.q.head<2>() + offset;
    }
    BuiltLcp built(scene, r.q, r.u, r.c);
    HalmPosaLcpSolver solver;
    const LcpResult& result = solver.Solve(built.data.contacts(), &built.lcp, nullptr);
    ASSERT_TRUE(Succeeded(result.status)) << "trial " << trial << ": " << result.message;
    const Eigen::VectorXd force = built.lcp.JT * result.z;
    const double ratio = r.c * force.tail<4>().norm() / r.u.norm();  // λ_min(I4) = 1
    EXPECT_LE(ratio, 1 + 1e-9) << "trial " << trial;
    largest = std::max(largest, ratio);
  }
  RecordProperty("largest_ratio", std::to_string(largest));
}

// Theorem 3: along c → 0, c λ tends to an admissible internal force: c F_o = c J_oᵀ λ → 0. In
// the squeeze (the disk on the wall, both fingers pressing down inside the friction cone) the
// fingers' scaled force c F_m does not vanish — the velocity error c B F_m stays of the size of
// the command — so the limit is a non-zero internal force; on the disk it shrinks like c.
TEST(HalmPosaLcp, Theorem3ScaledForcesTendToAnInternalForceInASqueeze) {
  const ScenePtr scene = DiskScene("wall_push.yaml");
  testing::RandomProblems random(21);
  const double r = 1 + 1e-4, s = 0.5 * r, t = std::sqrt(0.75) * r;
  Eigen::VectorXd q(7);
  q << 0, 1, 0, s, 1 + t, -s, 1 + t;
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd u(4);
    u << random.Uniform(-0.2, 0.2), random.Uniform(-2, -0.5), random.Uniform(-0.2, 0.2),
        random.Uniform(-2, -0.5);
    double first_c_fo = 0;
    for (int k = 1; k <= 7; ++k) {
      const double c = std::pow(10.0, -k);
      BuiltLcp built(scene, q, u, c);
      HalmPosaLcpSolver solver;
      const LcpResult& result = solver.Solve(built.data.contacts(), &built.lcp, nullptr);
      ASSERT_TRUE(Succeeded(result.status)) << "trial " << trial << ", c " << c;
      const Eigen::VectorXd force = built.lcp.JT * result.z;
      const double c_fo = c * force.head<3>().norm(), c_fm = c * force.tail<4>().norm();
      if (k == 1) first_c_fo = c_fo;
      // c F_o vanishes at least as fast as c (within a factor 10 of c / 0.1) ...
      EXPECT_LE(c_fo, 10 * (c / 0.1) * first_c_fo + 1e-12) << "trial " << trial << ", c " << c;
      // ... while c F_m stays a sizeable part of ‖u‖: the growth of λ is internal.
      EXPECT_GE(c_fm, 0.1 * u.norm()) << "trial " << trial << ", c " << c;
    }
  }
}

// Fig. 2 right and §7: a grazing command is ambiguous under perfect velocity control, and the
// finite feedback disambiguates it. The disk between two fingers on its sides (contacts at
// angles π and 0), both commanded straight up, tangentially. z = (λ_N1, λ_N2, λ_T1 (2 rays),
// λ_T2 (2 rays), γ1, γ2). At c = 0 the LCP has the stationary disk (the fingers slide along
// it, λ = 0: Lemke's answer) and, for every squeeze k >= 1/2 (μ = 1), the disk carried up by
// sticking fingers (λ_N = k on both, 1/2 of friction on each): "the object may remain stationary,
// slide upwards" (Fig. 2). With c > 0 a squeeze would push the fingers apart (c B λ_N), which
// complementarity forbids: only the stationary disk remains among them.
TEST(HalmPosaLcp, GrazingIsAmbiguousUnderPerfectVelocityControlOnly) {
  const ScenePtr scene = DiskScene("symmetric_push.yaml");
  const double r = 1 + 1e-4;  // the rim plus the fingertips' radius: φ = 0
  Eigen::VectorXd q(7), u(4);
  q << 0, 3, 0, -r, 3, r, 3;
  u << 0, 1, 0, 1;
  const auto carried = [](double k) {
    Eigen::VectorXd z = Eigen::VectorXd::Zero(8);
    z << k, k, 0.5, 0, 0, 0.5, 0, 0;
    return z;
  };
  BuiltLcp perfect(scene, q, u, 0.0);
  ASSERT_EQ(perfect.lcp.lcp.q.size(), 8);
  HalmPosaLcpSolver solver;
  const LcpResult& lemke = solver.Solve(perfect.data.contacts(), &perfect.lcp, nullptr);
  ASSERT_TRUE(Succeeded(lemke.status)) << lemke.message;
  const auto disk_motion = [](const BuiltLcp& built, const Eigen::VectorXd& z) {
    return Eigen::Vector3d(
        (built.lcp.displacement_offset + built.lcp.displacement_map * z).head<3>());
  };
  const auto violation = [](const LcpProblem& p, const Eigen::VectorXd& z) {
    return Violation(p, z, p.M * z + p.q);
  };
  EXPECT_LE(disk_motion(perfect, lemke.z).norm(), 1e-12);  // stationary
  const double h = scene->time_step;
  for (const double k : {0.5, 1.0, 10.0}) {
    EXPECT_LE(violation(perfect.lcp.lcp, carried(k)), 1e-14) << "k " << k;
    EXPECT_TRUE(
        testing::MatricesNear(disk_motion(perfect, carried(k)), Eigen::Vector3d(0, h, 0), 1e-14))
        << "k " << k;  // carried up with the fingers
  }
  BuiltLcp finite(scene, q, u, 0.01);
  const LcpResult& result = solver.Solve(finite.data.contacts(), &finite.lcp, nullptr);
  ASSERT_TRUE(Succeeded(result.status)) << result.message;
  EXPECT_LE(disk_motion(finite, result.z).norm(), 1e-12);
  for (const double k : {0.5, 1.0, 10.0})
    EXPECT_GE(violation(finite.lcp.lcp, carried(k)), 1e-4) << "k " << k;
}

}  // namespace
}  // namespace quasidyn
