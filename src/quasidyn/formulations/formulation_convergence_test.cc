// Limits between formulations on one 3D sliding step (a sphere pushes a cube diagonally
// across the ground, so the sliding directions are not along the pyramid's rays):
//  - the pyramid QP tends to the exact-cone SOCP as n_d grows. The friction magnitude gap of
//    the pyramid is 1 − cos(π/n_d) (its inscribed cone has μ cos(π/n_d)), second order, but a
//    polyhedral cone also bends the sliding direction toward the normals of its facets, by up
//    to π/n_d: the velocity error is first order, O(sin(π/n_d));
//  - the log barriers tend to the QP / SOCP as κ grows (O(1/κ) under strict complementarity).
// Solvers run with tight tolerances so that their error is far below the differences measured.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/socp/socp_program.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/step_problems.h"

namespace quasidyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

QpSettings TightQp() {
  QpSettings s = ContactQpSettings();
  s.absolute_tolerance = 1e-13;
  s.relative_tolerance = 1e-12;
  return s;
}
SocpSettings TightSocp() {
  SocpSettings s;
  // 1e-11: solvers/socp.h stops on a non-finite iterate when asked for 1e-12 on this scene.
  s.absolute_tolerance = 1e-11;
  s.relative_tolerance = 1e-11;
  return s;
}

// The pusher commanded 0.02 m along +x and 0.01 m along +y for one step from rest.
Eigen::VectorXd PushCommand(const Scene& scene) {
  Eigen::VectorXd u = scene.q0.tail(scene.nq_a);
  u[0] += 0.02;
  u[1] += 0.01;
  return u;
}

testing::ProgramSettings SettingsOf(const Scene& scene, std::string type, double kappa = 100) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = type;
  settings.kappa = kappa;
  return settings;
}

Eigen::VectorXd SocpVelocity(const Scene& scene) {
  const testing::OwnedStepProblem owned(scene, SettingsOf(scene, "socp"), scene.q0,
                                        PushCommand(scene));
  const FormulationSolution s = testing::SolveWith(owned.get(), SocpProgram(TightSocp()));
  EXPECT_EQ(s.status, SolverStatus::kSolved) << s.message;
  return s.v;
}

TEST(FormulationConvergence, PyramidQpApproachesTheConeAsRaysGrow) {
  const Eigen::VectorXd v_cone = SocpVelocity(testing::DiagonalPushScene(4));
  ASSERT_GT(v_cone.head(2).norm(), 0.1) << "the cube should slide (m/s)";
  std::vector<double> errors;
  for (int rays : {4, 16, 64}) {
    const Scene scene = testing::DiagonalPushScene(rays);
    const testing::OwnedStepProblem owned(scene, SettingsOf(scene, "qp"), scene.q0,
                                          PushCommand(scene));
    const FormulationSolution s = testing::SolveWith(owned.get(), QpProgram(TightQp()));
    ASSERT_EQ(s.status, SolverStatus::kSolved) << s.message;
    errors.push_back((s.v - v_cone).norm() / v_cone.norm());
    // Relative velocity error at most the direction bias sin(π/n_d) of the pyramid.
    EXPECT_LE(errors.back(), std::sin(kPi / rays)) << "n_d = " << rays;
  }
  // sin(π/n_d) falls by ≈ 3.6 from 4 to 16 rays and ≈ 4 from 16 to 64: demand 3.
  EXPECT_LT(errors[1], errors[0] / 3);
  EXPECT_LT(errors[2], errors[1] / 3);
}

// ‖v_barrier(κ) − v_limit‖ / ‖v_limit‖ for κ = 10⁴, 10⁶, 10⁸ [1/(N·m)]. Here impulses are
// ~0.1 N·s and velocities ~1 m/s, so κ = 10² (a barrier gap 1/κ = 0.01 N·m per row) is still
// far from the asymptotic regime.
std::vector<double> BarrierErrors(std::string barrier, const Eigen::VectorXd& v_limit,
                                  const Scene& scene) {
  std::vector<double> errors;
  for (double kappa : {1e4, 1e6, 1e8}) {
    const testing::OwnedStepProblem owned(scene, SettingsOf(scene, barrier, kappa), scene.q0,
                                          PushCommand(scene));
    const FormulationSolution s = testing::SolveWith(owned);
    EXPECT_EQ(s.status, SolverStatus::kSolved) << s.message;
    errors.push_back((s.v - v_limit).norm() / v_limit.norm());
  }
  return errors;
}

void ExpectShrinksLikeOneOverKappa(const std::vector<double>& errors) {
  // Each 100-fold increase of κ divides the error by ~100 (O(1/κ)); demand 10, which also
  // allows the O(1/√κ) of a degenerate contact.
  EXPECT_LT(errors[1], errors[0] / 10);
  EXPECT_LT(errors[2], errors[1] / 10);
  EXPECT_LT(errors[2], 1e-3);
}

TEST(FormulationConvergence, PyramidBarrierApproachesTheQp) {
  const Scene scene = testing::DiagonalPushScene(4);
  const testing::OwnedStepProblem owned(scene, SettingsOf(scene, "qp"), scene.q0,
                                        PushCommand(scene));
  const FormulationSolution qp = testing::SolveWith(owned.get(), QpProgram(TightQp()));
  ASSERT_EQ(qp.status, SolverStatus::kSolved);
  const std::vector<double> errors = BarrierErrors("log-barrier", qp.v, scene);
  ExpectShrinksLikeOneOverKappa(errors);
}

TEST(FormulationConvergence, ConeBarrierApproachesTheSocp) {
  const Scene scene = testing::DiagonalPushScene(4);
  const std::vector<double> errors = BarrierErrors("log-barrier-cone", SocpVelocity(scene), scene);
  ExpectShrinksLikeOneOverKappa(errors);
}

}  // namespace
}  // namespace quasidyn
