#include "quasidyn/planning/rrt.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/planning/configuration_sampler.h"
#include "quasidyn/planning/contact_sampler.h"
#include "quasidyn/planning/edge_stepper.h"
#include "quasidyn/planning/extension_batch.h"
#include "quasidyn/planning/grasp_conditioning.h"
#include "quasidyn/planning/nearest_node_index.h"
#include "quasidyn/planning/node_linearizer.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plant_check.h"
#include "quasidyn/planning/reachability_metric.h"
#include "quasidyn/planning/regrasp_execution.h"

namespace quasidyn {
namespace {

using Clock = std::chrono::steady_clock;

// An extension that moves no coordinate by more than this [m or rad] adds no node.
constexpr double kIdleMotion = 1e-9;
// The longest goal descent (Planner::DescendToGoal), in extensions: not stated in the papers;
// ours (docs/planning.md, "Goal descent").
constexpr int kDescentSteps = 20;
// The most candidates a physical regrasp executes before giving up (Planner::Regrasp): not
// stated in the papers; ours (docs/planning.md, "Regrasps the plant can execute").
constexpr int kPhysicalRegraspTries = 3;
// A goal connection that lowers the least D by less than this fraction of it has stalled
// (GoalConnectionSettings::regrasp_when_stalled): not stated in the papers; ours
// (docs/planning.md, "Goal connection").
constexpr double kConnectionStallGain = 0.1;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Adds the seconds of its scope to *total.
class ScopedSeconds {
 public:
  explicit ScopedSeconds(double* total) : total_(total), start_(Clock::now()) {}
  ~ScopedSeconds() { *total_ += SecondsSince(start_); }
  ScopedSeconds(const ScopedSeconds&) = delete;
  ScopedSeconds& operator=(const ScopedSeconds&) = delete;

 private:
  double* total_;
  Clock::time_point start_;
};

// The search state of one PlanThroughContact call.
class Planner {
 public:
  Planner(std::shared_ptr<const StepModel> model, const PlanningSettings& settings,
          const PlannerOptions& options)
      : scene_(model->scene_ptr()),
        settings_(settings),
        options_(options),
        space_(*scene_),
        weights_(MetricWeights(space_, settings)),
        sampler_(*scene_, space_, settings),
        linearizer_(*model, settings, options.threads),
        grasps_(settings.p_grasp > 0
                    ? std::make_unique<ContactSampler>(*model, space_, settings, options.threads)
                    : nullptr),
        model_(std::move(model)),
        edges_(*model_, std::isfinite(settings.penetration_tolerance),
               settings.extension_substeps > 1),
        generator_(settings.seed),
        index_(space_) {
    result_.settings = settings;
    result_.stepping = ChoiceOf(*model_);
    if (settings.goal_connection && options.goal_connector)
      connector_ = options.goal_connector(model_, settings);
    if (settings.plant_check)
      plant_check_ = std::make_unique<PlantCheck>(*model_, space_, settings);
  }

  PlanResult Run() {
    start_ = Clock::now();
    const Scene& scene = *scene_;
    PlanNode root;
    root.q = scene.q0;
    root.u = scene.q0.tail(scene.nq_a);  // the robots' positions (a root is not stepped to)
    // An extension may not overlap deeper than this. A start that overlaps deeper does not
    // raise it: the continuous check counts the start's overlap on its way out as the start's
    // (penetration_meter.h), and a step that separates it ends within the tolerance.
    depth_limit_ = settings_.penetration_tolerance;
    AddNode(std::move(root), Linearize({scene.q0}).front());
    std::string stop;
    const long long max_iterations = 3LL * settings_.max_nodes;
    while (!result_.found()) {
      if (Cancelled(options_.cancel)) {
        result_.status = PlanStatus::kInterrupted;
        stop = "the search was interrupted (PlannerOptions::cancel)";
        break;
      }
      if (static_cast<int>(result_.nodes.size()) >= settings_.max_nodes) {
        stop = "the node limit (" + std::to_string(settings_.max_nodes) + ") was reached";
        break;
      }
      if (SecondsSince(start_) >= settings_.time_limit) {
        stop = "the time limit (" + NumberText(settings_.time_limit) + " s) was reached";
        break;
      }
      if (result_.statistics.iterations >= max_iterations) {
        stop = "the iteration limit (3 x max_nodes = " + std::to_string(max_iterations) +
               ") was reached";
        break;
      }
      if (!(settings_.extension_batch > 1 ? IterateBatch() : Iterate())) {
        stop = "no node of the tree could be linearised";
        break;
      }
      ReportProgress(false);
    }
    result_.statistics.wall_seconds = SecondsSince(start_);
    result_.statistics.linearizations = static_cast<long long>(linearizations_);
    result_.statistics.nearest_distances = index_.distance_calls();
    Finish(stop);
    ReportProgress(true);
    return std::move(result_);
  }

 private:
  struct Reach {
    bool ok = false;
    NodeReachability metric;
  };

  // False when no node can be extended (every linearisation failed).
  bool Iterate() {
    ++result_.statistics.iterations;
    const bool to_goal = generator_.NextUniform() < settings_.goal_bias;
    const Eigen::VectorXd sample = to_goal ? settings_.goal : sampler_.Sample(&generator_);
    const int nearest = Nearest(sample);
    const bool regrasp = generator_.NextUniform() < settings_.p_grasp;
    if (nearest < 0) return false;
    const int best_before = result_.best_node;
    if (regrasp) {
      Regrasp(nearest, sample);
    } else {
      Extend(nearest, sample);
    }
    if (result_.best_node != best_before) DescendToGoal();
    ConnectToGoal();
    return true;
  }

  // A batched round (PlanningSettings::extension_batch = B > 1; docs/planning.md "Batched
  // extensions"): B samples drawn in order from the one generator (goal coin, sample, regrasp
  // coin each, as Iterate draws them), each one's nearest node found in the tree as it was
  // before the round; the extensions taken side by side on the threads (extension_batch.h) and
  // their nodes linearised as one batch; then, in sample order, the extensions' nodes added and
  // the regrasps done (one at a time, as Iterate does them: contact sampling draws from the
  // generator after the round's samples). A round adds nothing more once the goal is found or
  // the tree is full; the goal descent and connection follow the round. False when no node can
  // be extended.
  bool IterateBatch() {
    const long long max_iterations = 3LL * settings_.max_nodes;
    const int count = static_cast<int>(
        std::min<long long>({static_cast<long long>(settings_.extension_batch),
                             settings_.max_nodes - static_cast<long long>(result_.nodes.size()),
                             max_iterations - result_.statistics.iterations}));
    struct Draw {
      Eigen::VectorXd sample;
      int nearest = -1;
      bool regrasp = false;
      int request = -1;  // its extension in `requests`; -1 for a regrasp
    };
    std::vector<Draw> draws(std::max(count, 0));
    std::vector<ExtensionRequest> requests;
    std::vector<PlanNode> extended;  // the extensions' nodes, as `requests`
    for (Draw& draw : draws) {
      ++result_.statistics.iterations;
      const bool to_goal = generator_.NextUniform() < settings_.goal_bias;
      draw.sample = to_goal ? settings_.goal : sampler_.Sample(&generator_);
      draw.nearest = Nearest(draw.sample);
      draw.regrasp = generator_.NextUniform() < settings_.p_grasp;
      if (draw.nearest < 0) return false;
      if (draw.regrasp) continue;
      draw.request = static_cast<int>(requests.size());
      extended.push_back(ExtensionNode(draw.nearest, draw.sample));
      requests.push_back({result_.nodes[draw.nearest].q, extended.back().u, extended.back().steps});
    }
    if (!batch_) {
      const int workers = std::min(options_.threads, settings_.extension_batch);
      batch_ =
          std::make_unique<ExtensionBatch>(*model_, std::isfinite(settings_.penetration_tolerance),
                                           workers, settings_.extension_substeps > 1);
    }
    std::vector<ExtensionOutcome> outcomes;
    {
      ScopedSeconds timer(&result_.statistics.stepping_seconds);
      outcomes = batch_->Take(requests,
                              {depth_limit_, settings_.max_substeps, settings_.extension_substeps});
    }
    // Which extensions give a node (Extend's rules), and their linearisations as one batch.
    std::vector<bool> kept(requests.size(), false);
    std::vector<Eigen::VectorXd> qs;
    for (size_t k = 0; k < requests.size(); ++k) {
      const ExtensionOutcome& outcome = outcomes[k];
      result_.statistics.large_motion_steps += outcome.large_motion_steps;
      if (!outcome.ok) {
        ++result_.statistics.failed_steps;
        continue;
      }
      extended[k].substeps = outcome.substeps;
      kept[k] = KeepExtension(requests[k].q, outcome.q, outcome.depth, &extended[k]);
      if (kept[k]) qs.push_back(outcome.q);
    }
    std::vector<NodeLinearization> linearizations = Linearize(qs);
    const int best_before = result_.best_node;
    size_t next_linearization = 0;
    for (const Draw& draw : draws) {
      if (result_.found() || static_cast<int>(result_.nodes.size()) >= settings_.max_nodes) break;
      if (draw.regrasp) {
        Regrasp(draw.nearest, draw.sample);
        continue;
      }
      if (!kept[draw.request]) continue;
      PlanNode& node = extended[draw.request];
      if (node.substeps > 1) ++result_.statistics.substepped_extensions;
      ++result_.statistics.extensions;
      AddNode(std::move(node), linearizations[next_linearization++]);
    }
    if (result_.best_node != best_before) DescendToGoal();
    ConnectToGoal();
    return true;
  }

  // The extend edge from node `from` toward `sample` before it is taken (Extend's command: δu
  // through the node's factor, at most step_size), its q not yet set.
  PlanNode ExtensionNode(int from, const Eigen::VectorXd& sample) {
    Eigen::VectorXd du = reach_[from].metric.Command(space_, sample);
    // step_size bounds the robots' displacement over the edge [m or rad]: the change of a
    // position command itself, or a velocity command times the edge's duration.
    double cap = settings_.step_size;
    if (model_->capabilities().command == CommandKind::kRobotVelocities)
      cap /= model_->time_step() * settings_.extend_steps;
    const double norm = du.norm();
    if (norm > cap) du *= cap / norm;
    PlanNode node;
    node.parent = from;
    node.edge = EdgeKind::kExtend;
    node.u = model_->HoldingCommand(State{result_.nodes[from].q, Eigen::VectorXd()}) + du;
    node.steps = settings_.extend_steps;
    return node;
  }

  // Goal connection (rrt.h, step 4b; goal_connector.h): the nearest node to the goal, within the
  // radius, not asked before, and the budget of `interval` nodes since the last attempt spent.
  // With regrasp_when_stalled, a nearest node that was asked already or that a stalled attempt
  // left (stalled_node_) is re-grasped toward the goal and the new grasp asked instead.
  void ConnectToGoal() {
    if (!connector_ || result_.found()) return;
    const GoalConnectionSettings& c = *settings_.goal_connection;
    int from = result_.best_node;
    const int nodes = static_cast<int>(result_.nodes.size());
    if (result_.best_distance > c.radius || nodes >= settings_.max_nodes) return;
    if (connection_asked_.size() < result_.nodes.size()) connection_asked_.resize(nodes, false);
    const bool stalled = connection_asked_[from] || from == stalled_node_;
    const bool retry = stalled && c.regrasp_when_stalled && grasps_ != nullptr;
    if (connection_asked_[from] && !retry) return;
    if (last_connection_ >= 0 && nodes - last_connection_ < c.interval) return;
    last_connection_ = nodes;
    if (retry) {
      if (nodes + 1 >= settings_.max_nodes) return;
      ++result_.statistics.connection_regrasps;
      from = Regrasp(from, settings_.goal);
      if (from < 0 || !reach_[from].ok || result_.found()) return;
      connection_asked_.resize(result_.nodes.size(), false);
    }
    const double before = result_.best_distance;
    connection_asked_[from] = true;
    ReplayConnection(from);
    if (result_.best_distance > (1.0 - kConnectionStallGain) * before)
      stalled_node_ = result_.best_node;
  }

  // Asks the connector from node `from` and adds the replayed chain up to its state of least D
  // when that is below the tree's least D.
  void ReplayConnection(int from) {
    const int nodes = static_cast<int>(result_.nodes.size());
    ++result_.statistics.connection_attempts;
    std::vector<Eigen::VectorXd> commands;
    {
      ScopedSeconds timer(&result_.statistics.connection_seconds);
      commands = connector_->Connect(result_.nodes[from].q);
    }
    // Replay: one-step extend edges, each from the state the previous one reached.
    std::vector<PlanNode> chain;
    int best = -1;
    double best_distance = result_.best_distance;
    const int room = settings_.max_nodes - nodes;
    for (size_t k = 0; k < commands.size() && static_cast<int>(chain.size()) < room; ++k) {
      if (commands[k].size() != model_->control_size()) break;
      PlanNode node;
      node.parent = from;  // the chain's own indices are set when it is added
      node.edge = EdgeKind::kExtend;
      node.u = commands[k];
      node.steps = 1;
      double depth = 0.0;
      const State start{chain.empty() ? result_.nodes[from].q : chain.back().q, Eigen::VectorXd()};
      if (!TakeEdge(start, &node, &depth) || depth > depth_limit_) break;
      node.q = edges_.state().q;
      if (!StaysInRegion(start.q, node.q)) break;
      if (!PlantAgrees(start.q, node)) break;
      const double d = space_.GoalDistance(node.q, settings_.goal, settings_);
      chain.push_back(std::move(node));
      if (d < best_distance) {
        best_distance = d;
        best = static_cast<int>(chain.size()) - 1;
      }
    }
    if (best < 0) return;  // nothing nearer the goal: no node
    chain.resize(best + 1);
    std::vector<Eigen::VectorXd> qs;
    for (const PlanNode& node : chain) qs.push_back(node.q);
    std::vector<NodeLinearization> linearizations = Linearize(qs);
    ++result_.statistics.connections;
    for (size_t k = 0; k < chain.size(); ++k) {
      if (k > 0) chain[k].parent = static_cast<int>(result_.nodes.size()) - 1;
      if (chain[k].substeps > 1) ++result_.statistics.substepped_extensions;
      ++result_.statistics.extensions;
      ++result_.statistics.connection_extensions;
      AddNode(std::move(chain[k]), linearizations[k]);
    }
  }

  // Goal descent: from a node that has just become the nearest to the goal (least D), extend
  // toward the goal itself, again from each child that is nearer still, up to kDescentSteps
  // extensions. Where an extension brings it no nearer, the node is re-grasped once toward the
  // goal (the candidate of least d(goal; ·), when contact sampling is on) and the new grasp
  // extended toward the goal; the descent goes on if that is nearer. It asks for the whole goal
  // (the objects' position back where the goal has it as well as their rotation), which the
  // random samples seldom do near the end of a search. The re-grasp draws from the planner's
  // generator, so the tree stays a function of the seed.
  void DescendToGoal() {
    int from = result_.best_node;
    for (int k = 0; k < kDescentSteps && !result_.found(); ++k) {
      if (static_cast<int>(result_.nodes.size()) >= settings_.max_nodes) return;
      if (!reach_[from].ok) return;
      int child = Extend(from, settings_.goal);
      if (child < 0 || result_.best_node != child) {
        if (!grasps_ || static_cast<int>(result_.nodes.size()) >= settings_.max_nodes) return;
        const int grasp = Regrasp(from, settings_.goal);
        if (grasp < 0 || !reach_[grasp].ok || result_.found()) return;
        child = Extend(grasp, settings_.goal);
        if (child < 0 || result_.best_node != child) return;
      }
      ++result_.statistics.descent_extensions;
      from = child;
    }
  }

  // The node a scan of every linearised node in index order would pick (nearest_node_index.h).
  int Nearest(const Eigen::VectorXd& sample) {
    ScopedSeconds timer(&result_.statistics.nearest_seconds);
    return index_
        .Find(sample,
              [&](int i) {
                if (settings_.nearest == NearestRule::kReachability)
                  return reach_[i].metric.Distance(space_, sample, &scratch_);
                scratch_.resize(space_.tangent_size());
                space_.Difference(sample, result_.nodes[i].q, scratch_);
                return 0.5 * scratch_.squaredNorm();
              })
        .id;
  }

  // The new node's index, or -1 when the extension adds none.
  int Extend(int from, const Eigen::VectorXd& sample) {
    PlanNode node = ExtensionNode(from, sample);
    const State start{result_.nodes[from].q, Eigen::VectorXd()};
    double depth = 0.0;
    if (!TakeEdge(start, &node, &depth)) return -1;
    if (!KeepExtension(start.q, edges_.state().q, depth, &node)) return -1;
    if (node.substeps > 1) ++result_.statistics.substepped_extensions;
    ++result_.statistics.extensions;
    NodeLinearization linearization = Linearize({node.q}).front();
    AddNode(std::move(node), std::move(linearization));
    return static_cast<int>(result_.nodes.size()) - 1;
  }

  // Steps node->u for node->steps steps from `start`, with finer substeps while the overlap
  // exceeds the limit (extension_batch.h, TakeExtension: the one rule of every extend edge); sets
  // node->substeps and *depth (the run's deepest overlap); false, counted, when a step failed.
  // The end state is edges_.state().
  bool TakeEdge(const State& start, PlanNode* node, double* depth) {
    ExtensionOutcome outcome;
    {
      ScopedSeconds timer(&result_.statistics.stepping_seconds);
      outcome = TakeExtension(&edges_, {start.q, node->u, node->steps},
                              {depth_limit_, settings_.max_substeps, settings_.extension_substeps});
    }
    result_.statistics.large_motion_steps += outcome.large_motion_steps;
    if (!outcome.ok) {
      ++result_.statistics.failed_steps;
      return false;
    }
    node->substeps = outcome.substeps;
    *depth = outcome.depth;
    return true;
  }

  // Extend's rules for a taken extension from `from_q` (the edge's start): a node unless the edge
  // moved nothing (a command the node's B cannot turn into motion, B ≈ 0: nothing within reach of
  // the linearisation), overlapped deeper than the limit or the plant check refused it; each
  // refusal counted. Sets node->q when kept.
  bool KeepExtension(const Eigen::VectorXd& from_q, const Eigen::VectorXd& q, double depth,
                     PlanNode* node) {
    if ((q - from_q).cwiseAbs().maxCoeff() <= kIdleMotion) {
      ++result_.statistics.idle_extensions;
      return false;
    }
    if (depth > depth_limit_) {
      ++result_.statistics.penetrating_extensions;
      return false;
    }
    if (!StaysInRegion(from_q, q)) return false;
    node->q = q;
    return PlantAgrees(from_q, *node);
  }

  // How far q's objects lie outside the settings' object_region: the sum over their bounded
  // coordinates of the distance to the interval [m or rad]; 0 inside.
  double RegionExcess(const Eigen::VectorXd& q) const {
    double excess = 0.0;
    int object = 0;
    for (const ObjectSpace::Block& block : space_.blocks()) {
      for (int k = 0; k < 3; ++k) {
        const double value = q[block.q_start + k];
        excess += std::max(0.0, settings_.region_lower[3 * object + k] - value) +
                  std::max(0.0, value - settings_.region_upper[3 * object + k]);
      }
      ++object;
    }
    return excess;
  }

  // Whether the edge from `from_q` to `q` keeps the objects in the object_region (true without
  // one), counted when not. A tree whose root lies outside (a plan from where a plant left the
  // objects, control/replanning.h) may move them back but never farther out: the edge is
  // refused when it leaves them farther outside than its start.
  bool StaysInRegion(const Eigen::VectorXd& from_q, const Eigen::VectorXd& q) {
    if (settings_.region_lower.size() == 0) return true;
    if (RegionExcess(q) <= RegionExcess(from_q)) return true;
    ++result_.statistics.outside_region;
    return false;
  }

  // The plant check (plant_check.h): true without one; otherwise whether node's command from
  // `start_q` (at rest) at h/k ends within the tolerance of node.q, counted when not.
  bool PlantAgrees(const Eigen::VectorXd& start_q, const PlanNode& node) {
    if (!plant_check_) return true;
    ScopedSeconds timer(&result_.statistics.plant_check_seconds);
    if (plant_check_->Agrees(State{start_q, Eigen::VectorXd()}, node.u, node.steps, node.q))
      return true;
    ++result_.statistics.plant_check_rejections;
    return false;
  }

  // The new node's index, or -1 when no candidate was usable.
  int Regrasp(int from, const Eigen::VectorXd& sample) {
    const Scene& scene = *scene_;
    const auto start = Clock::now();
    std::vector<Eigen::VectorXd> candidates = grasps_->Sample(result_.nodes[from].q, &generator_);
    result_.statistics.grasp_seconds += SecondsSince(start);
    if (candidates.empty()) {
      ++result_.statistics.failed_grasps;
      return -1;
    }
    std::vector<NodeLinearization> linearizations = Linearize(candidates);
    std::vector<Reach> reaches(candidates.size());
    std::vector<std::pair<double, int>> ranked;  // (d(q_s; candidate), candidate), usable ones
    for (size_t k = 0; k < candidates.size(); ++k) {
      reaches[k] = MakeReach(linearizations[k]);
      if (!reaches[k].ok) continue;
      ranked.emplace_back(reaches[k].metric.Distance(space_, sample, &scratch_),
                          static_cast<int>(k));
    }
    // Best first; equal distances keep the candidates' order (the first of least d, as before).
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    ranked = SelectGrasps(settings_, std::move(ranked),
                          [&](int k) { return GraspScore(reaches[k].metric); });
    if (ranked.empty()) {
      ++result_.statistics.failed_grasps;
      return -1;
    }
    PlanNode node;
    node.parent = from;
    node.edge = EdgeKind::kRegrasp;
    if (settings_.regrasp == RegraspExecution::kReset) {
      const int best = ranked.front().second;
      if (!StaysInRegion(result_.nodes[from].q, candidates[best])) {  // its settling moved one out
        ++result_.statistics.failed_grasps;
        return -1;
      }
      node.q = std::move(candidates[best]);
      node.u = node.q.tail(scene.nq_a);
      ++result_.statistics.regrasps;
      AddReachedNode(std::move(node), std::move(reaches[best]));
      return static_cast<int>(result_.nodes.size()) - 1;
    }
    // Physical (regrasp_execution.h): the candidates, best first, executed on the stepper until
    // one holds the objects; at most kPhysicalRegraspTries of them (each costs a motion).
    const PlanNode& parent = result_.nodes[from];
    const Eigen::VectorXd last_target = LastTargetOf(*model_, parent.q, parent.u);
    if (!motion_) {
      // The fingers that stay keep squeezing (their last command): a ball held between fingers
      // in the air falls when the grip is let go first (docs/planning.md).
      RegraspMotionSettings motion_settings;
      motion_settings.relax_grip = false;
      motion_ = std::make_unique<RegraspMotion>(scene_, motion_settings);
    }
    const int tries = std::min(static_cast<int>(ranked.size()), kPhysicalRegraspTries);
    for (int t = 0; t < tries; ++t) {
      const int k = ranked[t].second;
      ExecutedRegrasp run;
      {
        ScopedSeconds timer(&result_.statistics.stepping_seconds);
        run = ExecuteRegrasp(&edges_, motion_.get(), parent.q, candidates[k], last_target);
      }
      // Held: the objects within D <= goal_tolerance of where the candidate has them (the
      // node's own objects), D the goal distance with the candidate's objects as the goal.
      const bool held = run.ok && space_.GoalDistance(run.q, candidates[k].head(scene.nq_u),
                                                      settings_) <= settings_.goal_tolerance;
      if (!held || run.depth > depth_limit_ || !StaysInRegion(parent.q, run.q)) {
        ++result_.statistics.dropped_grasps;
        continue;
      }
      node.q = std::move(run.q);
      node.steps = static_cast<int>(run.commands.size());
      node.u = run.commands.empty() ? last_target : run.commands.back();
      node.commands = std::move(run.commands);
      ++result_.statistics.regrasps;
      NodeLinearization linearization = Linearize({node.q}).front();
      AddNode(std::move(node), std::move(linearization));
      return static_cast<int>(result_.nodes.size()) - 1;
    }
    ++result_.statistics.failed_grasps;
    return -1;
  }

  // One linearisation per configuration, each seeded by its own index in the planner's sequence.
  std::vector<NodeLinearization> Linearize(const std::vector<Eigen::VectorXd>& qs) {
    const auto start = Clock::now();
    std::vector<std::uint64_t> seeds(qs.size());
    for (std::uint64_t& seed : seeds) {
      std::uint64_t state = settings_.seed ^ (0xA5A5A5A5ULL + linearizations_++);
      seed = SplitMix64Next(&state);
    }
    std::vector<NodeLinearization> out = linearizer_.Linearize(qs, seeds);
    result_.statistics.linearize_seconds += SecondsSince(start);
    return out;
  }

  Reach MakeReach(const NodeLinearization& linearization) {
    Reach reach;
    if (!linearization.ok()) return reach;
    const Scene& scene = *scene_;
    reach.metric = NodeReachability(space_, linearization.mu, linearization.B.topRows(scene.nq_u),
                                    settings_.regularization, weights_);
    reach.ok = true;
    return reach;
  }

  void AddNode(PlanNode node, const NodeLinearization& linearization) {
    Reach reach = MakeReach(linearization);
    if (!reach.ok) ++result_.statistics.failed_linearizations;
    AddReachedNode(std::move(node), std::move(reach));
  }

  void AddReachedNode(PlanNode node, Reach reach) {
    node.goal_distance = space_.GoalDistance(node.q, settings_.goal, settings_);
    const int index = static_cast<int>(result_.nodes.size());
    if (index == 0 || node.goal_distance < result_.best_distance) {
      result_.best_distance = node.goal_distance;
      result_.best_node = index;
    }
    if (node.goal_distance <= settings_.goal_tolerance) result_.status = PlanStatus::kFound;
    if (reach.ok) {  // the nodes a search may pick: keyed by μ and bounded (1), or by q, c = 1
      const bool metric = settings_.nearest == NearestRule::kReachability;
      index_.Insert(index, metric ? reach.metric.mu() : node.q,
                    metric ? ReachabilityBoundScale(reach.metric) : 1.0);
    }
    result_.nodes.push_back(std::move(node));
    reach_.push_back(std::move(reach));
  }

  void Finish(const std::string& stop) {
    for (int i = result_.best_node; i >= 0; i = result_.nodes[i].parent) result_.path.push_back(i);
    std::reverse(result_.path.begin(), result_.path.end());
    std::ostringstream message;
    if (result_.found()) {
      message << "goal reached at node " << result_.best_node << ": distance "
              << result_.best_distance << " <= tolerance " << settings_.goal_tolerance;
    } else {
      message << stop << " before the goal; best goal distance " << result_.best_distance
              << " (tolerance " << settings_.goal_tolerance << ") at node " << result_.best_node;
    }
    result_.message = message.str();
  }

  void ReportProgress(bool final) {
    if (!options_.progress) return;
    const double elapsed = SecondsSince(start_);
    if (!final && elapsed < last_report_ + 0.1) return;
    last_report_ = elapsed;
    options_.progress({static_cast<int>(result_.nodes.size()), result_.statistics.iterations,
                       result_.best_distance, elapsed});
  }

  ScenePtr scene_;
  PlanningSettings settings_;
  PlannerOptions options_;
  ObjectSpace space_;
  Eigen::VectorXd weights_;  // the metric's tangent weights (reachability_metric.h)
  ConfigurationSampler sampler_;
  NodeLinearizer linearizer_;
  std::unique_ptr<ContactSampler> grasps_;    // null when p_grasp = 0
  std::unique_ptr<PlantCheck> plant_check_;   // null without settings.plant_check
  std::unique_ptr<RegraspMotion> motion_;     // physical regrasps' motions, made on first use
  std::unique_ptr<GoalConnector> connector_;  // null: no goal connection
  std::vector<bool> connection_asked_;        // per node: the connector was asked from it
  int last_connection_ = -1;                  // the node count at the last attempt; -1: none
  int stalled_node_ = -1;  // the nearest node a stalled connection left; -1: none
  std::shared_ptr<const StepModel> model_;
  EdgeStepper edges_;         // the extensions' steps, with substeps when needed
  double depth_limit_ = 0.0;  // [m]: the deepest overlap an extension may leave
  Xoshiro256StarStar generator_;
  std::uint64_t linearizations_ = 0;
  std::vector<Reach> reach_;  // per node
  NearestNodeIndex index_;    // the linearised nodes, for Nearest
  Eigen::VectorXd scratch_;
  PlanResult result_;
  Clock::time_point start_;
  double last_report_ = 0.0;

  // A batched round's steppers (IterateBatch), made on first use.
  std::unique_ptr<ExtensionBatch> batch_;
};

}  // namespace

const char* EdgeKindName(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kRoot:
      return "root";
    case EdgeKind::kExtend:
      return "extend";
    case EdgeKind::kRegrasp:
      return "regrasp";
  }
  return "?";
}

EdgeKind ParseEdgeKind(const std::string& name) {
  for (EdgeKind kind : {EdgeKind::kRoot, EdgeKind::kExtend, EdgeKind::kRegrasp})
    if (name == EdgeKindName(kind)) return kind;
  throw std::invalid_argument("unknown edge kind '" + name + "' (root, extend, regrasp)");
}

const char* PlanStatusName(PlanStatus status) {
  switch (status) {
    case PlanStatus::kFound:
      return "found";
    case PlanStatus::kNotFound:
      return "not_found";
    case PlanStatus::kInterrupted:
      return "interrupted";
  }
  return "?";
}

PlanStatus ParsePlanStatus(const std::string& name) {
  for (PlanStatus status : {PlanStatus::kFound, PlanStatus::kNotFound, PlanStatus::kInterrupted})
    if (name == PlanStatusName(status)) return status;
  throw std::invalid_argument("unknown plan status '" + name + "' (found, not_found, interrupted)");
}

FormulationChoice PlanningFormulation(const Scene& scene, const PlanningSettings& settings) {
  FormulationChoice stepping(scene.formulation.name);
  if (settings.time_step > 0) stepping.time_step = settings.time_step;
  return stepping;
}

void ValidatePlanningSettings(const PlanningSettings& settings, const Scene& scene) {
  if (const auto problem = CheckPlanningSettings(settings, scene, /*complete=*/true))
    throw std::invalid_argument("planning." + problem->field + ": " + problem->problem);
}

void CheckPlannableFormulation(const FormulationInfo& formulation) {
  const FormulationCapabilities& can = formulation.capabilities;
  QUASIDYN_CHECK_ARGUMENT(!can.exact_linearization.empty(), "formulation.type",
                          "planning needs a linearisation for its reachability metric; " +
                              formulation.name + " declares none: " + can.no_gradient);
  QUASIDYN_CHECK_ARGUMENT(can.state == StateKind::kConfiguration, "formulation.type",
                          "planning's tree nodes are configurations q; " + formulation.name +
                              " has a state of " + StateKindName(can.state) +
                              " (docs/planning.md)");
  QUASIDYN_CHECK_ARGUMENT(can.command != CommandKind::kObjectImpulses, "formulation.type",
                          "planning commands robots; " + formulation.name + " commands " +
                              CommandKindName(can.command) + " (docs/planning.md)");
}

PlanResult PlanThroughContact(ScenePtr scene, const FormulationChoice& stepping,
                              const PlanningSettings& settings, const PlannerOptions& options) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, "PlanThroughContact", "the scene is null");
  CheckPlannableFormulation(ChosenFormulation(*scene, stepping).info);
  ValidatePlanningSettings(settings, *scene);
  QUASIDYN_CHECK_ARGUMENT(options.threads >= 1, "PlanThroughContact",
                          "threads must be >= 1 (got " + std::to_string(options.threads) + ")");
  Planner planner(MakeStepModel(std::move(scene), stepping), settings, options);
  return planner.Run();
}

}  // namespace quasidyn
