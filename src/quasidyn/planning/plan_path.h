#pragma once
// A planned path as a standard trajectory (simulation/trajectory.h): the path's edges replayed
// through the exact stepper, so that `quasidyn view` plays it, later stages (trajectory
// optimisation) refine it, and a test can check that it reproduces the tree.
//
// Replay, edge by edge from the root's q:
//   kExtend   the warm start is cleared (as the planner did) and the edge's `steps` steps are
//             taken under its constant command u, each as the edge's `substeps` substeps of
//             h/substeps with the command ramped (edge_stepper.h); each step is one trajectory
//             step with the contacts and solver statistics of its last substep, its largest
//             body motion and its large-motion warning (Trajectory::large_motion_steps);
//   kRegrasp  the robots are reset to the edge's configuration u, the objects kept as the replay
//             left them: one trajectory step with that q, command u, status solved and no
//             contacts (nothing was stepped); a physical regrasp (its `commands` non-empty,
//             regrasp_execution.h) is one step of the stepper per command, the warm start
//             cleared before each, and its steps are recorded in step_edges as kExtend: they
//             are steps under a command like an extension's, which tracking and the optimiser
//             follow as such (step_nodes still marks the regrasp node at its last step).
// Step k ends at t_k = k·h (a regrasp takes a slot of h too). The planner and the replay run the
// same computations on the same inputs, so the replayed configurations equal the tree's bit for
// bit; `max_node_deviation` measures it. `max_penetration` is the check of docs/planning.md
// ("Plans that stay physical"): the deepest overlap of two shapes at q0 and at the end of every
// (sub)step and regrasp of the replay (penetration_meter.h).

#include <vector>

#include "quasidyn/planning/rrt.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

struct ReplayedPath {
  Trajectory trajectory;
  std::vector<EdgeKind> step_edges;  // per trajectory step: kExtend (a stepped step) or kRegrasp
                                     // (a reset regrasp)
  std::vector<int> step_nodes;       // per step: the path node it completes, or -1 inside an edge
  // max over the path's nodes of max_i |replayed q_i − node q_i| [m, rad]; 0 for the root alone.
  double max_node_deviation = 0.0;
  // The deepest overlap of two shapes along the replay [m] (penetration_meter.h), at q0 and at
  // the end of every substep, step and regrasp; +∞ where the narrow phase failed.
  double max_penetration = 0.0;
  // Its two parts [m]: the start's own overlap (a given q0 may overlap: the first step
  // separates it, docs/qsim-files.md) and the deepest overlap the path's steps and regrasps
  // reach after it; max_penetration = max(start_penetration, path_penetration).
  double start_penetration = 0.0;
  double path_penetration = 0.0;
};

// Replays `path` (node indices, root first, each the parent of the next) of `nodes` with `model`
// (the planner's exact stepper). A step that fails stops the replay; the trajectory then carries
// its status and message like a rollout's. Throws std::invalid_argument for an empty path, a path
// that is not a chain of parents, or sizes that do not fit the model's scene.
// `scale_mass`: the substeps' models as the planner made them with extension_substeps > 1
// (EdgeStepper's `scale_mass`; ReplayPlan passes the plan's setting).
ReplayedPath ReplayPath(const StepModel& model, const std::vector<PlanNode>& nodes,
                        const std::vector<int>& path, bool scale_mass = false);

// Per trajectory step of the path's replay (ReplayPath), whether it is a step of a physical
// regrasp (recorded in step_edges as kExtend): the robots let go of the objects, move and close
// again. std::invalid_argument for a path index outside `nodes`.
std::vector<bool> PhysicalRegraspSteps(const std::vector<PlanNode>& nodes,
                                       const std::vector<int>& path);

// The path of a plan (plan.path to its best node) replayed with the plan's exact stepper
// (MakeStepModel(scene, plan.stepping)).
ReplayedPath ReplayPlan(ScenePtr scene, const PlanResult& plan);

// The length of the objects' motion along a replayed path: Σ over steps and objects of the
// position change [m] and of the rotation angle [rad] (planar: |Δθ|; 3D: the angle of the
// relative rotation).
struct PathLength {
  double position = 0.0;  // [m]
  double rotation = 0.0;  // [rad]
};
PathLength ObjectPathLength(const Scene& scene, const Trajectory& trajectory);

}  // namespace quasidyn
