#include "quasidyn/control/mpc_miqp.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <stdexcept>
#include <string>

#include "reference/bonmin_miqp.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// A planar point mass of 1 kg (n_v = 2, both coordinates actuated) at q0 with velocity v0 and
// walls given as (normal, offset): the gap n·q − offset, rays ±t, μ = 0.5.
MpcLinearModel PointMass(const Eigen::Vector2d& q0, const Eigen::Vector2d& v0,
                         const std::vector<std::pair<Eigen::Vector2d, double>>& walls) {
  MpcLinearModel m;
  m.time_step = 0.1;
  m.q = q0;
  m.v = v0;
  m.mass = MatrixXd::Identity(2, 2);
  m.free_force = VectorXd::Zero(2);
  m.actuation = MatrixXd::Identity(2, 2);
  for (const auto& [normal, offset] : walls) {
    MpcContact c;
    c.phi = normal.dot(q0) - offset;
    c.normal = normal.transpose();
    const Eigen::Vector2d t(-normal.y(), normal.x());
    c.rays.resize(2, 2);
    c.rays << t.transpose(), -t.transpose();
    c.friction = 0.5;
    m.contacts.push_back(c);
  }
  return m;
}

MpcSettings Settings(int horizon) {
  MpcSettings s;
  s.horizon = horizon;
  s.target = VectorXd(4);
  s.target << 3, -5, 0, 0;
  s.state_weight = VectorXd::Ones(4);
  s.force_weight = VectorXd::Constant(2, 10.0);
  s.state_lower = VectorXd(4);
  s.state_upper = VectorXd(4);
  s.state_lower << -10, -10, -4, -4;
  s.state_upper << 10, 10, 4, 4;
  s.force_lower = VectorXd::Constant(2, -20.0);
  s.force_upper = VectorXd::Constant(2, 20.0);
  return s;
}

// The notes' walls: x <= 2 (right), x >= −5 (left), y >= −6 (floor).
std::vector<std::pair<Eigen::Vector2d, double>> NotesWalls() {
  return {
      {Eigen::Vector2d(-1, 0), -2.0}, {Eigen::Vector2d(1, 0), -5.0}, {Eigen::Vector2d(0, 1), -6.0}};
}

struct MiqpTrajectory {
  std::vector<VectorXd> x, tau, gamma, z;
};

MiqpTrajectory Unpack(const MpcMiqp& miqp, const VectorXd& X) {
  const MpcLayout& L = miqp.layout;
  MiqpTrajectory t;
  for (int k = 0; k < L.horizon; ++k) {
    t.x.push_back(X.segment(L.State(k), L.nx));
    t.tau.push_back(X.segment(L.Force(k), L.na));
    t.gamma.push_back(X.segment(L.Impulse(k), L.ngamma));
    t.z.push_back(X.segment(L.Binary(k), L.ngamma));
  }
  return t;
}

MiqpResult SolveMpc(const MpcMiqp& miqp) { return Solve(miqp.problem, MiqpSettings{}); }

TEST(MpcMiqpTest, SolutionFollowsTheNotesDynamicsAndComplementarity) {
  // From (1.7, −4) moving right at 2 m/s toward the wall x <= 2: contact within the horizon.
  const MpcLinearModel model = PointMass({1.7, -4}, {2, -0.5}, NotesWalls());
  MpcMiqp miqp;
  BuildMpcMiqp(model, Settings(6), &miqp);
  const MiqpResult r = SolveMpc(miqp);
  ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
  MatrixXd A, B, C;
  VectorXd F;
  model.ExplicitDynamics(&A, &B, &C, &F);
  const MiqpTrajectory t = Unpack(miqp, r.x);
  VectorXd x = (VectorXd(4) << model.q, model.v).finished();
  const double tolerance = 1e-7;
  double largest_normal = 0;
  for (int k = 0; k < miqp.layout.horizon; ++k) {
    // Eq. (7).
    const VectorXd predicted = A * x + B * t.tau[k] + C * t.gamma[k] + F;
    EXPECT_LE((predicted - t.x[k]).lpNorm<Eigen::Infinity>(), tolerance) << "step " << k;
    // Eqs. (8)–(9): 0 <= γ ⟂ w >= 0, the pairs by the binaries.
    const VectorXd w = model.Complementarity(t.x[k], t.gamma[k]);
    for (int g = 0; g < miqp.layout.ngamma; ++g) {
      EXPECT_GE(t.gamma[k][g], -tolerance);
      EXPECT_GE(w[g], -tolerance);
      EXPECT_LE(std::min(t.gamma[k][g], w[g]), tolerance) << "step " << k << " pair " << g;
      EXPECT_TRUE(t.z[k][g] == 0.0 || t.z[k][g] == 1.0);
      EXPECT_LE(t.gamma[k][g], miqp.impulse_cap[k][g] * (1 + 1e-9));
    }
    largest_normal = std::max(largest_normal, t.gamma[k][0]);
    x = t.x[k];
  }
  EXPECT_GT(largest_normal, 0.1) << "the right wall must push back within the horizon";
  // J from the trajectory equals the MIQP's objective plus its constant.
  EXPECT_NEAR(MpcCost(model, ResolvedMpcSettings(Settings(6), 4, 2), t.x, t.tau), r.objective,
              1e-6 * (1 + std::abs(r.objective)));
}

TEST(MpcMiqpTest, WithoutContactsTheFirstForceIsTheFiniteHorizonLqr) {
  // No walls and loose boxes: the MIQP has no binary and its τ_0 is −K_0 (x_0 − x_d) of the
  // Riccati recursion P_N = Q_f, K = (R + BᵀPB)⁻¹BᵀPA, P ← Q + AᵀP(A − BK) (x_d an
  // equilibrium: v_d = 0, F = 0), computed here independently.
  MpcLinearModel model = PointMass({-2, -4}, {0.3, 0.1}, {});
  MpcSettings settings = Settings(8);
  settings.state_lower *= 100;
  settings.state_upper *= 100;
  settings.force_lower *= 100;
  settings.force_upper *= 100;
  MpcMiqp miqp;
  BuildMpcMiqp(model, settings, &miqp);
  EXPECT_TRUE(miqp.problem.binaries.empty());
  const MiqpResult r = SolveMpc(miqp);
  ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
  MatrixXd A, B, C;
  VectorXd F;
  model.ExplicitDynamics(&A, &B, &C, &F);
  const MatrixXd Q = MatrixXd::Identity(4, 4), R = 10 * MatrixXd::Identity(2, 2);
  MatrixXd P = Q;  // Q_f = Q
  MatrixXd K;
  for (int k = settings.horizon - 1; k >= 0; --k) {
    K = (R + B.transpose() * P * B).ldlt().solve(B.transpose() * P * A);
    P = Q + A.transpose() * P * (A - B * K);
  }
  const VectorXd x0 = (VectorXd(4) << model.q, model.v).finished();
  const VectorXd expected = -K * (x0 - settings.target);
  const VectorXd tau0 = r.x.segment(miqp.layout.Force(0), 2);
  EXPECT_LE((tau0 - expected).lpNorm<Eigen::Infinity>(), 1e-6 * (1 + expected.norm()))
      << tau0.transpose() << " vs " << expected.transpose();
  // The optimal cost is x_0ᵀ P_0 x_0 in the shifted coordinates.
  EXPECT_NEAR(r.objective, (x0 - settings.target).dot(P * (x0 - settings.target)),
              1e-6 * r.objective);
}

TEST(MpcMiqpTest, DerivedBigMDoesNotCutOffTheOptimum) {
  // The same problem with one large M (the notes' single M, 10× every derived cap): the
  // optimum must not change, i.e. the derived caps do not bind at it.
  for (const Eigen::Vector2d& v0 : {Eigen::Vector2d(2, -0.5), Eigen::Vector2d(3.5, 1.0)}) {
    const MpcLinearModel model = PointMass({1.6, -4}, v0, NotesWalls());
    MpcSettings settings = Settings(5);
    MpcMiqp derived, large;
    BuildMpcMiqp(model, settings, &derived);
    double largest = 0;
    for (const VectorXd& caps : derived.impulse_cap) largest = std::max(largest, caps.maxCoeff());
    for (const VectorXd& caps : derived.complementarity_cap)
      largest = std::max(largest, caps.maxCoeff());
    settings.big_m = 10 * largest;
    BuildMpcMiqp(model, settings, &large);
    const MiqpResult a = SolveMpc(derived), b = SolveMpc(large);
    ASSERT_EQ(a.status, MiqpStatus::kOptimal) << a.message;
    ASSERT_EQ(b.status, MiqpStatus::kOptimal) << b.message;
    EXPECT_NEAR(a.objective, b.objective, 1e-6 * (1 + std::abs(b.objective)))
        << "v0 = " << v0.transpose();
    // And the derived relaxation is tighter: its root has fewer or equal nodes to close.
    EXPECT_LE(a.info.nodes, b.info.nodes * 2 + 10);
  }
}

TEST(MpcMiqpTest, ContactsThatCannotCloseHaveTheirBinariesFixed) {
  // Far from every wall with |v| <= 4 m/s and h = 0.1 s: within 3 steps the robot moves at most
  // 1.2 m, so no gap closes and every binary is fixed (one relaxation, no branching).
  const MpcLinearModel model = PointMass({-2, -4}, {0, 0}, NotesWalls());
  MpcMiqp miqp;
  BuildMpcMiqp(model, Settings(3), &miqp);
  EXPECT_EQ(miqp.fixed_binaries, static_cast<int>(miqp.problem.binaries.size()));
  const MiqpResult r = SolveMpc(miqp);
  ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
  EXPECT_EQ(r.info.nodes, 1);
}

TEST(MpcMiqpTest, BoundsThatCannotBeMetAreInfeasible) {
  // The state box excludes x_0's neighbourhood: the robot at x = 1.7 cannot be at x >= 5 after
  // one step of at most 0.4 m.
  const MpcLinearModel model = PointMass({1.7, -4}, {0, 0}, NotesWalls());
  MpcSettings settings = Settings(3);
  settings.state_lower[0] = 5;
  settings.state_upper[0] = 9;
  MpcMiqp miqp;
  BuildMpcMiqp(model, settings, &miqp);
  const MiqpResult r = SolveMpc(miqp);
  EXPECT_EQ(r.status, MiqpStatus::kInfeasible) << r.message;
  EXPECT_FALSE(r.has_solution);
}

TEST(MpcMiqpTest, MatchesBonminOnTheNotesExample) {
  // An independent solver on the same MIQP: Bonmin (outer approximation).
  for (const Eigen::Vector2d& v0 : {Eigen::Vector2d(2, -0.5), Eigen::Vector2d(1, -1)}) {
    const MpcLinearModel model = PointMass({1.6, -4}, v0, NotesWalls());
    MpcMiqp miqp;
    BuildMpcMiqp(model, Settings(4), &miqp);
    const MiqpResult ours = SolveMpc(miqp);
    const reference::BonminResult theirs = reference::SolveWithBonmin(miqp.problem);
    ASSERT_EQ(ours.status, MiqpStatus::kOptimal) << ours.message;
    ASSERT_TRUE(theirs.optimal) << theirs.status;
    EXPECT_NEAR(ours.objective, theirs.objective, 1e-5 * (1 + std::abs(theirs.objective)));
  }
}

TEST(MpcMiqpTest, BadInputNamesTheField) {
  const MpcLinearModel model = PointMass({-2, -4}, {0, 0}, NotesWalls());
  MpcMiqp miqp;
  const auto expect = [&](const MpcLinearModel& m, const MpcSettings& s, const std::string& what) {
    try {
      BuildMpcMiqp(m, s, &miqp);
      FAIL() << "expected std::invalid_argument with " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  MpcSettings s = Settings(0);
  expect(model, s, "horizon");
  s = Settings(3);
  s.target.resize(3);
  expect(model, s, "target has size 3");
  s = Settings(3);
  s.force_upper.resize(0);
  expect(model, s, "force_upper");
  s = Settings(3);
  s.force_weight[1] = 0;
  expect(model, s, "force_weight");
  MpcLinearModel bad = model;
  bad.time_step = 0;
  expect(bad, Settings(3), "time_step");
  bad = model;
  bad.contacts[1].rays.resize(2, 3);
  expect(bad, Settings(3), "contacts[1].rays");
  bad = model;
  bad.mass(0, 0) = -1;
  expect(bad, Settings(3), "mass");
}

}  // namespace
}  // namespace quasidyn
