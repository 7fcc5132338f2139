#pragma once
// Linearises steps of an exact step model with a smoothed method, on a documented annealing
// schedule (docs/control.md, "Smoothing schedule"; Pang, Suh, Yang & Tedrake, T-RO 2023,
// §VI-B: the iterative MPC anneals κ or σ over its iterations):
//
//   log-barrier   A, B of the log-barrier program (formulation_table.h) with weight
//                 κ_i = min(κ_0 · γ^i, κ_max)       [1/(N·m)], i = 0, 1, … the iteration
//   randomized    first-order (bundled) A, B of the exact program (randomized_smoothing.h), with
//                 σ_u,i = max(σ_0 · β^i, σ_min)     [m or rad]
//
// It sees the model only through the StepModel interface and the formulation table.

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/model/settings_schema.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

enum class SmoothingMethod { kLogBarrier, kRandomized };

// "log-barrier", "randomized" (the names of the settings' choice, SmoothingScheduleSchema).
const char* SmoothingMethodName(SmoothingMethod method);

// Each field's key, unit, range, default and one-line doc are declared once, in
// SmoothingScheduleSchema (smoothed_linearizer.cc); the comments here say what the fields mean to
// the code.
struct SmoothingSchedule {
  SmoothingMethod method = SmoothingMethod::kLogBarrier;
  double kappa_start = 100.0;  // κ_0 (the formula above)
  double kappa_growth = 2.0;   // γ
  double kappa_max = 1e4;      // κ_max, at least κ_0
  double std_start = 0.05;     // σ_0
  double std_decay = 0.8;      // β
  double std_min = 0.005;      // σ_min, at most σ_0
  int samples = 50;            // randomized: samples per linearisation
  std::uint64_t seed = 0;      // randomized samples (randomized_smoothing.h)
  int threads = 1;             // threads of the randomized batch
};

// The smoothing schedule's settings, each declared once (model/settings_schema.h): the block
// "smoothing", included in the optimiser's (TrajectoryOptimizerSettingsSchema: its `smoothing.*`
// keys, `quasidyn optimize`'s flags, TrajectoryOptimizer's Python keywords).
const SettingsSchema<SmoothingSchedule>& SmoothingScheduleSchema();

// The first problem of `schedule`: a setting outside its declared range, or a cross-field rule
// the ranges cannot say (kappa_max >= kappa_start, std_min <= std_start); the field is its path
// in the block ("kappa_max").
std::optional<SettingsProblem> CheckSmoothingSchedule(const SmoothingSchedule& schedule);

// Throws std::invalid_argument "smoothing.<field>: <problem>" (CheckSmoothingSchedule).
void ValidateSmoothingSchedule(const SmoothingSchedule& schedule);

// κ_i or σ_i of iteration i >= 0 (the method's parameter).
double SmoothingParameter(const SmoothingSchedule& schedule, int iteration);

struct StepLinearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd q_next;  // the smoothed step's q⁺ (size n_q)
  Eigen::MatrixXd A, B;    // n_q × n_q, n_q × n_u
  bool ok() const { return Succeeded(status); }
};

class SmoothedLinearizer {
 public:
  // exact: the model whose steps are linearised (a configuration state: the optimiser's states
  // are configurations, else std::invalid_argument naming the capability); the schedule is
  // validated; log-barrier smoothing of a formulation that declares none throws
  // std::invalid_argument (linearization/linearizer.h).
  SmoothedLinearizer(std::shared_ptr<const StepModel> exact, const SmoothingSchedule& schedule);

  const SmoothingSchedule& schedule() const { return schedule_; }

  // The smoothed linearisation of q⁺ = f(q, u) at iteration i's parameter; a failed step or
  // derivative is a status and a message.
  StepLinearization Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u, int iteration);
  // The same with an explicit parameter (κ or σ_u).
  StepLinearization LinearizeWith(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                  double parameter);
  // Forgets the log-barrier linearisers' warm starts (their previous minimisers): the next
  // linearisations are a fresh SmoothedLinearizer's, bitwise (an optimiser's run starts here, so
  // that a second run from the same guess repeats the first).
  void ClearWarmStarts() { barrier_.clear(); }

 private:
  std::shared_ptr<const StepModel> exact_;
  SmoothingSchedule schedule_;
  // log-barrier: one lineariser per κ met (a schedule has a handful), each keeping its warm
  // start from one iteration to the next.
  std::map<double, std::unique_ptr<Linearizer>> barrier_;
  std::unique_ptr<Linearizer> randomized_;
};

}  // namespace quasidyn
