#pragma once
// The one lineariser of quasidyn: A = ∂x⁺/∂x and B = ∂x⁺/∂u of a formulation's step at (x, u),
// by one of three methods, for one point or a batch on threads. The command line's
// `linearize`, Python's Linearizer and BatchLinearizer, the planner's node linearisations
// (planning/node_linearizer.h) and the optimiser's and stabiliser's smoothed linearisations
// (control/smoothed_linearizer.h) all go through it.
//
//   exact        CalcDiff of the formulation whose derivative its exact linearisation takes
//                (FormulationCapabilities::exact_linearization: its own, or the pyramid QP's
//                for lcp and log-barrier, the SOCP's for log-barrier-cone), x⁺ its step;
//   log-barrier  CalcDiff of its log-barrier smoothing (smoothed_linearization; weight κ =
//                options.kappa, else the formulation's), x⁺ that program's step: the T-RO 2023
//                smoothing (Pang, Suh, Yang & Tedrake, eqs. (27), (34));
//   randomized   randomized smoothing of the step (stepping/randomized_smoothing.h): the
//                first-order (bundled) mean of the samples' gradients or the zeroth-order
//                least-squares fit of their steps, the samples' gradients those of the exact
//                program (the barrier's for a barrier formulation).
//
// Which formulation is differentiated is decided by the formulation's declared capabilities,
// never by its name; where a method needs a capability the formulation lacks, the constructor
// says which (std::invalid_argument). Batches are bitwise identical for every thread count
// (stepping/batch_step.h); randomized samples are seeded per point.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/stepping/randomized_smoothing.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

enum class LinearizationMethod { kExact, kLogBarrier, kRandomized };
enum class RandomizedEstimator { kFirstOrder, kZerothOrder };

// "exact", "log-barrier", "randomized"; "first-order", "zeroth-order". The parsers throw
// std::invalid_argument naming the accepted spellings.
const char* LinearizationMethodName(LinearizationMethod method);
LinearizationMethod ParseLinearizationMethod(const std::string& name);
const char* RandomizedEstimatorName(RandomizedEstimator estimator);
RandomizedEstimator ParseRandomizedEstimator(const std::string& name);

// The settings of the block `linearization` (method, kappa, randomized.*, estimator, threads,
// contact_tolerance) have their units, ranges, defaults and docs declared once, in
// LinearizationSettingsSchema (linearization_settings.cc); mode and warm_start are the callers'.
struct LinearizationOptions {
  LinearizationMethod method = LinearizationMethod::kExact;
  GradientMode mode = GradientMode::kAAndB;  // kBOnly: B alone (cheaper)
  // log-barrier: κ [1/(N·m)], finite and > 0, of the smoothed program; unset: the formulation's
  // (the scene's kappa, else DefaultKappa).
  std::optional<double> kappa;
  // randomized: samples N >= 1, σ_u, σ_q >= 0 [m or rad], seed; and the estimator.
  RandomizedSmoothingSettings randomized;
  RandomizedEstimator estimator = RandomizedEstimator::kFirstOrder;
  int threads = 1;  // >= 1: the batch's threads (and a randomized point's samples')
  // ε [m] >= 0 of the linearised step's contact query, larger than the scene's so that B sees a
  // contact beyond the step's tolerance (docs/gradients.md); unset: the scene's.
  std::optional<double> contact_tolerance;
  // exact and log-barrier, one point at a time (Linearize): keep the program's warm start (the
  // log barrier's previous minimiser) from one call to the next, as a sequential caller's own
  // data would (the optimiser's iterations). false: every point on its own, as in a batch.
  bool warm_start = false;
};

// Throws std::invalid_argument naming the setting out of its range or the rule it breaks
// (CheckLinearizationOptions): "linearization.samples: must be >= 1 (got 0)".
void ValidateLinearizationOptions(const LinearizationOptions& options);

struct Linearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;       // why it failed; empty on success
  bool step_failed = false;  // the step itself failed (else, when not ok, its derivative)
  // The linearised step's x⁺ (randomized: the samples' mean q⁺); x itself when the step failed,
  // the step's x⁺ when only its derivative failed.
  State x_next;
  Eigen::VectorXd velocity;  // the step's v (StepResult::velocity; empty for randomized)
  Eigen::MatrixXd A;         // ∂x⁺/∂x (empty for mode kBOnly)
  Eigen::MatrixXd B;         // ∂x⁺/∂u
  Eigen::MatrixXd A_standard_error, B_standard_error;  // randomized only
  int active_rows = 0;                                 // exact and log-barrier
  int samples_used = 0, samples_failed = 0;            // randomized only
  std::string first_failure;  // randomized: the first excluded sample's message, if any
  bool ok() const { return Succeeded(status); }
};

// The step evaluation a Linearization of the exact or log-barrier method came from (its step's
// x⁺, status and message, its derivative's A, B and status): what the randomized estimators read.
StepEvaluation EvaluationOf(const Linearization& linearization);

class Linearizer {
 public:
  // Linearises the steps of formulation `choice` of `scene` (FormulationChoice: unset parts are
  // the scene's) by `options`. Throws std::invalid_argument for bad options, a formulation
  // without the capability the method needs, or a scene the differentiated model rejects.
  Linearizer(ScenePtr scene, const FormulationChoice& choice, const LinearizationOptions& options);
  // The same for the steps of `model` (its formulation, parameter values and time step).
  Linearizer(const StepModel& model, const LinearizationOptions& options);

  const LinearizationOptions& options() const { return options_; }
  // The formulation whose steps are linearised, and the model that is differentiated.
  const std::string& formulation() const { return formulation_; }
  const StepModel& model() const { return batch_->model(); }
  const std::shared_ptr<const StepModel>& model_ptr() const { return batch_->model_ptr(); }
  // What is linearised and how, one line: "implicit differentiation of the KKT conditions of
  // pyramid QP (...)", "first-order (bundled) mean of ... 100 samples, std u 0.01, seed 0".
  std::string Description() const;
  // The differentiated program alone: its title, and its kappa when it has one.
  std::string ProgramDescription() const;

  // The linearisation at (x, u) (sizes of the model's state and command).
  Linearization Linearize(const State& x, const Eigen::VectorXd& u);
  // One linearisation per point, on options.threads threads; a randomized point i draws its
  // samples with seeds[i] (seeds empty: options.randomized.seed for every point).
  std::vector<Linearization> LinearizeBatch(const std::vector<StepPoint>& points,
                                            const std::vector<std::uint64_t>& seeds = {});
  // The randomized settings of the following calls (the optimiser anneals σ_u).
  void SetRandomized(const RandomizedSmoothingSettings& settings);
  // The caller's request to stop the following calls early (common/cancellation.h; null, the
  // default: never), checked before each point and each randomized sample (BatchStepper::
  // set_cancel). What a call returns once it is set is not a linearisation: the points and
  // estimates it did not finish have status not_run and the message "interrupted ...". The
  // token must outlive the calls that use it.
  void SetCancellation(const CancellationToken* token);

  // The randomized method in parts, for samples evaluated on other machines (a Dask cluster,
  // docs/distributed.md): the linearisations of samples first … first + count − 1 of the point
  // (x, u) (steps only for the zeroth-order estimator), and the estimate from all N of them in
  // sample order, bitwise equal to Linearize(x, u). Throws std::invalid_argument for another
  // method, a range outside the N samples, or samples of another size or mode.
  std::vector<Linearization> EvaluateSamples(const State& x, const Eigen::VectorXd& u, int first,
                                             int count);
  Linearization EstimateFromSamples(const State& x, const Eigen::VectorXd& u,
                                    const std::vector<Linearization>& samples);

 private:
  Linearization FromEvaluation(StepEvaluation evaluation) const;
  GradientMode SampleMode() const;
  Linearization Randomized(const State& x, const Eigen::VectorXd& u);
  bool Interrupted() const { return Cancelled(batch_->cancel()); }

  LinearizationOptions options_;
  std::string formulation_;  // the stepped formulation
  std::unique_ptr<BatchStepper> batch_;
  std::unique_ptr<StepData> sequential_;  // options.warm_start: Linearize's own data
};

}  // namespace quasidyn
