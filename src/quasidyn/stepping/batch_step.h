#pragma once
// Batch evaluation of a step model: x⁺ = f(x_i, u_i) and, by GradientMode, A_i and B_i
// (step_model.h) for N points, on T worker threads (std::thread): the building block of the
// planners and of randomized smoothing (randomized_smoothing.h).
//
// Determinism: the result is bitwise identical for every T. The model is shared; each thread
// owns a data object; a thread takes the next item not yet taken when it is free
// (common/parallel_for.h); before each item the data's warm start is cleared
// (StepModel::ClearWarmStart), so every item is computed on its own by the same code from the
// same inputs, and nothing is reduced across threads.
//
// Failures: an item whose step or derivative fails keeps its status and message and does not
// stop the batch. Bad input (sizes, NaN, T < 1, gradients of a model without derivatives)
// throws std::invalid_argument naming the item before any work starts.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// One point of a batch: the state (for the quasi-dynamic models, q of size n_q, v empty;
// quaternions need not be normalised) and the command u (size n_q,a [m or rad]).
struct StepPoint {
  State x;
  Eigen::VectorXd u;
};

// What Calc and CalcDiff left in the data for one point (copies).
struct StepEvaluation {
  StepResult result;
  StepDerivatives derivatives;
  bool ok() const { return result.ok() && derivatives.ok(); }
};

class BatchStepper {
 public:
  // threads T >= 1 (std::invalid_argument otherwise); a null model throws too.
  BatchStepper(std::shared_ptr<const StepModel> model, int threads);

  int threads() const { return static_cast<int>(data_.size()); }
  const StepModel& model() const { return *model_; }
  const std::shared_ptr<const StepModel>& model_ptr() const { return model_; }

  // The caller's request to stop the following Runs early (common/cancellation.h; null, the
  // default: never). Each worker checks it before each item; an item it finds set is not
  // evaluated: its result has status not_run, the message "interrupted" and nothing else (next
  // empty), its derivatives status not_run. The token must outlive the Runs that use it.
  void set_cancel(const CancellationToken* token) { cancel_ = token; }
  const CancellationToken* cancel() const { return cancel_; }

  // result[i] = Calc(points[i]) then CalcDiff(mode), on the next free thread. Not reentrant: one
  // Run at a time per BatchStepper.
  std::vector<StepEvaluation> Run(const std::vector<StepPoint>& points, GradientMode mode);

  // The same results into this stepper's own buffer, returned (valid until the next Run or
  // RunInPlace): its evaluations are overwritten in place, so once a batch of the same shape
  // (points, contacts per point) has run, the next one allocates nothing per item.
  const std::vector<StepEvaluation>& RunInPlace(const std::vector<StepPoint>& points,
                                                GradientMode mode);

 private:
  // Checks the points and mode, then evaluates them into *results (resized to points.size(),
  // the evaluations already there overwritten).
  void RunInto(const std::vector<StepPoint>& points, GradientMode mode,
               std::vector<StepEvaluation>* results);

  std::shared_ptr<const StepModel> model_;
  std::vector<std::unique_ptr<StepData>> data_;  // one per thread, made on its first item
  std::vector<StepEvaluation> results_;          // RunInPlace's
  const CancellationToken* cancel_ = nullptr;    // set_cancel's
};

}  // namespace quasidyn
