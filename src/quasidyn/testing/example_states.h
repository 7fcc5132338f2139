#pragma once
// The example scenes at chosen steps of their scheduled rollouts, and an independent step
// function with tight solver tolerances for the finite-difference reference of the
// derivatives (header only; for the tests of gradients/ and stepping/).

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/formulations/programs/log_barrier_pyramid.h"
#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn::testing {

inline ScenePtr LoadExample(const std::string& name) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

// The configuration after `steps` steps of `settings`' model on the scene's schedule (q = q0;
// u_k = CommandAt((k+1)h)), and the command of the next step.
struct ExampleState {
  Eigen::VectorXd q, u;
};
inline ExampleState StateAfter(const ScenePtr& scene, const ProgramSettings& settings, int steps) {
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  State x = InitialState(*model);
  const double h = settings.time_step;
  for (int k = 0; k < steps; ++k) {
    model->Calc(x, scene->CommandAt((k + 1) * h), data.get());
    if (!data->result.ok()) throw std::runtime_error("rollout failed: " + data->result.message);
    x = data->result.next;
  }
  return {x.q, scene->CommandAt((steps + 1) * h)};
}

inline ExampleState StateAfter(const Scene& scene, const ProgramSettings& settings, int steps) {
  return StateAfter(std::make_shared<const Scene>(scene), settings, steps);
}

// QP tolerances for the reference: 1e-12 (vs 1e-9 in the step models), so that the solver's
// error τ ≈ 1e-12 divided by the FD step δ ≈ 6e-6 stays ≈ 2e-7, below the test tolerances.
constexpr double kReferenceSolverTolerance = 1e-12;

// q⁺ of the pyramid QP or the barrier pyramid through the dynamics layer's builders (contacts
// → cost → BuildPyramidQp / BuildPyramidLogBarrier → solver → StepConfiguration),
// independent of gradients/ and stepping/. A failed solve gives NaN (finite_difference.h).
class ReferenceStep {
 public:
  ReferenceStep(const Scene& scene, const ProgramSettings& settings)
      : ReferenceStep(std::make_shared<const Scene>(scene), settings) {}
  ReferenceStep(const ScenePtr& scene, const ProgramSettings& settings)
      : settings_(settings),
        model_(std::make_shared<ContactModel>(scene, settings.CandidateDistance(*scene))),
        data_(std::make_shared<ContactData>(model_->CreateData())),
        stiffness_(scene->ActuatedStiffness()) {}
  Eigen::VectorXd operator()(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
    const Eigen::VectorXd failed =
        Eigen::VectorXd::Constant(q.size(), std::numeric_limits<double>::quiet_NaN());
    if (!model_->Compute(q, data_.get())) return failed;
    QuasiDynamicCost cost;
    BuildQuasiDynamicCost(data_->kinematics(), u, stiffness_, settings_.cost(), &cost);
    const StepProblem problem{model_->scene(), data_->contacts(), cost, settings_.time_step};
    Eigen::VectorXd v;
    if (settings_.type == "log-barrier") {
      LogBarrierProblem barrier;
      BuildPyramidLogBarrier(problem, settings_.kappa, &barrier);
      LogBarrierSettings settings;
      settings.use_previous_solution = false;
      const LogBarrierResult result = Solve(barrier, settings);
      if (result.status != SolverStatus::kSolved) return failed;
      v = result.x;
    } else {
      QpProblem qp;
      BuildPyramidQp(problem, &qp);
      QpSettings settings = ContactQpSettings();
      settings.absolute_tolerance = kReferenceSolverTolerance;
      settings.relative_tolerance = kReferenceSolverTolerance;
      settings.max_iterations = 200;
      const QpResult result = Solve(qp, settings);
      if (result.status != SolverStatus::kSolved) return failed;
      v = result.x;
    }
    return StepConfiguration(model_->scene(), q, v, settings_.time_step);
  }
  StepFunction AsFunction() const {
    const ReferenceStep copy = *this;
    return [copy](const Eigen::VectorXd& q, const Eigen::VectorXd& u) { return copy(q, u); };
  }

 private:
  ProgramSettings settings_;
  std::shared_ptr<ContactModel> model_;
  std::shared_ptr<ContactData> data_;
  Eigen::VectorXd stiffness_;
};

}  // namespace quasidyn::testing
