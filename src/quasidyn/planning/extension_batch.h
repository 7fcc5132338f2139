#pragma once
// The extensions of one batched round of the planner (rrt.h, PlanningSettings::extension_batch,
// docs/planning.md "Batched extensions") taken side by side on threads: B extend edges, each
// from a node of the tree as it was before the round, are independent of each other, so each is
// taken on a worker's own EdgeStepper (edge_stepper.h) and writes its own outcome.
//
// An edge is taken as the planner takes every extend edge: `steps` steps of h under the constant
// command u; when the run overlaps deeper than the limit and a (sub)step moved a body past its
// contact distance d, it is taken again from its start with n = 2, 4, … substeps of h/n per step
// (the power of 2 at or above n·motion/d, at least twice the last n, at most max_substeps) until
// it stays within the limit or n reaches max_substeps (the same rule as Planner::TakeEdge).
//
// Determinism: every edge begins with the warm start cleared (EdgeStepper::Begin) and depends
// only on its request, so the outcomes are bitwise the same for every thread count and for every
// order in which the workers take the edges (the test RrtBatch.SameTreeAtAnyThreadCount).

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/planning/edge_stepper.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

struct ExtensionRequest {
  Eigen::VectorXd q;  // the configuration the edge starts from (size n_q)
  Eigen::VectorXd u;  // the command held over the edge (size control_size())
  int steps = 1;      // >= 1: steps of h
};

struct ExtensionOutcome {
  bool ok = false;             // every (sub)step succeeded; false: a step failed, no q
  Eigen::VectorXd q;           // the configuration reached (when ok)
  int substeps = 1;            // the substeps per step of the run kept (>= 1)
  double depth = 0.0;          // [m] the kept run's deepest overlap (0 without measure_depth)
  int large_motion_steps = 0;  // steps of all runs that moved a body past its contact distance
};

// What an extend edge may overlap and how finely it may be split.
struct ExtensionLimits {
  double depth_limit = 0.0;  // [m] >= 0: the deepest overlap an edge may leave
  int max_substeps = 1;      // >= 1: the finest split of a step
  int min_substeps = 1;      // >= 1: the first split tried (PlanningSettings::extension_substeps)
};

// One extend edge on `edges` (the rule above). The end state is also edges->state().
ExtensionOutcome TakeExtension(EdgeStepper* edges, const ExtensionRequest& request,
                               const ExtensionLimits& limits);

class ExtensionBatch {
 public:
  // `model`: the planner's model (must outlive the batch); `measure_depth` and `scale_mass` as
  // EdgeStepper's; `threads` >= 1 workers, each with its own EdgeStepper made here
  // (std::invalid_argument otherwise).
  ExtensionBatch(const StepModel& model, bool measure_depth, int threads, bool scale_mass = false);

  // outcomes[i] of requests[i], taken on the workers' steppers.
  std::vector<ExtensionOutcome> Take(const std::vector<ExtensionRequest>& requests,
                                     const ExtensionLimits& limits);

  int threads() const { return static_cast<int>(steppers_.size()); }

 private:
  std::vector<std::unique_ptr<EdgeStepper>> steppers_;  // one per worker
};

}  // namespace quasidyn
