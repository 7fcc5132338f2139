#pragma once
// A step model and one data object behind a q⁺ = f(q, u) call, for tests that step a scene
// along a schedule (header only).

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn::testing {

class Stepper {
 public:
  Stepper(ScenePtr scene, const FormulationChoice& choice)
      : model_(MakeStepModel(std::move(scene), choice)), data_(model_->CreateData()) {}
  Stepper(const Scene& scene, const FormulationChoice& choice) : Stepper(Shared(scene), choice) {}

  // Calc from x = (q, no velocity) under u; the result lives until the next Step.
  const StepResult& Step(const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
    model_->Calc(State{q, Eigen::VectorXd()}, u, data_.get());
    return data_->result;
  }
  // CalcDiff of the last Step.
  const StepDerivatives& Differentiate(GradientMode mode) {
    model_->CalcDiff(mode, data_.get());
    return data_->derivatives;
  }

  const StepModel& model() const { return *model_; }
  const std::shared_ptr<const StepModel>& model_ptr() const { return model_; }
  StepData& data() { return *data_; }

 private:
  std::shared_ptr<const StepModel> model_;
  std::unique_ptr<StepData> data_;
};

// q⁺, A and B of one step of the formulation that `method` differentiates for `choice`'s (its
// declared exact or smoothed linearisation, stepping/formulation_info.h), from a fresh model and
// data: Calc, then CalcDiff(mode).
struct Linearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd q_next;
  Eigen::MatrixXd A, B;
  int active_rows = 0;
  bool ok() const { return Succeeded(status); }
};

inline Linearization Linearize(const Scene& scene, FormulationChoice choice,
                               const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                               GradientMode mode, LinearizationMethod method) {
  const FormulationCapabilities& can = ChosenFormulation(scene, choice).info.capabilities;
  choice.name = method == LinearizationMethod::kLogBarrier ? can.smoothed_linearization
                                                           : can.exact_linearization;
  Stepper stepper(scene, choice);
  const StepResult& result = stepper.Step(q, u);
  Linearization out;
  out.q_next = result.next.q;
  if (!result.ok()) {
    out.status = result.status;
    out.message = result.message;
    return out;
  }
  const StepDerivatives& d = stepper.Differentiate(mode);
  out.status = d.status;
  out.message = d.message;
  out.A = d.A;
  out.B = d.B;
  out.active_rows = d.active_rows;
  return out;
}

}  // namespace quasidyn::testing
