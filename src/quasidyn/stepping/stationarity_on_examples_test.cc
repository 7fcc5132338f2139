// How exactly the QP's and the SOCP's answers meet their optimality conditions on the example
// scenes, with the active-set polish (solvers/active_set_polish.h) off and on: the stationarity
// of the step's program, P v − τ_h = Σ_i J_iᵀ λ_i + Σ_l J_lᵀ λ_l (Pang & Tedrake 2021, eq. 10's
// KKT conditions; the SOCP's, Pang, Suh, Yang & Tedrake 2023, eq. 17, in the same impulses),
// relative to the largest of its terms. The interior point stops at its relative tolerance
// (1e-9, qp.h, socp.h); the polish solves the KKT system of the answer's active set and refines
// it down to rounding (PolishSettings::rounding_floor · ε of its own terms). Each example's
// worst step is printed ([ measured ]) for docs/formulations.md, "How exact a step's answer is".

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <tuple>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/qp/qp_program.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/socp/socp_program.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/step_problems.h"

namespace quasidyn {
namespace {

using testing::kSourceDir;

constexpr int kSteps = 30;
// The interior points' default relative tolerance (qp.h, socp.h).
constexpr double kSolverTolerance = 1e-9;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// ‖P v − τ_h − Jᵀλ − J_lᵀλ_l‖∞ over the largest of ‖P v‖∞, ‖τ_h‖∞ and ‖Jᵀλ + J_lᵀλ_l‖∞: the
// relative error of the step's stationarity.
double RelativeStationarity(const StepProblem& problem, const FormulationSolution& solution) {
  const testing::Stationarity s = testing::StationarityOf(problem, solution);
  // What the impulses balance, P v − τ_h (large where a contact holds a stiff robot back).
  const Eigen::VectorXd Pv = problem.cost.P.ToDense() * solution.v;
  const double impulses = (Pv - problem.cost.tau_h).lpNorm<Eigen::Infinity>();
  return s.residual / std::max({s.scale, impulses, 1e-300});
}

std::unique_ptr<const ContactProgram> Program(const std::string& type, bool polish) {
  if (type == "qp") {
    QpSettings settings = ContactQpSettings();
    settings.polish.enabled = polish;
    return std::make_unique<QpProgram>(settings, QpStart::kCold);
  }
  SocpSettings settings;
  settings.polish.enabled = polish;
  return std::make_unique<SocpProgram>(settings, SocpStart::kCold);
}

struct Worst {
  double off = 0.0, on = 0.0;   // the largest relative stationarity, polish off and on
  int polished = 0, steps = 0;  // steps whose answer the polish replaced, steps solved
};

class StationarityOnExamples
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(StationarityOnExamples, PolishedAnswersMeetStationarityToRounding) {
  const auto& [example, type] = GetParam();
  const ScenePtr scene_ptr =
      testing::Shared(LoadScene(kSourceDir + "/examples/" + example + "/scene.yaml"));
  const Scene& scene = *scene_ptr;
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = type;
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene_ptr, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  const std::unique_ptr<const ContactProgram> off = Program(type, false), on = Program(type, true);
  const double h = settings.time_step;
  Eigen::VectorXd q = scene.q0;
  Worst worst;
  for (int k = 0; k < kSteps; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    const Eigen::VectorXd u = scene.CommandAt((k + 1) * h);
    const testing::OwnedStepProblem owned(scene_ptr, settings, q, u);
    QuasiDynamicCost cost;
    const StepProblem problem = testing::StepModelProblem(owned, q, u, &cost);
    const FormulationSolution interior = testing::SolveWith(problem, *off);
    const FormulationSolution polished = testing::SolveWith(problem, *on);
    ASSERT_EQ(interior.status, SolverStatus::kSolved) << interior.message;
    ASSERT_EQ(polished.status, SolverStatus::kSolved) << polished.message;
    const double before = RelativeStationarity(problem, interior);
    const double after = RelativeStationarity(problem, polished);
    // The interior point meets its own relative tolerance.
    EXPECT_LE(before, 10 * kSolverTolerance);
    if (polished.solver.polished) {
      // A kept polish solved the active set's KKT system: its error is rounding, a few ε of
      // the terms times the rows summed (the contacts' and limits' impulses enter one sum).
      // The door too: the polish's acceptance keeps no answer less stationary than the
      // interior point's (active_set_polish.h, step 4).
      const double rows = 1.0 + problem.contacts.size() + problem.cost.limits.size();
      EXPECT_LE(after, 64 * kEpsilon * rows) << "polished; the interior point's " << before;
    } else {
      EXPECT_LE(after, 10 * kSolverTolerance);
    }
    if (polished.solver.polished) ++worst.polished;
    worst.off = std::max(worst.off, before);
    worst.on = std::max(worst.on, after);
    ++worst.steps;
    model->Calc(State{q, Eigen::VectorXd()}, u, data.get());
    ASSERT_TRUE(data->result.ok()) << data->result.message;
    q = data->result.next.q;
  }
  std::printf(
      "[ measured ] stationarity %s %s: %d steps, the interior point's worst %.2g, polished "
      "%d of %d, worst after the polish %.2g (relative; ε = %.2g)\n",
      example.c_str(), type.c_str(), worst.steps, worst.off, worst.polished, worst.steps, worst.on,
      kEpsilon);
}

INSTANTIATE_TEST_SUITE_P(
    QpAndSocp, StationarityOnExamples,
    ::testing::Combine(::testing::Values("planar_gripper", "planar_pushing", "planar_hand",
                                         "arm_cubes", "urdf_pusher", "sdf_pushing", "mjcf_arm",
                                         "mesh_objects", "door", "drawer"),
                       ::testing::Values("qp", "socp")),
    [](const auto& test) { return std::get<0>(test.param) + "_" + std::get<1>(test.param); });

}  // namespace
}  // namespace quasidyn
