#pragma once
// Closed loop by re-planning (T-RO 2023, §VI-B, the iterative MPC run as a controller that
// re-plans from each reached state over the plan's remaining steps): at control step t, from the
// measured q, solve the trajectory optimiser's QP (trajopt_qp.h) over the remaining window
// t … T − 1 of the plan, starting from δq_t = q − q_ref,t, on the plan's smoothed
// linearisations (log-barrier κ, made once), and send u_ref,t + δu_t:
//
//   min_δu  Σ_{k=t+1..T} ‖q^u_ref,k + δq^u_k − g‖²_{W_k} + ρ Σ_{k=t..T−1} ‖u_k − u_{k−1}‖²
//   s.t.    δq_{k+1} = A_k δq_k + B_k δu_k,  δq_t = q − q_ref,t,  |δu_k|∞ <= d
//
// with the cost of the optimisation that made the plan (goal g, weights W, ρ), u_{t−1} the
// plan's command before t (δu_{t−1} = 0), and A_k, B_k the smoothed linearisation of plan step
// k. The one-step stabiliser (stabilizer.h) corrects the next configuration only; this
// controller sees where a correction leads by the end of the plan, which a pusher that can only
// push (a box, examples/box_turning) needs: its one-step-best correction turns the box.
//
// One QP of (T − t)·n_u variables per control step (dense, on our interior point); a QP that
// fails sends u_ref,t and solver_message() says so.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/control/plan_controller.h"
#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

struct ShrinkingHorizonMpcSettings {
  Eigen::VectorXd object_goal;      // g (size n_q,u): the plan's goal
  Eigen::VectorXd object_weight;    // w >= 0 (size n_q,u; empty: all 1) on steps before T
  Eigen::VectorXd terminal_weight;  // w_T >= 0 (size n_q,u; empty: 10·w) on step T
  double rate_weight = 0.1;         // ρ > 0 on ‖u_k − u_{k−1}‖²
  double max_deviation = 0.02;      // d > 0 [m or rad]: |u_k − u_ref,k|∞ <= d
  double kappa = 5000.0;            // log-barrier κ > 0 [1/(N·m)] of the linearisations
};

class ShrinkingHorizonMpc final : public PlanController {
 public:
  // model: the planning model; q_ref: T + 1 configurations, u_ref: T commands. Throws
  // std::invalid_argument on sizes, NaN, settings out of range, or a plan step whose
  // linearisation fails (naming the step).
  ShrinkingHorizonMpc(std::shared_ptr<const StepModel> model, std::vector<Eigen::VectorXd> q_ref,
                      std::vector<Eigen::VectorXd> u_ref,
                      const ShrinkingHorizonMpcSettings& settings);

  int steps() const override { return static_cast<int>(u_ref_.size()); }
  const Eigen::VectorXd& Command(int t, const Eigen::VectorXd& q) override;
  const std::string& solver_message() const { return message_; }

 private:
  std::shared_ptr<const StepModel> model_;
  std::vector<Eigen::VectorXd> q_ref_, u_ref_;
  TrajoptQpData data_;  // the whole plan's data; each step solves its tail
  TrajoptQpData window_;
  QpProblem problem_;
  QpSolver solver_;
  Eigen::VectorXd u_;
  std::string message_;
};

}  // namespace quasidyn
