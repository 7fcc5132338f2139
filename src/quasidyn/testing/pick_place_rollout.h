#pragma once
// The pick-and-place of examples/arm_cubes at h = 0.1 s (issue 38), rolled out by a
// quasi-dynamic formulation: the warm-start tests of the QP and the SOCP step
// (formulations/programs/pyramid_qp_warm_start_test.cc, friction_cone_socp_warm_start_test.cc)
// run it warm and cold.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn::testing {

constexpr double kPickPlaceTimeStep = 0.1;  // h [s]: the pick-and-place
constexpr int kPickPlaceSteps = 40;         // the approach, the grasp and the lift

// The scene's quasi-dynamic model with the formulation `formulation` ("qp", "socp") at h.
inline std::shared_ptr<const QuasiDynamicModel> PickPlaceModel(const std::string& formulation) {
  const ScenePtr scene =
      Shared(LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml"));
  return std::dynamic_pointer_cast<const QuasiDynamicModel>(
      MakeStepModel(scene, FormulationChoice(formulation, {}, kPickPlaceTimeStep)));
}

struct PickPlaceRun {
  std::vector<State> states;  // x_0 … x_K
  std::vector<int> iterations;
};

// A rollout of the scene's schedule from its initial state; cold: the warm start cleared before
// each step. Every step must succeed (a test failure otherwise).
inline PickPlaceRun RollPickPlace(const QuasiDynamicModel& model, StepData* data, bool cold) {
  PickPlaceRun run;
  run.states.push_back(InitialState(model));
  for (int k = 1; k <= kPickPlaceSteps; ++k) {
    if (cold) model.ClearWarmStart(data);
    model.Calc(run.states.back(), model.scene().CommandAt(k * kPickPlaceTimeStep), data);
    EXPECT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
    run.states.push_back(data->result.next);
    run.iterations.push_back(data->result.solver.iterations);
  }
  return run;
}

// Steps k − 1 and k of `run` (2 <= k <= kPickPlaceSteps) computed afresh into `previous` and
// `current`: the two steps whose answers a warm-start test relates.
inline void CalcConsecutiveSteps(const QuasiDynamicModel& model, const PickPlaceRun& run, int k,
                                 StepData* previous, StepData* current) {
  model.Calc(run.states[k - 2], model.scene().CommandAt((k - 1) * kPickPlaceTimeStep), previous);
  model.Calc(run.states[k - 1], model.scene().CommandAt(k * kPickPlaceTimeStep), current);
}

// How far two answers of the step's program that pass its solver's stopping tests (absolute and
// relative tolerances ε_abs, ε_rel) can lie apart [m/s or rad/s]: the cost ½vᵀPv − τ_hᵀv is
// strongly convex with modulus λ_min(P), so a point whose KKT residuals are within ε = ε_abs +
// ε_rel · max(1, ‖τ_h‖∞, ‖P v‖∞) lies within about ε/λ_min(P) of the minimiser; 10 × that for two
// such points and the primal and gap terms. (arm_cubes at h = 0.1: λ_min(P) = 2.7e-4, so 1e-9
// tolerances leave ~1e-5.) `data` holds the step's answer.
inline double StepAgreementTolerance(const StepData& data, double absolute_tolerance,
                                     double relative_tolerance) {
  const QuasiDynamicCost& cost = static_cast<const QuasiDynamicData&>(data).cost();
  Eigen::MatrixXd P;
  cost.P.ToDense(&P);
  const double lambda_min = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(P).eigenvalues()(0);
  Eigen::VectorXd Pv;
  cost.P.Multiply(data.result.velocity, &Pv);
  const double scale =
      std::max({1.0, cost.tau_h.lpNorm<Eigen::Infinity>(), Pv.lpNorm<Eigen::Infinity>()});
  return 10.0 * (absolute_tolerance + relative_tolerance * scale) / lambda_min;
}

}  // namespace quasidyn::testing
