#pragma once
// The data the web viewer animates (viewer/src/*.js reads it): the scene's shapes per body and,
// per frame, every body's world pose and the step's contacts and solver status. Bodies' poses
// come from running the scene's kinematics at q0 and at each step's q (trajectory files store
// only q, docs/trajectory-format.md).
//
// Layout (format "quasidyn-viewer-data", version 1; units SI):
//   scene:       {name, file (the scene file's name, without its folder), planar, weight [N]
//                (the heaviest object body's weight m·|g|, 0 without gravity or objects: the
//                scene's force scale below which the page draws no vector, docs/viewer.md)}
//   run:         {formulation, time_step [s], steps_requested, steps_done, status, message}
//   bodies:      [{name, kind: "world"|"object"|"robot", shapes: [{name, type, radius [m],
//                  length [m], size [m] (3), vertices [m] (n × 3, in S), position [m] (3, S in B),
//                  quaternion (x, y, z, w) (S in B), mesh (optional: an index into `meshes`, the
//                  mesh a convex shape was hulled from, drawn instead of the hull)}],
//                  visuals (optional: the body's Scene::visuals in the same form, type a
//                  primitive or "mesh"; drawn instead of the shapes)}]; only bodies with at least
//                  one shape or visual, the world first when it has shapes.
//   meshes:      optional, when some shape or visual has a mesh: [{vertices [m] (flat, 3 per
//                vertex, in S), triangles (flat vertex indices, 3 per triangle)}]
//   frames:      {t [s] (F), step (F: 0 for q0, k for step k), status (F), iterations (F),
//                 poses (F × 7·B: per body position [m] then quaternion (x, y, z, w), in world),
//                 contacts (F lists of {a, b, point [m] (3), normal (3), normal_force [N],
//                 friction_force [N] (3), phi [m] (at the step's start), on, by (body names),
//                 force [N] (3): the force on body `on`, the object when one side is an object
//                 and the other is not, else on a's body}),
//                 momentum (F lists of {object, force [N] (3)}: the translational part of the
//                 step's momentum term s·M_u·v_u/h per object, StepResult::momentum_force)}
//   markers:     optional, only with ViewerDataOptions::marker_points: {label, points [m]
//                (P × 3, world), parents (P: the point each joins with a line, −1 none)}
//   overlays:    optional, only with ViewerDataOptions::overlays: other runs of the same scene
//                drawn as translucent copies of the bodies: [{label, color (CSS), t [s] (G),
//                poses (G × 7·B, as frames.poses)}]; the page shows, at time t, each overlay's
//                last frame with t_g <= t
//   notes:       optional, ViewerDataOptions::notes: preformatted text the page shows (a table)
//   execution:   optional, only with ViewerDataOptions::execution (execution_page.h): the page's
//                run is a plant's, its plans are the one overlay: {plant: {t [s] (K + 1),
//                distance (K + 1 D to the goal, or empty: no goal), max_penetration [m]},
//                plans: [{label, start_time [s], time_step [s], steps T, steps_run, found,
//                t [s] (T + 1), distance (T + 1, or empty), max_penetration [m]}],
//                plan_color (CSS), goal_tolerance (only with distances)}
//   target:      optional, only with ViewerDataOptions::target_configuration: what the run aims
//                at, drawn as translucent copies of some bodies: {label, poses (7·B, as one row
//                of frames.poses, at the target configuration), bodies (indices into `bodies`
//                of the bodies drawn)}
// Frame 0 is q0; it shows the contacts of step 1 (found at q0) with the forces and status of
// step 1 ("initial" and none when the trajectory has no step 1); frame j > 0 shows step k's
// q(t_k) with the contacts and forces of step k. Numbers are rounded to `significant_digits`
// digits.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

// Another run of the same scene, drawn over the main one (e.g. `quasidyn compare`'s formulations).
struct ViewerOverlay {
  std::string label;                       // e.g. the formulation's name
  std::string color;                       // CSS color, e.g. "#e4572e"
  const Trajectory* trajectory = nullptr;  // of the same scene; kept alive by the caller
};

struct ViewerDataOptions {
  // Most frames kept [-], >= 2. A trajectory with more steps is subsampled at an even stride
  // (the first frame, q0, and the last step are always kept).
  int max_frames = 2000;
  // Significant decimal digits of every number written [-], in [1, 17]. 6 digits place a body
  // to 1 µm in a 1 m scene, far below a pixel.
  int significant_digits = 6;
  // Points drawn over the scene as dots (e.g. the object positions of a plan's tree, `quasidyn
  // plan --html`), world frame [m]; empty: none. marker_parents: empty, or per point the index
  // of the point it is joined to by a line (−1: none, else in [0, points)).
  std::vector<Eigen::Vector3d> marker_points;
  std::vector<int> marker_parents;
  std::string marker_label;  // what the points are, for the page's legend
  // Runs drawn over the main one, each subsampled to max_frames as the main one is.
  std::vector<ViewerOverlay> overlays;
  // Preformatted text the page shows below its panel (e.g. a comparison table); empty: none.
  std::string notes;
  // What the run aims at (the goal of `optimize` and `plan`, the MPC's target x_d): a
  // configuration (n_q) at which the page draws the objects (target_objects_only) or every
  // body but the world as translucent copies; empty: none. target_label names it in the legend.
  Eigen::VectorXd target_configuration;
  std::string target_label = "target";
  bool target_objects_only = true;
  // A plan executed on a plant (execution_page.h builds it): written as `execution` when not
  // null.
  nlohmann::json execution;
};

// Builds the viewer data. Throws std::invalid_argument naming the problem when the trajectory
// does not fit the scene (n_q differs, a q of the wrong size or with a non-finite entry) or the
// options are out of range.
nlohmann::json BuildViewerData(const Scene& scene, const Trajectory& trajectory,
                               const ViewerDataOptions& options = {});

// `value` rounded to `digits` significant decimal digits (1 … 17); non-finite values unchanged.
double RoundToSignificantDigits(double value, int digits);

}  // namespace quasidyn
