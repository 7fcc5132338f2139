#pragma once
// quasidyn.RolloutBatch, the result of quasidyn.rollout_batch (rollout_batch_bindings.cc): the B
// trajectories and the sizes of their stacked arrays (rollout_batch_result_bindings.cc binds
// the class).

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn::python {

// The result of rollout_batch: the B trajectories and the sizes of their arrays (also for
// B = 0 and for rollouts that stopped early).
struct PyRolloutBatch {
  std::vector<std::shared_ptr<Trajectory>> trajectories;
  int steps = 0;           // N, the steps asked of every rollout
  double time_step = 0.0;  // h [s]
  int nq = 0;
  int nv_state = 0;  // the size of v in the state: n_v, or 0 without a velocity state
  int nu = 0;        // the command's size
  int nv_u = 0;
  int nv = 0;
  int threads = 1;
  GradientMode gradients = GradientMode::kNone;
};

// The class RolloutBatch of module m.
void BindRolloutBatchResult(pybind11::module_& m);

}  // namespace quasidyn::python
