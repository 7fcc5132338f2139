#include "quasidyn/planning/extension_batch.h"

#include <algorithm>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/parallel_for.h"

namespace quasidyn {
namespace {

struct BatchEdgeRun {
  bool ok = false;
  bool large_motion = false;  // some (sub)step moved a body past its contact distance
  double motion = 0.0;        // the largest body motion of a (sub)step [m]
  double depth = 0.0;         // the deepest overlap at the end of a (sub)step [m]
};

BatchEdgeRun RunBatchEdge(EdgeStepper* edges, const ExtensionRequest& request, int substeps,
                          int* large_motion_steps) {
  BatchEdgeRun run;
  edges->Begin(State{request.q, Eigen::VectorXd()}, request.u, substeps);
  for (int k = 0; k < request.steps; ++k) {
    if (!edges->Step()) return run;
    run.motion = std::max(run.motion, edges->step_motion());
    run.depth = std::max(run.depth, edges->step_depth());
    if (edges->step_large_motion()) {
      run.large_motion = true;
      ++*large_motion_steps;
    }
  }
  run.ok = true;
  return run;
}

// The next split of a run that overlapped too deeply (extension_batch.h); `substeps` itself
// when finer steps would not see more or max_substeps is reached.
int FinerBatchSubsteps(const BatchEdgeRun& run, int substeps, double contact_distance,
                       int max_substeps) {
  if (!run.large_motion || substeps >= max_substeps) return substeps;
  const double distance = std::max(contact_distance, 1e-12);
  const double wanted = substeps * run.motion / distance;
  int next = 2 * substeps;
  while (next < wanted && next < max_substeps) next *= 2;
  return std::min(next, max_substeps);
}

}  // namespace

ExtensionOutcome TakeExtension(EdgeStepper* edges, const ExtensionRequest& request,
                               const ExtensionLimits& limits) {
  ExtensionOutcome outcome;
  const double contact_distance = edges->model().scene().contact_tolerance;
  const int finest = std::max(limits.max_substeps, limits.min_substeps);
  for (int substeps = limits.min_substeps;;) {
    const BatchEdgeRun run = RunBatchEdge(edges, request, substeps, &outcome.large_motion_steps);
    if (!run.ok) return outcome;
    const int next = run.depth > limits.depth_limit
                         ? FinerBatchSubsteps(run, substeps, contact_distance, finest)
                         : substeps;
    if (next > substeps) {
      substeps = next;
      continue;
    }
    outcome.ok = true;
    outcome.q = edges->state().q;
    outcome.substeps = substeps;
    outcome.depth = run.depth;
    return outcome;
  }
}

ExtensionBatch::ExtensionBatch(const StepModel& model, bool measure_depth, int threads,
                               bool scale_mass) {
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "ExtensionBatch",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  for (int w = 0; w < threads; ++w)
    steppers_.push_back(std::make_unique<EdgeStepper>(model, measure_depth, scale_mass));
}

std::vector<ExtensionOutcome> ExtensionBatch::Take(const std::vector<ExtensionRequest>& requests,
                                                   const ExtensionLimits& limits) {
  std::vector<ExtensionOutcome> outcomes(requests.size());
  ParallelFor(requests.size(), threads(), [&](std::size_t worker, std::size_t i) {
    outcomes[i] = TakeExtension(steppers_[worker].get(), requests[i], limits);
  });
  return outcomes;
}

}  // namespace quasidyn
