#pragma once
// A step model for tests (header only; include it where the stepping layer is linked): it
// forwards every Calc to an inner model, except the Calc calls whose numbers (1, 2, … counted
// over the model's life, across all its data) are in `fail_calls`, which fail with status
// numerical_failure, the message "injected failure at call N" and the state kept, as a solver
// that gives up would. It shows how a caller handles a failed step that it cannot provoke on
// purpose in a real scene. With set_displacement(dq), those calls succeed instead and their
// q⁺ is moved by dq (a step that carried a body into another, as one that missed a contact
// does).

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "quasidyn/stepping/step_model.h"

namespace quasidyn::testing {

class FailingStepModel final : public StepModel {
 public:
  FailingStepModel(std::shared_ptr<const StepModel> inner, std::set<int> fail_calls)
      : StepModel(inner->scene_ptr(), inner->time_step(), inner->formulation(),
                  inner->parameters()),
        inner_(std::move(inner)),
        fail_calls_(std::move(fail_calls)) {}

  std::unique_ptr<StepData> CreateData() const override {
    return std::unique_ptr<StepData>(new Data(this, inner_->CreateData()));
  }
  void ClearWarmStart(StepData* data) const override {
    inner_->ClearWarmStart(static_cast<Data&>(*data).inner.get());
  }

  // Displaces q⁺ of the chosen calls by dq (size n_q) instead of failing them.
  void set_displacement(Eigen::VectorXd dq) { displacement_ = std::move(dq); }

  int calls() const { return calls_; }
  int failures() const { return failures_; }

 private:
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const override {
    Data& d = static_cast<Data&>(*data);
    const int call = ++calls_;
    if (fail_calls_.count(call) > 0 && displacement_.size() > 0) {
      inner_->Calc(x, u, d.inner.get());
      d.result = d.inner->result;
      d.result.next.q += displacement_;
      ++failures_;
      return;
    }
    if (fail_calls_.count(call) > 0) {
      ++failures_;
      return FailStep(SolverStatus::kNumericalFailure,
                      "injected failure at call " + std::to_string(call), data);
    }
    inner_->Calc(x, u, d.inner.get());
    d.result = d.inner->result;
  }
  void DoCalcDiff(GradientMode mode, StepData* data) const override {
    Data& d = static_cast<Data&>(*data);
    inner_->CalcDiff(mode, d.inner.get());
    d.derivatives = d.inner->derivatives;
  }

  struct Data final : StepData {
    Data(const StepModel* model, std::unique_ptr<StepData> inner_data)
        : StepData(model), inner(std::move(inner_data)) {}
    std::unique_ptr<StepData> inner;
  };
  std::shared_ptr<const StepModel> inner_;
  std::set<int> fail_calls_;
  Eigen::VectorXd displacement_;
  mutable int calls_ = 0;
  mutable int failures_ = 0;
};

}  // namespace quasidyn::testing
