#pragma once
// A step model and one data object behind a q⁺ = f(q, u) call, for tests that step a scene
// along a schedule (header only).

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn::testing {

class Stepper {
 public:
  Stepper(ScenePtr scene, const FormulationSettings& settings)
      : model_(MakeStepModel(std::move(scene), settings)), data_(model_->CreateData()) {}
  Stepper(const Scene& scene, const FormulationSettings& settings)
      : Stepper(Shared(scene), settings) {}

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

// q⁺, A and B of one step of the program `method` differentiates for settings.type
// (formulation_table.h), from a fresh model and data: Calc, then CalcDiff(mode).
struct Linearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd q_next;
  Eigen::MatrixXd A, B;
  int active_rows = 0;
  bool ok() const { return Succeeded(status); }
};

inline Linearization Linearize(const Scene& scene, FormulationSettings settings,
                               const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                               GradientMode mode, GradientMethod method) {
  settings.type = DifferentiatedFormulation(settings.type, method);
  Stepper stepper(scene, settings);
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
