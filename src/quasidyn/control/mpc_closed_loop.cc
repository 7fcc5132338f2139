#include "quasidyn/control/mpc_closed_loop.h"

#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/simulation/rollout.h"

namespace quasidyn {

MpcRun RunMpc(const StepModel& plant, ContactMpc* controller, const State& x0,
              const MpcRunOptions& options) {
  constexpr const char* kWhere = "RunMpc";
  QUASIDYN_CHECK_ARGUMENT(controller != nullptr, kWhere, "controller is null");
  const Scene& scene = plant.scene();
  QUASIDYN_CHECK_ARGUMENT(plant.state_v_size() == scene.nv && scene.nv > 0, kWhere,
                          "the plant has no velocity state: use a second-order formulation "
                          "(stewart-trinkle or anitescu)");
  QUASIDYN_CHECK_ARGUMENT(scene.nq == controller->scene().nq &&
                              scene.nv == controller->scene().nv &&
                              scene.nq_a == controller->scene().nq_a,
                          kWhere, "the plant's coordinates differ from the controller's scene");
  QUASIDYN_CHECK_ARGUMENT(
      std::abs(plant.time_step() - controller->time_step()) <= 1e-12 * controller->time_step(),
      kWhere,
      "the plant's time step " + NumberText(plant.time_step()) +
          " s differs from the controller's " + NumberText(controller->time_step()) + " s");
  QUASIDYN_CHECK_ARGUMENT(options.steps >= 0, kWhere,
                          "steps must be >= 0 (got " + std::to_string(options.steps) + ")");
  CheckVector(kWhere, "x0.q", x0.q, scene.nq, "n_q");
  CheckVector(kWhere, "x0.v", x0.v, scene.nv, "n_v");

  MpcRun run;
  run.trajectory = StartTrajectory(plant, x0, options.steps);
  const std::unique_ptr<StepData> data = plant.CreateData();
  State x = x0;
  for (int k = 1; k <= options.steps; ++k) {
    const MpcStep& answer = controller->Solve(x);
    MpcRunStep record;
    record.status = answer.status;
    record.has_solution = answer.has_solution;
    record.cost = answer.cost;
    record.gap = answer.gap;
    record.relative_gap = answer.relative_gap;
    record.nodes = answer.info.nodes;
    record.qp_iterations = answer.info.qp_iterations;
    record.solve_seconds = answer.info.solve_time_seconds;
    record.cpu_seconds = answer.info.cpu_seconds;
    record.build_seconds = answer.build_seconds;
    record.contacts = static_cast<int>(answer.contacts.size());
    record.binding_caps = answer.binding_caps;
    record.force = answer.force;
    if (answer.has_solution) record.predicted_state = answer.states[0];
    run.steps.push_back(record);
    if (options.progress) options.progress(k, answer);
    plant.Calc(x, answer.command, data.get());
    const StepResult& result = data->result;
    if (!result.ok()) {
      run.trajectory.status = result.status;
      run.trajectory.message = result.message;
      run.message = "plant step " + std::to_string(k) + " failed: " + result.message;
      break;
    }
    x = result.next;
    AppendStep(x, answer.command, &result, &run.trajectory);
  }
  return run;
}

}  // namespace quasidyn
