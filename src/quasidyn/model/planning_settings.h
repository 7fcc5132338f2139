#pragma once
// What a planning query asks for: the goal of the objects, the region the planner samples, the
// reachability metric and the limits of RRT through contact (Pang, Suh, Yang & Tedrake, T-RO
// 2023; Pang's talk "Planning and Control for Contact-rich Manipulation", 2022). A scene file
// may give these in its optional `planning:` block (docs/scene-format.md, io/planning_reader.h);
// the command line and Python override them setting by setting. Each setting is declared once
// (PlanningSettingsSchema below); one check, CheckPlanningSettings, validates them against a
// scene for every face, and names the field that is wrong.
//
// Object coordinates: each movable object (an un-actuated instance with a planar or floating
// joint; fixed objects have no q) contributes its q block to the goal (x, y, θ planar; x, y, z,
// qw, qx, qy, qz floating) and three numbers to each bound: its position (x, y, z) in 3D,
// (x, y, θ) in planar scenes.

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

struct Scene;
struct ModelInstance;

// How the reachability metric linearises the step at a tree node (planning/
// reachability_metric.h): the exact (non-smooth) program's derivative, the log-barrier
// smoothed program's (weight κ), or the randomized-smoothing (bundled) average.
enum class ReachabilityMethod { kExact, kLogBarrier, kRandomized };

// Which node of the tree an extension starts from: the one nearest by the reachability
// metric, or (the ablation of the talk) the one nearest in the objects' tangent space.
enum class NearestRule { kReachability, kEuclidean };

// How a regrasp edge of the tree gets the robots to their new grasp (planning/rrt.h,
// planning/regrasp_motion.h, docs/planning.md "Regrasps the plant can execute"): reset them to
// it with the objects kept (a jump no plant can make: the objects are held only by the contact
// sampler's mass scale), or drive them there by a motion of commands on the planner's exact
// stepper with the objects free (release, transfer, close), the node being the state reached.
enum class RegraspExecution { kReset, kPhysical };

// Which robot links contact sampling (planning/contact_sampler.h) may put onto an object:
// the fingers (robot bodies with collision geometry and no descendant that has some), every
// robot link with collision geometry that a joint moves (whole-arm contact), or the links
// PlanningSettings::grasp_anchor_links names.
enum class GraspAnchors { kFingers, kAllLinks, kListed };

// Which of a regrasp's settled candidates the tree takes (planning/grasp_conditioning.h,
// docs/planning.md "Contact sampling"): the one of least d(sample; candidate) (kNearest, the
// reference planner's rule), or the same among the candidates whose grasp score (the smallest
// singular value of the smoothed, weighted object rows of B) is at least
// grasp_score_fraction times the best candidate's (kConditioning).
enum class GraspSelection { kNearest, kConditioning };

// The names the planning block spells them with: "exact", "log-barrier", "randomized";
// "reachability", "euclidean"; "reset", "physical"; "fingers", "all_links", "listed" (a list
// in the scene file); "nearest", "conditioning".
const char* ReachabilityMethodName(ReachabilityMethod method);
const char* NearestRuleName(NearestRule rule);
const char* RegraspExecutionName(RegraspExecution execution);
const char* GraspAnchorsName(GraspAnchors anchors);
const char* GraspSelectionName(GraspSelection selection);

// The largest PlanningSettings::max_substeps.
inline constexpr int kMaxPlanningSubsteps = 1024;

// The largest PlanningSettings::extension_batch.
inline constexpr int kMaxExtensionBatch = 1024;

// Goal connection (planning/goal_connector.h, docs/planning.md "The search"): a node that has
// become the nearest to the goal (least D) with D <= radius asks a local steering function (the
// trajectory optimiser, control/trajopt_goal_connector.h) for a short sequence of commands to the
// goal, which the planner replays with its own stepper as a chain of one-step extend edges. Each
// node is asked at most once, and no sooner than `interval` new nodes after the previous attempt
// (a budget in nodes, so that the tree stays a function of the seed).
struct GoalConnectionSettings {
  double radius = 0.5;
  int horizon = 10;
  int iterations = 10;
  int interval = 100;
  // The optimiser's trust_region_min [m or rad] (trajectory_optimizer.h): an attempt stops once
  // its trust region on the commands falls below this. Below 1e-3 rad its candidates gained 0.2 %
  // of a connection's cost fall in 37 % of its iterations (the 16-joint hand, docs/planning.md
  // "Goal connection"), where the optimiser's own default is 1e-5.
  double trust_region_min = 1e-3;
  // The optimiser's κ_0 [1/(N·m)] (smoothed_linearizer.h: the log-barrier schedule's weight at its
  // first iteration, growing by γ = 2 per iteration to κ_max = max(1e4, κ_0)). Its default is the
  // optimiser's; on the 16-joint hand the smoothed A_k at κ = 100 have eigenvalues up to 26
  // (ten of them make the condensed QP's Hessian reach 1e25, whose Cholesky fails), so its
  // first iterations are lost (docs/planning.md, "Goal connection").
  double kappa_start = 100.0;
  // Retry a stalled connection with a new grasp (docs/planning.md, "Goal connection"): when the
  // node of least D was asked already, or is what an attempt that gained less than a tenth of
  // its D (kConnectionStallGain in rrt.cc) left as the nearest, the next attempt first re-grasps
  // that node toward the goal (contact sampling; with p_grasp = 0 there is no retry) and asks
  // the connector from the new grasp. false: such a node is not asked again (the planner before
  // this setting).
  bool regrasp_when_stalled = false;
};

// The plant check of extensions (planning/plant_check.h, docs/planning.md "Plans a plant of
// another time step executes"): an extension (and a goal connection's step) is kept only if
// its command, stepped from the same node on the planner's formulation at h/k with k substeps
// per step of h and the command held over them (as `quasidyn track --substeps k` sends it),
// ends within D <= tolerance of the end the planner's own step reached (D of PlanningSettings,
// the end of the h/k run taken as the goal). The node stays the planner's end state.
struct PlantCheckSettings {
  int substeps = 2;
  double tolerance = 0.05;
};

// Each field's key, unit, range and one-line doc are declared once, in PlanningSettingsSchema
// (planning_settings.cc); the comments here say what the fields mean to the code.
struct PlanningSettings {
  // The objects' goal q_u (size n_q,u). Empty: not given (planning needs one).
  Eigen::VectorXd goal;
  // The sampling region: per movable object, lower and upper bounds of its position (3D) or of
  // x, y and θ (planar); sizes 3 × (movable objects), lower <= upper. Planar angles are sampled
  // in [lower, upper] and compared modulo 2π (SE(2)); 3D rotations are uniform on SO(3), or
  // about `rotation_axis` (unit after normalisation, world frame) with the angle uniform in
  // [−π, π) applied to the object's initial orientation.
  Eigen::VectorXd lower, upper;
  std::optional<Eigen::Vector3d> rotation_axis;  // 3D scenes only
  // Where the objects may go (empty: anywhere), the same layout as the bounds (planar θ as the
  // coordinate is, not wrapped). An extension, goal connection step or regrasp that leaves the
  // objects farther outside than its start is refused (no node): from a root inside, every node
  // has its objects inside; from a root outside (a plan from where a plant left them), the tree
  // may only bring them back. For a hand holding a ball from below: the ball kept on the palm,
  // where it rests when the fingers let go, so that a plant executes the planner's reset
  // regrasps as motions (control/replanning.h, issue 39).
  Eigen::VectorXd region_lower, region_upper;

  // Termination: stop when the weighted goal distance
  //   D(q) = sqrt( Σ_objects (w_p ‖p − p_goal‖)² + (w_r ‖r ⊖ r_goal‖)² )   [-]
  // (‖r ⊖ r_goal‖ the rotation angle between the orientations: |θ − θ_goal| modulo 2π in
  // planar scenes) is at most goal_tolerance.
  double goal_tolerance = 0.05;
  double position_weight = 1.0;  // w_p
  double rotation_weight = 1.0;  // w_r (w_p + w_r > 0)
  double goal_bias = 0.1;

  // The reachability metric (planning/reachability_metric.h).
  ReachabilityMethod method = ReachabilityMethod::kLogBarrier;
  double kappa = 100.0;          // κ, method log-barrier
  int samples = 100;             // method randomized
  double sample_std = 0.1;       // σ_u, method randomized
  double regularization = 1e-3;  // λ of (B Bᵀ + λ I)⁻¹
  NearestRule nearest = NearestRule::kReachability;

  // Extension: δu by regularised least squares through B toward the sample, scaled to
  // ‖δu‖₂ <= step_size, then extend_steps steps of the exact stepper of time step h: a position
  // command changes by at most step_size, a velocity command by at most step_size / (h ·
  // extend_steps) (planning/rrt.cc).
  double step_size = 0.2;
  int extend_steps = 1;
  double time_step = 0.0;  // h; 0: the scene's time_step

  // Plans that stay physical (planning/rrt.h, edge_stepper.h, docs/planning.md): an extension
  // that leaves two shapes overlapping by more than penetration_tolerance (at the end of a step,
  // or along a step that moved a body further than the distance within which it saw contacts)
  // is taken again as n = 2, 4, … <= max_substeps substeps of h/n per step with the robots'
  // command ramped, and refused (no node) when it still does, so no path of the tree passes
  // deeper.
  double penetration_tolerance = 1e-3;  // infinity: no check
  int max_substeps = 16;                // 1: no substeps
  // Converged steps (docs/planning.md, "Plans a plant of another time step executes"): every
  // step of an extend edge (goal-connection chains included) is taken as at least n =
  // extension_substeps substeps of h/n with the robots' command ramped, each on the planner's
  // formulation with the objects' mass scale s/n, so that an object's velocity h τ_u / (s M_u) is
  // the one of a step of h: the same quasi-dynamic motion, discretised finer (a step of h = 0.1 s
  // of the talk's tasks is 60–90 % off it, scripts/plan_step_errors.py). With n > 1 the
  // large-motion substeps above scale s the same way and start from n. 1: the plain step of h.
  int extension_substeps = 1;

  // Contact sampling (planning/contact_sampler.h): with probability p_grasp an iteration
  // re-grasps instead of extending: `grasp_candidates` robot configurations in contact with
  // the nearest node's objects, each settled by `settle_steps` steps with the objects held,
  // the best by the metric kept.
  double p_grasp = 0.1;
  int grasp_candidates = 8;
  int settle_steps = 3;
  // kPhysical: the candidates, best by the metric first, are executed as a regrasp motion on the
  // planner's stepper until one leaves the objects within D <= goal_tolerance of where it found
  // them (the remaining contacts held them); the node is the state reached, the edge records
  // the motion's commands. kReset: the best candidate itself, the robots jumped to it.
  RegraspExecution regrasp = RegraspExecution::kReset;
  // Where a candidate touches: with kFingers every finger moves with probability ½; with
  // kAllLinks or kListed every robot moves with probability ½ and puts one of its anchor links,
  // drawn uniformly, onto the object (one IK per robot).
  GraspAnchors grasp_anchors = GraspAnchors::kFingers;
  std::vector<std::string> grasp_anchor_links;  // kListed: body names "robot/link", not empty
  // Which candidate a regrasp takes (GraspSelection above); with kConditioning, candidates
  // scoring below grasp_score_fraction of the best score are passed over.
  GraspSelection grasp_selection = GraspSelection::kNearest;
  double grasp_score_fraction = 0.5;

  // Limits: the planner stops at max_nodes tree nodes or time_limit seconds of wall time.
  int max_nodes = 2000;
  double time_limit = 60.0;
  std::uint64_t seed = 0;  // the same seed gives the same tree

  // Absent: no goal connection (the planner of the papers). Present: used when the caller gives
  // the planner a connector (PlannerOptions::goal_connector, planning/rrt.h).
  std::optional<GoalConnectionSettings> goal_connection;

  // Absent: no plant check (the default). Present: every extension is checked (above).
  std::optional<PlantCheckSettings> plant_check;

  // Batched extensions (planning/rrt.h, docs/planning.md "Batched extensions"): B samples per
  // round, each extended from its nearest node in the tree as it was before the round, the B
  // extensions taken and their nodes linearised side by side on the planner's threads, then
  // added in sample order. 1: one sample per iteration (the planner of the papers).
  int extension_batch = 1;
};

// The planning block's settings, each declared once (model/settings_schema.h): the scene file's
// `planning:` keys, the command line's `quasidyn plan` flags, Python's `quasidyn.plan` keywords,
// plan files' `plan.settings`, the range checks and the docs' table all come from it.
const SettingsSchema<PlanningSettings>& PlanningSettingsSchema();

// What CheckPlanningSettings found wrong: the field (its path in the `planning:` block, e.g.
// "bounds.lower", "limits.max_nodes") and the problem ("must be >= 1 (got -3)").
using PlanningSettingsProblem = SettingsProblem;

// The first problem of `settings` for `scene`, or nothing: a scene without movable objects
// (field "objects") or without robots ("robots"), a goal of the wrong size, not finite, with a
// quaternion of norm off 1 by more than 1e-6, or outside the bounds; bounds of the wrong size
// or with lower > upper; rotation_axis in a planar scene or zero; every setting outside the
// range its declaration gives (PlanningSettingsSchema); listed grasp anchors that are not robot
// links with collision geometry moved by a joint. `complete`: a missing goal or missing bounds are
// problems too (a query about to run); without it they may still come from elsewhere (a scene file
// whose goal the command line gives).
std::optional<PlanningSettingsProblem> CheckPlanningSettings(const PlanningSettings& settings,
                                                             const Scene& scene, bool complete);

// The movable objects of a scene (un-actuated instances with q), in order.
int MovableObjectCount(const Scene& scene);

// Whether `instance` is an object on planar ghost links: exactly three moving joints, two
// prismatic then one revolute in q order (the reference quasistatic simulator's *_xy_yaw and
// *_yz_rotation models, docs/qsim-files.md "Ghost links"). The planner takes its three joint
// coordinates as a planar object's (x, y, θ) [m, m, rad]: positions subtract, the angle wraps
// (docs/planning.md, "Objects the planner samples").
bool OnPlanarGhostLinks(const Scene& scene, const ModelInstance& instance);

}  // namespace quasidyn
