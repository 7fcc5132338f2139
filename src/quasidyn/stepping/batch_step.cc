#include "quasidyn/stepping/batch_step.h"

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/parallel_for.h"

namespace quasidyn {

BatchStepper::BatchStepper(std::shared_ptr<const StepModel> model, int threads)
    : model_(std::move(model)) {
  QUASIDYN_CHECK_ARGUMENT(model_ != nullptr, "BatchStepper", "the model is null");
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "BatchStepper",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  // Made by each worker on its first item (RunInto): its buffers then come from that thread's
  // heap arena, apart from the other worker's, and are freed with the stepper.
  data_.resize(static_cast<size_t>(threads));
}

std::vector<StepEvaluation> BatchStepper::Run(const std::vector<StepPoint>& points,
                                              GradientMode mode) {
  std::vector<StepEvaluation> results;
  RunInto(points, mode, &results);
  return results;
}

const std::vector<StepEvaluation>& BatchStepper::RunInPlace(const std::vector<StepPoint>& points,
                                                            GradientMode mode) {
  RunInto(points, mode, &results_);
  return results_;
}

void BatchStepper::RunInto(const std::vector<StepPoint>& points, GradientMode mode,
                           std::vector<StepEvaluation>* results) {
  const StepModel& model = *model_;
  QUASIDYN_CHECK_ARGUMENT(
      mode == GradientMode::kNone || model.capabilities().differentiable(), "BatchStepper::Run",
      "the " + model.formulation().name +
          " formulation has no derivative: " + model.capabilities().no_gradient);
  for (size_t i = 0; i < points.size(); ++i) {
    const std::string where = "point " + std::to_string(i);
    CheckVector(where, "x.q", points[i].x.q, model.state_q_size(), "n_q");
    CheckVector(where, "x.v", points[i].x.v, model.state_v_size(), "the state's n_v");
    CheckVector(where, "u", points[i].u, model.control_size(),
                model.capabilities().command == CommandKind::kObjectImpulses ? "n_v,u" : "n_q,a");
  }
  results->resize(points.size());
  // Item i on the next free worker with that worker's data, its warm start cleared first; each
  // item is written to its own slot of `results` (no sharing between workers); assignments
  // into an evaluation of the same sizes keep its storage.
  struct Call {  // one reference keeps ParallelFor's function small (no allocation)
    const StepModel& model;
    const std::vector<StepPoint>& points;
    GradientMode mode;
    std::unique_ptr<StepData>* data;
    StepEvaluation* results;
    const CancellationToken* cancel;
  } call{model, points, mode, data_.data(), results->data(), cancel_};
  ParallelFor(points.size(), threads(), [&call](size_t worker, size_t i) {
    if (Cancelled(call.cancel)) {  // not evaluated (set_cancel): as little work as possible, so
      StepEvaluation& skipped = call.results[i];  // that the rest of a long batch ends at once
      skipped.result = StepResult{};
      skipped.result.message = "interrupted";  // short: no allocation
      skipped.derivatives = StepDerivatives{};
      return;
    }
    std::unique_ptr<StepData>& own = call.data[worker];
    if (own == nullptr) own = call.model.CreateData();
    StepData* data = own.get();
    call.model.ClearWarmStart(data);
    call.model.Calc(call.points[i].x, call.points[i].u, data);
    call.model.CalcDiff(call.mode, data);
    call.results[i].result = data->result;
    call.results[i].derivatives = data->derivatives;
  });
}

}  // namespace quasidyn
