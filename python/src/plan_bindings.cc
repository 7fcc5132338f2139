// quasidyn.plan, quasidyn.Plan: RRT through contact (src/quasidyn/planning/rrt.h).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "interruptible_call.h"
#include "path_argument.h"
#include "plan_page.h"
#include "quasidyn/control/trajopt_goal_connector.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/planning_overrides.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/viewer/html_writer.h"
#include "quasidyn/viewer/inline_frame.h"
#include "quasidyn/viewer/trajectory_plots.h"
#include "setting_keywords.h"
#include "svg_plots.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// A plan and its path replayed, as Python sees them.
struct PythonPlan {
  PlanResult result;
  ReplayedPath path;
  ScenePtr scene;   // planned on
  int threads = 1;  // the planner's threads (the page's summary says them)
};

// The plan's viewer page in a notebook frame: `quasidyn plan --html`'s page (plan_page.h).
std::string PlanFrame(const PythonPlan& p, int height) {
  const cli::PlanRunFacts facts{p.threads, "", ""};
  return Named("Plan.notebook_html", [&] {
    return InlineFrameHtml(
        ViewerHtmlToString(*p.scene, p.path.trajectory,
                           cli::PlanViewerOptions(*p.scene, p.result, p.path, facts)),
        height);
  });
}

Eigen::MatrixXd StackRows(const std::vector<PlanNode>& nodes, bool commands) {
  const Eigen::Index width =
      nodes.empty() ? 0 : (commands ? nodes.front().u.size() : nodes.front().q.size());
  Eigen::MatrixXd out(static_cast<Eigen::Index>(nodes.size()), width);
  for (size_t i = 0; i < nodes.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = commands ? nodes[i].u : nodes[i].q;
  return out;
}

// One number per tree node, `member` of each, as a column (tree_parent, tree_substeps, ...).
template <typename T>
Eigen::Matrix<T, Eigen::Dynamic, 1> PerNode(const PythonPlan& p, T PlanNode::*member) {
  const std::vector<PlanNode>& nodes = p.result.nodes;
  Eigen::Matrix<T, Eigen::Dynamic, 1> out(static_cast<Eigen::Index>(nodes.size()));
  for (size_t i = 0; i < nodes.size(); ++i) out[static_cast<Eigen::Index>(i)] = nodes[i].*member;
  return out;
}

py::object AsDict(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

void BindPlan(py::module_& m) {
  py::class_<PythonPlan, std::shared_ptr<PythonPlan>>(
      m, "Plan",
      "The result of quasidyn.plan: the tree of RRT through contact and the path to its best "
      "node (the goal node when found), replayed through the exact stepper (docs/planning.md).")
      .def_property_readonly(
          "found", [](const PythonPlan& p) { return p.result.found(); },
          "True when a node reached the goal within the goal tolerance.")
      .def_property_readonly(
          "status",
          [](const PythonPlan& p) { return std::string(PlanStatusName(p.result.status)); },
          "'found' or 'not_found' (a limit stopped the search).")
      .def_property_readonly(
          "message", [](const PythonPlan& p) { return p.result.message; },
          "Why the search stopped (the limit that ended it, or the goal reached).")
      .def_property_readonly(
          "best_distance", [](const PythonPlan& p) { return p.result.best_distance; },
          "The goal distance D of the best node [-].")
      .def_property_readonly(
          "best_node", [](const PythonPlan& p) { return p.result.best_node; },
          "Index in the tree arrays of the node of least goal distance (the goal node when found).")
      .def_property_readonly(
          "path_q",
          [](const PythonPlan& p) {
            const Trajectory& t = p.path.trajectory;
            Eigen::MatrixXd q(static_cast<Eigen::Index>(t.steps.size() + 1), t.nq);
            q.row(0) = t.q0;
            for (size_t k = 0; k < t.steps.size(); ++k)
              q.row(static_cast<Eigen::Index>(k + 1)) = t.steps[k].q;
            return q;
          },
          "(N + 1, n_q): the start configuration then q after each path step [m, rad], as "
          "Plan.trajectory.q (docs/python.md, \"Arrays of a trajectory\").")
      .def_property_readonly(
          "path_u",
          [](const PythonPlan& p) {
            const Trajectory& t = p.path.trajectory;
            Eigen::MatrixXd u(static_cast<Eigen::Index>(t.steps.size()), t.nq - t.nq_u);
            for (size_t k = 0; k < t.steps.size(); ++k)
              u.row(static_cast<Eigen::Index>(k)) = t.steps[k].u;
            return u;
          },
          "(N, n_q,a): the command of each path step (a regrasp step: the robots' new q_a).")
      .def_property_readonly(
          "path_edges",
          [](const PythonPlan& p) {
            std::vector<std::string> kinds;
            for (EdgeKind kind : p.path.step_edges) kinds.push_back(EdgeKindName(kind));
            return kinds;
          },
          "Per path step: 'extend' (a step of the stepper) or 'regrasp' (a reset of the robots).")
      .def_property_readonly(
          "path_nodes", [](const PythonPlan& p) { return p.result.path; },
          "The tree nodes of the path, root first.")
      .def_property_readonly(
          "trajectory",
          [](const PythonPlan& p) { return std::make_shared<Trajectory>(p.path.trajectory); },
          "The path as a quasidyn.Trajectory (a copy).")
      .def_property_readonly(
          "tree_q", [](const PythonPlan& p) { return StackRows(p.result.nodes, false); },
          "(M, n_q): every node's configuration [m, rad].")
      .def_property_readonly(
          "tree_u", [](const PythonPlan& p) { return StackRows(p.result.nodes, true); },
          "(M, n_q,a): every node's edge command (the root: its q_a).")
      .def_property_readonly(
          "tree_parent", [](const PythonPlan& p) { return PerNode<int>(p, &PlanNode::parent); },
          "(M,): each node's parent index, -1 for the root.")
      .def_property_readonly(
          "tree_edges",
          [](const PythonPlan& p) {
            std::vector<std::string> kinds;
            for (const PlanNode& node : p.result.nodes) kinds.push_back(EdgeKindName(node.edge));
            return kinds;
          },
          "Per node: 'root', 'extend' or 'regrasp'.")
      .def_property_readonly(
          "tree_goal_distance",
          [](const PythonPlan& p) { return PerNode<double>(p, &PlanNode::goal_distance); },
          "(M,): each node's goal distance D [-].")
      .def_property_readonly(
          "statistics",
          [](const PythonPlan& p) {
            return AsDict(PlanToJson(p.result, p.path)["plan"]["statistics"]);
          },
          "Iterations, extensions, regrasps, failures and times [s], as in plan.json.")
      .def_property_readonly(
          "settings",
          [](const PythonPlan& p) {
            return AsDict(PlanToJson(p.result, p.path)["plan"]["settings"]);
          },
          "The planning settings used, as in plan.json.")
      .def_property_readonly(
          "replay_deviation", [](const PythonPlan& p) { return p.path.max_node_deviation; },
          "max |replayed q - node q| over the path's nodes [m, rad].")
      .def_property_readonly(
          "max_penetration", [](const PythonPlan& p) { return p.path.max_penetration; },
          "The deepest overlap of two shapes along the replayed path [m]: at q0 and at the end of "
          "every substep, step and regrasp (docs/planning.md, 'Plans that stay physical'); "
          "max(start_penetration, path_penetration).")
      .def_property_readonly(
          "start_penetration", [](const PythonPlan& p) { return p.path.start_penetration; },
          "The start's own overlap [m] (q0 as given; the first step separates it).")
      .def_property_readonly(
          "path_penetration", [](const PythonPlan& p) { return p.path.path_penetration; },
          "The deepest overlap the path's steps and regrasps reach after the start [m].")
      .def_property_readonly(
          "tree_substeps", [](const PythonPlan& p) { return PerNode<int>(p, &PlanNode::substeps); },
          "(M,): the substeps of each of a node's edge steps (1: plain steps).")
      .def(
          "save_json",
          [](const PythonPlan& p, const PathArgument& path, int indent) {
            WritePlanFile(p.result, p.path, path.value, indent);
          },
          py::arg("path"), py::arg("indent") = -1,
          "save_json(path, indent=-1): writes plan.json (docs/plan-format.md; `quasidyn view` "
          "plays it) to path (a str or os.PathLike), atomically.")
      .def(
          "notebook_html", [](const PythonPlan& p, int height) { return PlanFrame(p, height); },
          py::arg("height") = kInlineFrameHeight,
          ("notebook_html(height=520) -> str: the plan's viewer page (what `quasidyn plan "
           "--html` writes: the path, the tree, the goal and the summary) for a notebook (what "
           "_repr_html_ returns): " +
           std::string(kNotebookHtmlDoc) + " ValueError for a height out of range.")
              .c_str())
      .def(
          "_repr_html_", [](const PythonPlan& p) { return PlanFrame(p, kInlineFrameHeight); },
          "The plan's viewer page inline (notebook_html()).")
      .def(
          "plots",
          [](const PythonPlan& p, int max_points) {
            return Named("Plan.plots", [&] {
              return SvgPlotsOf(TrajectoryPlots(p.path.trajectory, max_points));
            });
          },
          py::arg("max_points") = kTrajectoryPlotMaxPoints,
          "plots(max_points=1000) -> SvgPlots: the replayed path's plots (Trajectory.plots).")
      .def("__repr__", [](const PythonPlan& p) {
        return "<quasidyn.Plan " + std::string(PlanStatusName(p.result.status)) + ", " +
               std::to_string(p.result.nodes.size()) + " nodes, best distance " +
               std::to_string(p.result.best_distance) + ">";
      });

  m.def(
      "plan",
      [](std::shared_ptr<Scene> scene, std::optional<std::vector<double>> goal, int threads,
         py::kwargs kwargs) {
        if (!scene) throw py::value_error("plan: scene is None");
        const std::vector<SettingSpec> specs = PlanningSettingsSchema().specs();
        SettingOverrides overrides;
        if (goal) overrides.push_back({"goal", *goal});
        RefuseUnknownKeywords("plan", TakeSettingKeywords("plan", specs, kwargs, &overrides), specs,
                              {});
        const PlanningSettings settings = ResolvePlanningSettings(*scene, overrides);
        PlannerOptions options;
        options.threads = threads;
        UseGoalConnection(settings, &options);  // the scene's goal_connection, if any
        auto out = std::make_shared<PythonPlan>();
        out->scene = scene;
        out->threads = threads;
        // Ctrl-C stops the search at its next iteration and raises (interruptible_call.h).
        CancellationToken cancel;
        options.cancel = &cancel;
        CallInterruptibly(&cancel, [&] {
          out->result =
              PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
          out->path = ReplayPlan(scene, out->result);
          return true;
        });
        return out;
      },
      py::arg("scene"), py::arg("goal") = py::none(), py::kw_only(), py::arg("threads") = 1,
      ("RRT through contact from scene.q0 (docs/planning.md). goal: the objects' goal q_u "
       "(None: the scene's planning block). Keywords: any setting of the planning block by its "
       "name (None keeps the scene's; quasidyn._settings()['planning'] and docs/python.md list "
       "them with units, ranges and defaults); threads: the planner's threads (>= 1) " +
       SettingsDocMarker("planning") +
       ". Returns a Plan; a goal not reached is Plan.found == False, not an error. Bad settings "
       "raise ValueError naming the field ('planning.goal: ...'). Ctrl-C (KeyboardInterrupt) "
       "stops the search within an iteration and raises.")
          .c_str());
}

}  // namespace quasidyn::python
