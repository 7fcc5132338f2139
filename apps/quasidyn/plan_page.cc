#include "plan_page.h"

#include <iomanip>
#include <sstream>

namespace quasidyn::cli {
namespace {

// The objects' positions of every tree node, for the page's markers.
void AddTreeMarkers(const Scene& scene, const PlanResult& plan, ViewerDataOptions* options) {
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated || instance.nq == 0) continue;
    const int offset = static_cast<int>(options->marker_points.size());
    for (const PlanNode& node : plan.nodes) {
      const Eigen::VectorXd& q = node.q;
      options->marker_points.emplace_back(q[instance.q_start], q[instance.q_start + 1],
                                          instance.nq == 7 ? q[instance.q_start + 2] : 0.0);
      options->marker_parents.push_back(node.parent < 0 ? -1 : offset + node.parent);
    }
  }
  options->marker_label = "tree (" + std::to_string(plan.nodes.size()) + " nodes)";
}

}  // namespace

void PrintPlanSummary(const Scene& scene, const PlanResult& plan, const ReplayedPath& path,
                      const PlanRunFacts& facts, std::ostream& out) {
  const PlanningSettings& s = plan.settings;
  const PlanStatistics& st = plan.statistics;
  int regrasps = 0;  // regrasp edges of the path (a physical one spans several steps)
  for (size_t k = 1; k < plan.path.size(); ++k)
    regrasps += plan.nodes[plan.path[k]].edge == EdgeKind::kRegrasp;
  const PathLength length = ObjectPathLength(scene, path.trajectory);
  out << "scene            " << scene.name << " (formulation " << plan.stepping.name
      << ", h = " << plan.stepping.time_step.value_or(0.0) << " s)\n";
  out << "metric           " << ReachabilityMethodName(s.method) << " (lambda " << s.regularization
      << "), nearest node by " << NearestRuleName(s.nearest) << "\n";
  out << "result           "
      << (plan.found()                              ? "found"
          : plan.status == PlanStatus::kInterrupted ? "interrupted"
                                                    : "not found")
      << ": " << plan.message << "\n";
  out << "nodes            " << plan.nodes.size() << " (" << st.extensions << " extensions, "
      << st.regrasps << " " << RegraspExecutionName(s.regrasp) << " regrasps) in " << st.iterations
      << " iterations; failed: " << st.failed_steps << " steps, " << st.failed_grasps
      << " regrasps (" << st.dropped_grasps << " candidates dropped), " << st.failed_linearizations
      << " linearisations\n";
  out << std::setprecision(3) << "wall time        " << st.wall_seconds << " s (linearisations "
      << st.linearize_seconds << " s, contact sampling " << st.grasp_seconds << " s, stepping "
      << st.stepping_seconds << " s, nearest node " << st.nearest_seconds << " s, " << facts.threads
      << " thread" << (facts.threads > 1 ? "s" : "") << ")\n";
  if (s.goal_connection)  // docs/planning.md, "Goal connection"
    out << "goal connection  " << st.connection_attempts << " attempts, " << st.connections
        << " added a chain (" << st.connection_extensions << " one-step extensions); optimiser "
        << st.connection_seconds << " s\n";
  if (s.plant_check)  // docs/planning.md, "Plans a plant of another time step executes"
    out << "plant check      h/" << s.plant_check->substeps << ", tolerance "
        << s.plant_check->tolerance << ": " << st.plant_check_rejections << " extensions refused; "
        << st.plant_check_seconds << " s\n";
  out << "path             " << plan.path.size() - 1 << " edges, " << path.trajectory.steps.size()
      << " steps (" << regrasps << " regrasps); objects move " << length.position << " m and "
      << length.rotation << " rad\n";
  out << "goal distance    " << plan.best_distance << " (tolerance " << s.goal_tolerance
      << "); replay deviation " << path.max_node_deviation << "\n";
  out << "penetration      deepest " << 1e3 * path.path_penetration
      << " mm along the path (tolerance " << 1e3 * s.penetration_tolerance
      << " mm); extensions refused " << st.penetrating_extensions << ", with substeps "
      << st.substepped_extensions << "\n";
  if (path.start_penetration > 0.0)
    out << "start overlap    " << 1e3 * path.start_penetration
        << " mm at q0 as given (separated by the first step; not counted above)\n";
  if (s.region_lower.size() > 0)
    out << "object region    " << st.outside_region
        << " extensions, connection steps or regrasps refused: an object left it\n";
  out << std::setprecision(6);
  if (!facts.plan_path.empty()) out << "plan             " << facts.plan_path << "\n";
  if (!facts.html_path.empty()) out << "viewer           " << facts.html_path << "\n";
}

namespace {

// The page's notes: the tree's statistics (the summary printed) and where the time went.
std::string PageNotes(const Scene& scene, const PlanResult& plan, const ReplayedPath& path,
                      const PlanRunFacts& facts) {
  std::ostringstream notes;
  PrintPlanSummary(scene, plan, path, facts, notes);
  const PlanStatistics& st = plan.statistics;
  if (st.wall_seconds > 0.0) {
    const double rest =
        st.wall_seconds - st.linearize_seconds - st.grasp_seconds - st.connection_seconds;
    notes << std::setprecision(3) << "time shares      linearisations "
          << 100.0 * st.linearize_seconds / st.wall_seconds << " %, contact sampling "
          << 100.0 * st.grasp_seconds / st.wall_seconds << " %, ";
    if (plan.settings.goal_connection)
      notes << "goal connection " << 100.0 * st.connection_seconds / st.wall_seconds << " %, ";
    notes << "the rest (steps, checks, "
          << "nearest nodes) " << 100.0 * rest / st.wall_seconds << " %\n";
  }
  return notes.str();
}

}  // namespace

ViewerDataOptions PlanViewerOptions(const Scene& scene, const PlanResult& plan,
                                    const ReplayedPath& path, const PlanRunFacts& facts) {
  ViewerDataOptions viewer;
  AddTreeMarkers(scene, plan, &viewer);
  viewer.target_configuration = path.trajectory.FinalConfiguration();  // the objects' goal
  viewer.target_configuration.head(scene.nq_u) = plan.settings.goal;
  viewer.target_label = "goal";
  viewer.notes = PageNotes(scene, plan, path, facts);
  return viewer;
}

}  // namespace quasidyn::cli
