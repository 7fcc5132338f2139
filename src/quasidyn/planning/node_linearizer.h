#pragma once
// The linearisation ρ of the step at tree nodes, for the reachability metric
// (reachability_metric.h): at a node q̄ with the command ū that holds the robots where they are
// (StepModel::HoldingCommand: q̄_a for a position command), μ = f_ρ(q̄, ū) and B = ∂f_ρ/∂u
// (n_q × n_u), by the method of the planning settings (model/planning_settings.h), through the
// one lineariser (linearization/linearizer.h):
//
//   exact        the derivative of the formulation's exact linearisation, μ its step;
//   log-barrier  its log-barrier smoothing of weight κ = settings.kappa;
//   randomized   the bundled first-order estimate of randomized smoothing: the mean of the exact
//                B and of the steps over `samples` Gaussian perturbations of u of standard
//                deviation σ_u.
//
// Points are evaluated on the lineariser's threads, so the results are bitwise the same for
// every thread count; randomized samples are seeded per point by the caller.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/model/planning_settings.h"

namespace quasidyn {

struct NodeLinearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // why it failed; empty on success
  Eigen::VectorXd mu;   // f_ρ(q̄, ū), size n_q
  Eigen::MatrixXd B;    // ∂f_ρ/∂u at (q̄, ū), n_q × n_u
  bool ok() const { return Succeeded(status); }
};

// The lineariser's options for the planning settings' method (B only).
LinearizationOptions NodeLinearizationOptions(const PlanningSettings& settings, int threads);

class NodeLinearizer {
 public:
  // `model`: the planner's model (its formulation, parameters and h); threads >= 1. Throws
  // std::invalid_argument for bad settings, a formulation without the linearisation the method
  // needs, or a scene the model rejects.
  NodeLinearizer(const StepModel& model, const PlanningSettings& settings, int threads);

  // The linearisations at q_i (size n_q) with u = the holding command at q_i; seeds[i] seeds
  // point i's randomized samples (unused by the other methods; seeds.size() == qs.size()).
  std::vector<NodeLinearization> Linearize(const std::vector<Eigen::VectorXd>& qs,
                                           const std::vector<std::uint64_t>& seeds);

  const StepModel& model() const { return linearizer_.model(); }

 private:
  Linearizer linearizer_;
};

}  // namespace quasidyn
