#pragma once
// RRT through contact (Pang, Suh, Yang & Tedrake, T-RO 2023; Pang's talk "Planning and Control
// for Contact-rich Manipulation", Oct. 2022, slide "RRT through contact"): a tree over the objects'
// configurations grown with the real stepper, whose nearest node is chosen by the reachability
// metric (reachability_metric.h) and whose robots are now and then re-grasped by contact sampling
// (contact_sampler.h). Every node is a configuration the simulator produced.
//
// Each iteration, with the planner's seeded generator (gradients/randomized_smoothing_sampler.h):
//   1. sample q_s: the goal with probability goal_bias, else a random q_u in the bounds
//      (configuration_sampler.h);
//   2. nearest node n = argmin_i d(q_s; q̄_i) (or, NearestRule::kEuclidean, ‖q_s ⊖ q̄_i,u‖), d
//      in the goal distance's units (reachability_metric.h, MetricWeights), found by a
//      kd-tree that returns what a scan would (nearest_node_index.h);
//   3. with probability p_grasp, re-grasp: K contact-sampled configurations with n's objects,
//      each linearised; the one of least d(q_s; ·) becomes a child of n (edge kRegrasp);
//      otherwise extend: δu = Bᵀ (B Bᵀ + λ I)⁻¹ (q_s ⊖ μ) from n's factor, scaled down to
//      ‖δu‖₂ <= step_size, u = q̄_n,a + δu, then extend_steps steps of the exact stepper from q̄_n
//      under the constant command u (warm start cleared first); the state reached is the child
//      (edge kExtend), unless nothing moved by more than 1e-9 (B ≈ 0 gives δu ≈ 0: an idle
//      extension adds no node). Plans that stay physical (edge_stepper.h): the deepest overlap
//      of two shapes is measured at the end of every step of the extension and, for a step that
//      moved a body further than the distance within which it saw contacts
//      (StepResult::large_motion), along its path. When it exceeds the limit
//      max(penetration_tolerance, the overlap at q0) and a step moved that far, the extension is
//      taken again from q̄_n with every step split into n substeps of h/n, the command ramped,
//      n = 2, 4, … (at least the motion's ratio to ε, rounded up to a power of 2) up to
//      max_substeps, until it stays within the limit; the edge records its n. An extension that
//      still overlaps deeper adds no node (penetrating_extensions), so no path of the tree
//      passes deeper. An extension within the limit is the plain one: trees that never overlap
//      are those of the planner without the check.
//   4. goal descent: when the iteration made a node the nearest to the goal (least D), extend
//      from it toward the goal itself, again from each child nearer still (up to 20
//      extensions); where an extension brings it no nearer, re-grasp once toward the goal and
//      extend the new grasp toward the goal, going on if that is nearer (docs/planning.md);
//   4b. goal connection (goal_connector.h; only with settings.goal_connection and a connector in
//      PlannerOptions): when the nearest node to the goal has D <= goal_connection.radius, has
//      not been asked before and at least goal_connection.interval nodes were added since the
//      last attempt, the connector's commands from it are replayed one step each as extend edges
//      (steps = 1, the substeps and overlap limit of step 3); the chain up to its state of least
//      D is added when that D is below the node's, else nothing is (a failed step or an overlap
//      deeper than the limit ends the replay there);
//   5. each new node is linearised once (μ, B and the factor, node_linearizer.h); the tree stops
//      when a node's goal distance D (model/planning_settings.h) is <= goal_tolerance (found),
//      or at max_nodes nodes, time_limit seconds, or 3·max_nodes iterations (not found: idle
//      extensions and failed regrasps add no node, so iterations may outnumber nodes; a goal
//      descent adds several in one iteration), or when PlannerOptions::cancel is set
//      (interrupted: checked before every iteration or batched round, so the search stops
//      within one iteration's extensions of the request, the tree whole).
//   Batched rounds (settings.extension_batch = B > 1, extension_batch.h): steps 1–3 for B
//   samples drawn in order, each from the tree as it was before the round; the extensions taken
//   side by side on the threads, their nodes linearised as one batch and added in sample order
//   (regrasps one at a time, in their place), then steps 4 and 4b once per round.
//
// Determinism: with the same scene, settings and seed the tree is bitwise the same for every
// thread count (threads only evaluate batches, stepping/batch_step.h, and a round's
// extensions, extension_batch.h); a run stopped by the time limit depends on the machine's
// speed, one stopped by the node limit does not.

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/planning/goal_connector.h"
#include "quasidyn/stepping/formulation_info.h"

namespace quasidyn {

// kRegrasp with PlanningSettings::regrasp = physical (regrasp_execution.h): the robots driven to
// the new grasp by PlanNode::commands, one step of the stepper each, the objects free; the node
// is the state reached.
enum class EdgeKind {
  kRoot,     // the start configuration
  kExtend,   // `steps` steps of the stepper under the constant command u
  kRegrasp,  // the robots reset to q_a (= u), the objects unchanged
};

// "root", "extend", "regrasp"; ParseEdgeKind throws std::invalid_argument on other names.
const char* EdgeKindName(EdgeKind kind);
EdgeKind ParseEdgeKind(const std::string& name);

struct PlanNode {
  Eigen::VectorXd q;  // the configuration (size n_q)
  int parent = -1;    // index of the parent node; -1 for the root
  EdgeKind edge = EdgeKind::kRoot;
  // kExtend: the command held during the edge's steps; kRegrasp: the robots' new configuration
  // (a physical one: its last command); kRoot: the robots' start configuration. Size n_q,a
  // [m or rad].
  Eigen::VectorXd u;
  int steps = 0;  // stepper steps of the edge (kExtend; a physical kRegrasp: commands' size)
  // A physical regrasp (kRegrasp): the command of each of its steps (size n_q,a each), taken
  // from the state before it with the warm start cleared at every step; empty otherwise.
  std::vector<Eigen::VectorXd> commands;
  // kExtend: each of its steps was taken as `substeps` steps of h/substeps with the command
  // ramped (edge_stepper.h); 1: plain steps. 1 for the other edges.
  int substeps = 1;
  double goal_distance = 0.0;  // D(q) [-]
};

enum class PlanStatus {
  kFound,        // a node within goal_tolerance
  kNotFound,     // a limit stopped the search first
  kInterrupted,  // PlannerOptions::cancel stopped the search first (like a limit reached now)
};

// "found", "not_found", "interrupted"; ParsePlanStatus throws std::invalid_argument on other
// names.
const char* PlanStatusName(PlanStatus status);
PlanStatus ParsePlanStatus(const std::string& name);

struct PlanStatistics {
  int iterations = 0;
  int extensions = 0;             // extend edges added
  int regrasps = 0;               // regrasp edges added
  int failed_steps = 0;           // extensions whose step failed (no node)
  int idle_extensions = 0;        // extensions that moved nothing by more than 1e-9 (no node)
  int failed_grasps = 0;          // regrasps without a usable candidate (no node)
  int failed_linearizations = 0;  // nodes whose linearisation failed (never extended from)
  // Physical regrasps (PlanningSettings::regrasp): candidates executed and refused because the
  // objects moved by more than goal_tolerance, a step failed or overlapped too deeply.
  int dropped_grasps = 0;
  // Plans that stay physical (edge_stepper.h): extensions refused because a shape overlapped
  // another by more than the tolerance (no node); extensions taken with substeps (a node each);
  // extension attempts with a step that moved a body further than its contact distance.
  int penetrating_extensions = 0;
  // Extensions, goal-connection steps and regrasps refused because an object left the
  // settings' object_region.
  int outside_region = 0;
  int substepped_extensions = 0;
  int large_motion_steps = 0;
  // Goal descent (docs/planning.md): extensions toward the goal from a new nearest node that
  // brought the tree nearer still (counted in `extensions` too).
  int descent_extensions = 0;
  // Goal connection (step 4b): attempts, those that added a chain, and the extend edges they
  // added (counted in `extensions` too).
  int connection_attempts = 0;
  int connections = 0;
  int connection_extensions = 0;
  // Plant check (PlanningSettings::plant_check, plant_check.h): extensions and goal-connection
  // steps refused because the command at h/k ended further than its tolerance (no node).
  int plant_check_rejections = 0;
  // Retries of a stalled nearest node from a new grasp (GoalConnectionSettings::
  // regrasp_when_stalled): regrasps tried for an attempt, whether or not a usable grasp was found
  // (the attempts from one are in connection_attempts, the grasps in `regrasps` too).
  int connection_regrasps = 0;
  double wall_seconds = 0.0;       // [s]
  double linearize_seconds = 0.0;  // [s] in linearisations (new nodes and regrasp candidates)
  double grasp_seconds = 0.0;      // [s] in contact sampling (IK and settling)
  double stepping_seconds = 0.0;   // [s] in the extensions' steps, substeps and overlap checks
  double nearest_seconds = 0.0;    // [s] in nearest-node queries (nearest_node_index.h)
  // [s] in the goal connector (GoalConnector::Connect); its replay's steps and linearisations are
  // in stepping_seconds and linearize_seconds.
  double connection_seconds = 0.0;
  long long linearizations = 0;     // configurations linearised (nodes and regrasp candidates)
  long long nearest_distances = 0;  // d(q_s; q̄_i) evaluated by the queries (a scan: Σ nodes)
  // [s] in the plant check's runs at h/k.
  double plant_check_seconds = 0.0;
};

struct PlanResult {
  PlanStatus status = PlanStatus::kNotFound;
  std::string message;          // how the search ended
  std::vector<PlanNode> nodes;  // the tree; nodes[0] is the root
  std::vector<int> path;        // node indices from the root to best_node
  int best_node = 0;            // the node of least goal distance (the goal node when found)
  double best_distance = 0.0;   // its D [-]
  PlanStatistics statistics;
  PlanningSettings settings;  // what was planned with
  // The stepped formulation: its name, the parameter values and the time step the planner's
  // model stepped with (MakeStepModel(scene, stepping) replays the plan, plan_path.h).
  FormulationChoice stepping;
  bool found() const { return status == PlanStatus::kFound; }
};

struct PlanProgress {
  int nodes = 0;
  int iterations = 0;
  double best_distance = 0.0;  // [-]
  double elapsed_seconds = 0.0;
};

struct PlannerOptions {
  int threads = 1;  // >= 1: batch evaluation (linearisations, candidates)
  // Called about every 0.1 s of planning and once at the end; may be empty.
  std::function<void(const PlanProgress&)> progress;
  // Makes the goal connector (goal_connector.h) when settings.goal_connection is set; empty: no
  // goal connection whatever the settings say (the planner needs no control layer).
  GoalConnectorFactory goal_connector;
  // Checked before every iteration (common/cancellation.h); when set, the search stops there
  // with status kInterrupted, the tree and the path to its best node as a limit leaves them.
  // Null: never interrupted. The caller owns it; it must outlive the call.
  const CancellationToken* cancel = nullptr;
};

// The formulation the planner steps `scene` with: the scene's own, with time step
// settings.time_step when that is > 0.
FormulationChoice PlanningFormulation(const Scene& scene, const PlanningSettings& settings);

// Plans from the scene's q0. Throws std::invalid_argument naming the field
// ("formulation.type: ..." from CheckPlannableFormulation, "planning.goal: ...")
// when CheckPlanningSettings(settings, scene, complete) finds a problem, for threads < 1, and for a
// scene the models or (when p_grasp > 0) the contact sampler reject (no robot body or no object
// with collision geometry). A failed step or linearisation inside the search is counted, not
// thrown.
PlanResult PlanThroughContact(ScenePtr scene, const FormulationChoice& stepping,
                              const PlanningSettings& settings, const PlannerOptions& options = {});

// Throws std::invalid_argument("planning.<field>: <problem>") for the first problem of
// CheckPlanningSettings(settings, scene, complete = true).
void ValidatePlanningSettings(const PlanningSettings& settings, const Scene& scene);

// Throws std::invalid_argument("formulation.type: ...") naming the capability the planner needs
// and `formulation` lacks: a linearisation (the reachability metric's B; lcp's is the pyramid
// QP's, stepping/formulation_info.h), and a state that is a
// configuration (the tree's nodes are configurations; a velocity state is not planned through).
// The command may be the robots' positions or velocities (StepModel::HoldingCommand holds a
// node's robots; a regrasp commands the IK configuration).
void CheckPlannableFormulation(const FormulationInfo& formulation);

}  // namespace quasidyn
