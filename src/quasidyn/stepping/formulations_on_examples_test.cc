// Every formulation steps every example scene for a few dozen steps: each step is solved, q
// stays finite with unit quaternions, every impulse lies in its friction cone, and the
// reported impulses satisfy the optimality conditions of the problem that was built
// (stationarity P v − τ_h = Σ J_iᵀλ_i, and complementarity where the formulation has it).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/step_problems.h"

namespace quasidyn {
namespace {

using testing::kSourceDir;

// The default absolute and relative tolerance of the QP, SOCP interior points (qp.h, socp.h).
constexpr double kSolverTolerance = 1e-9;
// Their inaccurate_factor: a kSolvedInaccurate answer meets the tests this much looser.
constexpr double kInaccurateFactor = 1e4;
constexpr int kSteps = 30;

double ToleranceFor(const FormulationSolution& solution) {
  return solution.status == SolverStatus::kSolved ? kSolverTolerance
                                                  : kSolverTolerance * kInaccurateFactor;
}

class FormulationsOnExamples
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(FormulationsOnExamples, StepsStayPhysicalAndOptimal) {
  const auto& [example, type] = GetParam();
  const ScenePtr scene_ptr =
      testing::Shared(LoadScene(kSourceDir + "/examples/" + example + "/scene.yaml"));
  const Scene& scene = *scene_ptr;
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = type;
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene_ptr, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  const double h = settings.time_step;
  Eigen::VectorXd q = scene.q0;
  int steps_with_contact_force = 0;
  for (int k = 0; k < kSteps; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    const Eigen::VectorXd u = scene.CommandAt((k + 1) * h);
    const testing::OwnedStepProblem owned(scene_ptr, settings, q, u);
    // The program the step model solves (testing::StepModelProblem).
    const std::unique_ptr<const QuasiDynamicProgram> program = settings.program();
    QuasiDynamicCost cost;
    const StepProblem problem = testing::StepModelProblem(owned, q, u, &cost);
    const FormulationSolution solution = testing::SolveWith(problem, *program);
    ASSERT_TRUE(solution.status == SolverStatus::kSolved ||
                solution.status == SolverStatus::kSolvedInaccurate)
        << ToString(solution.status) << ": " << solution.message;
    const double tolerance = ToleranceFor(solution);

    // Stationarity of the built problem with the reported impulses. The log barrier stops on
    // its Newton decrement (≤ 1e-14 N·m, then one more Newton step), far below this.
    const testing::Stationarity stationarity = testing::StationarityOf(problem, solution);
    EXPECT_LE(stationarity.residual, 10 * tolerance * (1 + stationarity.scale));

    // Cones: λ_n >= 0, friction tangent and ‖λ_t‖ <= μ λ_n (the pyramids are inscribed in the
    // cone, so this holds for every formulation).
    double normal_sum = 0;
    for (int i = 0; i < problem.contacts.size(); ++i) {
      const Contact& c = problem.contacts[i];
      const double lambda_n = solution.normal_impulse[i];
      const Eigen::Vector3d f = solution.friction_impulse[i];
      const double slack = 10 * tolerance * (1 + stationarity.scale);
      EXPECT_GE(lambda_n, -slack) << "contact " << i;
      EXPECT_NEAR(c.normal.dot(f), 0.0, slack) << "contact " << i;
      EXPECT_LE(f.norm(), c.friction * lambda_n + slack) << "contact " << i;
      if (type == "log-barrier" || type == "log-barrier-cone") {
        EXPECT_GT(lambda_n, 0.0) << "barrier impulses are strictly positive";
      }
      normal_sum += lambda_n;
    }
    if (normal_sum > 1e-6) ++steps_with_contact_force;

    // Complementarity: the contact impulses do no work on the velocity constraint (QP, SOCP);
    // the barriers keep a gap of 1/κ per pyramid row and 2/κ per cone.
    const double gap = testing::ContactComplementarity(problem, solution);
    const double objective_scale = std::max(1.0, std::abs(testing::Objective(problem, solution.v)));
    // The joint-limit rows: λ_l g_l = 0 (exact programs), 1/κ per row (barriers).
    const double limit_gap = testing::LimitComplementarity(problem, solution);
    const int limit_rows = problem.cost.limits.size();
    if (type == "log-barrier" || type == "log-barrier-cone") {
      EXPECT_NEAR(limit_gap, limit_rows / settings.kappa, 1e-9 * (1 + limit_gap));
    } else {
      EXPECT_NEAR(limit_gap, 0.0, 10 * tolerance * objective_scale);
    }
    if (type == "qp" || type == "socp") {
      EXPECT_NEAR(gap, 0.0, 10 * tolerance * objective_scale);
    } else if (type == "log-barrier-cone") {
      EXPECT_NEAR(gap, 2.0 * problem.contacts.size() / settings.kappa, 1e-9 * (1 + gap));
    } else if (type == "lcp") {
      // Maximum dissipation: the impulses' power is −μ λ_n Γ <= 0.
      EXPECT_LE(gap, 10 * tolerance * objective_scale);
    }

    // The step model returns the same velocity and integrates it. Both solves start alike (no
    // warm start): a log barrier's minimiser depends on its start within its Newton tolerance
    // (a few 1e-12 m/s on the mesh and cylinder examples, whose contacts go through FCL).
    model->ClearWarmStart(data.get());
    model->Calc(State{q, Eigen::VectorXd()}, u, data.get());
    const StepResult& result = data->result;
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_LE((result.velocity - solution.v).lpNorm<Eigen::Infinity>(),
              1e-12 * (1 + solution.v.norm()));
    ASSERT_EQ(result.contacts.size(), static_cast<size_t>(problem.contacts.size()));
    for (int i = 0; i < problem.contacts.size(); ++i)
      EXPECT_NEAR(result.contacts[i].normal_force, solution.normal_impulse[i] / h,
                  1e-9 * (1 + std::abs(solution.normal_impulse[i] / h)));
    q = result.next.q;
    ASSERT_TRUE(q.allFinite());
    for (const Joint& joint : scene.joints) {
      if (joint.type == JointType::kFloating) {
        EXPECT_NEAR(q.segment(joint.q_start + 3, 4).norm(), 1.0, 1e-12);
      }
    }
  }
  EXPECT_GT(steps_with_contact_force, 0) << "the example never pressed on a contact";
}

INSTANTIATE_TEST_SUITE_P(
    AllFormulations, FormulationsOnExamples,
    ::testing::Combine(::testing::Values("planar_gripper", "planar_pushing", "planar_hand",
                                         "arm_cubes", "urdf_pusher", "sdf_pushing", "mjcf_arm",
                                         "mesh_objects", "door", "drawer"),
                       ::testing::Values("qp", "socp", "log-barrier", "log-barrier-cone", "lcp")),
    [](const auto& test_info) {
      std::string name =
          std::get<0>(test_info.param) + "_" + std::string(std::get<1>(test_info.param));
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

}  // namespace
}  // namespace quasidyn
