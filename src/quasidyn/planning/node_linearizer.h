#pragma once
// The linearisation ρ of the step at tree nodes, for the reachability metric
// (reachability_metric.h): at a node q̄ with the command ū = q̄_a (the robots commanded to stay
// where they are), μ = f_ρ(q̄, ū) and B = ∂f_ρ/∂u (n_q × n_q,a), by the method of the planning
// settings (model/planning_settings.h):
//
//   exact        the derivative of the scene's non-smooth program (pyramid QP or SOCP,
//                stepping/formulation_table.h, GradientMethod::kExact), μ its step;
//   log-barrier  the log-barrier smoothed program of weight κ (GradientMethod::kLogBarrier);
//   randomized   the bundled first-order estimate of randomized smoothing
//                (stepping/randomized_smoothing.h): the mean of the exact B and of the steps
//                over `samples` Gaussian perturbations of u of standard deviation σ_u.
//
// Points are evaluated on a BatchStepper (stepping/batch_step.h), so the results are bitwise
// the same for every thread count; randomized samples are seeded per point by the caller.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/stepping/batch_step.h"

namespace quasidyn {

struct NodeLinearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // why it failed; empty on success
  Eigen::VectorXd mu;   // f_ρ(q̄, q̄_a), size n_q
  Eigen::MatrixXd B;    // ∂f_ρ/∂u at (q̄, q̄_a), n_q × n_q,a
  bool ok() const { return Succeeded(status); }
};

class NodeLinearizer {
 public:
  // `stepping`: the planner's formulation settings (its type picks the program family: pyramid
  // or cone; its h the time step). threads >= 1. Throws std::invalid_argument for bad settings
  // or a scene the model rejects.
  NodeLinearizer(ScenePtr scene, const FormulationSettings& stepping,
                 const PlanningSettings& settings, int threads);

  // The linearisations at q_i (size n_q) with u = the robot part of q_i; seeds[i] seeds point i's
  // randomized samples (unused by the other methods; seeds.size() == qs.size()).
  std::vector<NodeLinearization> Linearize(const std::vector<Eigen::VectorXd>& qs,
                                           const std::vector<std::uint64_t>& seeds);

  const StepModel& model() const { return batch_.model(); }

 private:
  PlanningSettings settings_;
  BatchStepper batch_;
};

// The formulation whose step and derivative the method linearises (see above), for the
// planner's settings `stepping`.
FormulationSettings LinearizationFormulation(const FormulationSettings& stepping,
                                             const PlanningSettings& settings);

}  // namespace quasidyn
