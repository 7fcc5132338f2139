// The active-set polish of the interior-point solutions (solvers/active_set_polish.h):
// a contact inside the contact tolerance but open carries exactly 0 (the interior point leaves a
// phantom impulse of the order of its tolerance), and at a degenerate step, a contact that closes
// exactly at the step's end (the multiplier and the slack both 0), the QP and the SOCP match the
// LCP of eq. (9) of Pang & Tedrake 2021, solved by Lemke's method, to 1e-10 N. Measured with the
// polish off and on; the figures are printed ([ measured ]) for docs/formulations.md.

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <string>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/socp/socp_program.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/step_problems.h"

namespace quasidyn {
namespace {

constexpr double kH = 0.01, kSolutionPolishGravity = 9.81;

// A 1 kg disk of radius 0.05 m whose lowest point is `gap` [m] above the ground (a planar
// scene, gravity −y, no robot); contacts are kept up to 0.01 m.
Scene DiskAbove(double gap) {
  const std::string yaml = R"(
name: disk_above_ground
dimension: 2
time_step: 0.01
contact_tolerance: 0.01
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: disk
    joint: planar
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{type: sphere, radius: 0.05, friction: 0.5}]
    initial: [0, )" + std::to_string(0.05 + gap) +
                           R"(, 0]
)";
  Scene scene = LoadSceneFromString(yaml, "disk_above_ground", "");
  scene.q0[1] = 0.05 + gap;  // exactly, not through the decimal text
  return scene;
}

// The total normal force [N] of a formulation's answer for the step from q0.
double NormalForce(const ContactProgram& formulation, const StepProblem& problem) {
  const std::unique_ptr<ProgramWorkspace> workspace = formulation.CreateWorkspace();
  FormulationSolution solution;
  formulation.Solve(problem, workspace.get(), &solution);
  EXPECT_TRUE(Succeeded(solution.status)) << solution.message;
  double total = 0.0;
  for (double impulse : solution.normal_impulse) total += impulse;
  return total / kH;
}

// The same from the LCP w = G P⁻¹ Gᵀ β + (G P⁻¹ τ_h − h_G) ⊥ β solved by Lemke's method.
double LcpNormalForce(const StepProblem& problem) {
  QpProblem qp;
  BuildPyramidQp(problem, &qp);
  const Eigen::MatrixXd G = qp.G.ToDense();
  const Eigen::LLT<Eigen::MatrixXd> P(problem.cost.P.ToDense());
  LcpProblem lcp;
  lcp.M = G * P.solve(G.transpose());
  lcp.q = G * P.solve(problem.cost.tau_h) - qp.h;
  const LcpResult result = Solve(lcp);
  EXPECT_EQ(result.status, SolverStatus::kSolved) << result.message;
  return result.z.sum() / kH;  // planar: the two edges' β sum to the normal impulse
}

struct Formulations {
  QpProgram qp;
  SocpProgram socp;
};

Formulations WithPolish(bool enabled) {
  QpSettings qp = ContactQpSettings();
  qp.polish.enabled = enabled;
  SocpSettings socp;
  socp.polish.enabled = enabled;
  return {QpProgram(qp), SocpProgram(socp)};
}

// The disk falls h²g = 0.981 mm in one free step (s = 1: v = h g), so a gap of h²g closes
// exactly at the step's end: the contact is degenerate, its exact force 0.
TEST(SolutionPolish, DegenerateStepMatchesTheLcp) {
  const Scene scene = DiskAbove(kH * kH * kSolutionPolishGravity);
  const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  const testing::OwnedStepProblem owned(scene, settings, scene.q0, Eigen::VectorXd());
  ASSERT_EQ(owned.get().contacts.size(), 1);
  const double exact = LcpNormalForce(owned.get());
  EXPECT_LE(std::abs(exact), 1e-12);
  const Formulations off = WithPolish(false), on = WithPolish(true);
  const double qp_off = NormalForce(off.qp, owned.get()), qp_on = NormalForce(on.qp, owned.get());
  const double socp_off = NormalForce(off.socp, owned.get());
  const double socp_on = NormalForce(on.socp, owned.get());
  std::printf(
      "[ measured ] degenerate step, |c_n − c_n,LCP| [N]: QP %.3g before, %.3g after; "
      "SOCP %.3g before, %.3g after polishing\n",
      std::abs(qp_off - exact), std::abs(qp_on - exact), std::abs(socp_off - exact),
      std::abs(socp_on - exact));
  EXPECT_LE(std::abs(qp_on - exact), 1e-10);
  EXPECT_LE(std::abs(socp_on - exact), 1e-10);
  // Without the polish the interior point stops short of it (what the issue measured).
  EXPECT_GT(std::abs(qp_off - exact), 1e3 * std::abs(qp_on - exact) + 1e-9);
}

// A gap of 5 mm stays open (the disk falls 0.98 mm): the contact is in the set (φ <= ε) but
// carries no force.
TEST(SolutionPolish, OpenContactsCarryExactlyZero) {
  const Scene scene = DiskAbove(5e-3);
  const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  const testing::OwnedStepProblem owned(scene, settings, scene.q0, Eigen::VectorXd());
  ASSERT_EQ(owned.get().contacts.size(), 1);
  const Formulations off = WithPolish(false), on = WithPolish(true);
  const double qp_off = NormalForce(off.qp, owned.get()), qp_on = NormalForce(on.qp, owned.get());
  const double socp_off = NormalForce(off.socp, owned.get());
  const double socp_on = NormalForce(on.socp, owned.get());
  std::printf(
      "[ measured ] open contact, phantom force [N]: QP %.3g before, %.3g after; SOCP "
      "%.3g before, %.3g after polishing\n",
      qp_off, qp_on, socp_off, socp_on);
  EXPECT_EQ(qp_on, 0.0);
  EXPECT_EQ(socp_on, 0.0);
  EXPECT_GT(socp_off, 0.0);
}

// The polish reports what it did, and a solve with it off reports nothing.
TEST(SolutionPolish, ReportsWhetherItSucceeded) {
  const Scene scene = DiskAbove(5e-3);
  const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  const testing::OwnedStepProblem owned(scene, settings, scene.q0, Eigen::VectorXd());
  QpProblem qp;
  BuildPyramidQp(owned.get(), &qp);
  QpSettings qp_settings = ContactQpSettings();
  const QpResult polished = Solve(qp, qp_settings);
  EXPECT_TRUE(polished.info.polish.attempted);
  EXPECT_TRUE(polished.info.polish.succeeded);
  EXPECT_EQ(polished.info.polish.binding_blocks, 0);
  EXPECT_LT(polished.info.polish.residual_after, polished.info.polish.residual_before);
  EXPECT_EQ(polished.z.cwiseAbs().maxCoeff(), 0.0);
  qp_settings.polish.enabled = false;
  const QpResult plain = Solve(qp, qp_settings);
  EXPECT_FALSE(plain.info.polish.attempted);
  EXPECT_GT(plain.z.cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace quasidyn
