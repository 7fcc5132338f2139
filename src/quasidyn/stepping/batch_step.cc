#include "quasidyn/stepping/batch_step.h"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>

#include "quasidyn/common/argument_check.h"

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
  const size_t thread_count = data_.size();
  std::vector<std::exception_ptr> errors(thread_count);
  // Worker t computes items t, t + T, t + 2T, …: a fixed assignment, and each item is written
  // to its own slot of `results` (no sharing between workers).
  auto work = [&](size_t t) {
    try {
      StepData* data = data_[t].get();
      for (size_t i = t; i < points.size(); i += thread_count) {
        model.ClearWarmStart(data);
        model.Calc(points[i].x, points[i].u, data);
        model.CalcDiff(mode, data);
        results[i].result = data->result;
        results[i].derivatives = data->derivatives;
      }
    } catch (...) {  // inputs were checked above; report anything else after the join
      errors[t] = std::current_exception();
    }
  };
  const size_t workers = std::min(thread_count, points.size());
  std::vector<std::thread> pool;
  pool.reserve(workers > 0 ? workers - 1 : 0);
  try {
    for (size_t t = 1; t < workers; ++t) pool.emplace_back(work, t);
  } catch (...) {  // a thread could not be started: finish the started ones, then report
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  if (workers > 0) work(0);  // the calling thread is worker 0
  for (std::thread& thread : pool) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return results;
}

}  // namespace quasidyn
