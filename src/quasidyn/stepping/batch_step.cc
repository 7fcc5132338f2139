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
  data_.reserve(threads);
  for (int t = 0; t < threads; ++t) data_.push_back(model_->CreateData());
}

std::vector<StepEvaluation> BatchStepper::Run(const std::vector<StepPoint>& points,
                                              GradientMode mode) {
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
  std::vector<StepEvaluation> results(points.size());
  // Item i on the next free worker with that worker's data, its warm start cleared first; each
  // item is written to its own slot of `results` (no sharing between workers).
  ParallelFor(points.size(), threads(), [&](size_t worker, size_t i) {
    StepData* data = data_[worker].get();
    model.ClearWarmStart(data);
    model.Calc(points[i].x, points[i].u, data);
    model.CalcDiff(mode, data);
    results[i].result = data->result;
    results[i].derivatives = data->derivatives;
  });
  return results;
}

}  // namespace quasidyn
