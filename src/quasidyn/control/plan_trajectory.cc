#include "quasidyn/control/plan_trajectory.h"

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"

namespace quasidyn {

Trajectory PlanToTrajectory(const StepModel& model, const std::vector<Eigen::VectorXd>& q,
                            const std::vector<Eigen::VectorXd>& u,
                            const std::vector<bool>& regrasp_steps) {
  constexpr const char* kWhere = "PlanToTrajectory";
  QUASIDYN_CHECK_ARGUMENT(q.size() == u.size() + 1, kWhere,
                          "q must have one more entry than u (q_0 … q_T, u_0 … u_{T−1})");
  QUASIDYN_CHECK_ARGUMENT(regrasp_steps.empty() || regrasp_steps.size() == u.size(), kWhere,
                          "regrasp_steps must be empty or have one entry per command");
  const Scene& scene = model.scene();
  CheckVector(kWhere, "q[0]", q[0], scene.nq, "n_q");
  Trajectory out =
      StartTrajectory(model, State{q[0], Eigen::VectorXd()}, static_cast<int>(u.size()));
  // The steps solved again for their contacts (a plan has no v: quasi-dynamic models only).
  const bool solves = model.capabilities().state == StateKind::kConfiguration;
  const std::unique_ptr<StepData> data = solves ? model.CreateData() : nullptr;
  for (size_t k = 0; k < u.size(); ++k) {
    CheckVector(kWhere, "q", q[k + 1], scene.nq, "n_q");
    CheckVector(kWhere, "u", u[k], scene.nq_a, "n_q,a");
    const StepResult* result = nullptr;
    if (solves && (regrasp_steps.empty() || !regrasp_steps[k])) {
      model.Calc(State{q[k], Eigen::VectorXd()}, u[k], data.get());
      if (data->result.ok()) result = &data->result;
    }
    AppendStep(q[k + 1], u[k], result, &out);
  }
  out.status = SolverStatus::kSolved;
  return out;
}

GuessFile ReadGuessFile(const std::string& file) {
  GuessFile out;
  out.trajectory = ReadTrajectory(file);  // .npz or JSON, with its own errors
  if (file.size() >= 4 && file.compare(file.size() - 4, 4, ".npz") == 0) return out;
  std::ifstream in(file);
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (json.is_object() && json.contains("plan")) {
    const PlanFile plan = ReadPlanFile(file);
    out.step_edges = plan.step_edges;
    out.physical_regrasp_steps = PhysicalRegraspSteps(plan.nodes, plan.path);
    out.physical_regrasp_steps.resize(out.step_edges.size());  // a replay that stopped early
  }
  return out;
}

InitialGuess GuessFromTrajectory(const Trajectory& trajectory,
                                 const std::vector<EdgeKind>& step_edges, const StepModel& model,
                                 int steps) {
  constexpr const char* kWhere = "GuessFromTrajectory";
  const Scene& scene = model.scene();
  QUASIDYN_CHECK_ARGUMENT(steps >= 1, kWhere, "steps must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(trajectory.nq == scene.nq && trajectory.q0.size() == scene.nq, kWhere,
                          "the trajectory has n_q = " + std::to_string(trajectory.nq) +
                              ", the scene " + std::to_string(scene.nq));
  QUASIDYN_CHECK_ARGUMENT(step_edges.empty() || step_edges.size() == trajectory.steps.size(),
                          kWhere,
                          "the plan has " + std::to_string(step_edges.size()) + " step kinds for " +
                              std::to_string(trajectory.steps.size()) + " steps");
  InitialGuess guess;
  Eigen::VectorXd last = trajectory.q0.tail(scene.nq_a);
  for (int k = 0; k < steps; ++k) {
    bool regrasp = false;
    if (k < static_cast<int>(trajectory.steps.size())) {
      CheckVector(kWhere, "the trajectory's command", trajectory.steps[k].u, scene.nq_a, "n_q,a");
      last = trajectory.steps[k].u;
      regrasp = !step_edges.empty() && step_edges[k] == EdgeKind::kRegrasp;
    }
    guess.u.push_back(last);
    guess.regrasp.push_back(regrasp);
  }
  return guess;
}

}  // namespace quasidyn
