// Jupyter display (docs/python.md, "In a notebook"): quasidyn.SvgPlot and quasidyn.SvgPlots
// (svg_plot.h's plots with _repr_svg_ and _repr_html_), and Trajectory's notebook_html,
// _repr_html_ (the viewer page in an <iframe srcdoc>, viewer/inline_frame.h) and plots
// (viewer/trajectory_plots.h). Plan's and compare's are in their own files.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "path_argument.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/viewer/html_writer.h"
#include "quasidyn/viewer/inline_frame.h"
#include "quasidyn/viewer/trajectory_plots.h"
#include "svg_plots.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// The frames a notebook page of a trajectory keeps at most (ViewerDataOptions::max_frames): a
// 500-frame page of a small scene is a few hundred kB beside the 640 kB of three.js.
constexpr int kNotebookMaxFrames = 500;

std::string TrajectoryFrame(const Trajectory& t, std::shared_ptr<const Scene> scene, int height,
                            int max_frames) {
  const char* who = "Trajectory.notebook_html";
  const std::shared_ptr<const Scene> shown = SceneToShow(who, t, std::move(scene));
  ViewerDataOptions options;
  options.max_frames = max_frames;
  return Named(who,
               [&] { return InlineFrameHtml(ViewerHtmlToString(*shown, t, options), height); });
}

}  // namespace

const char* const kNotebookHtmlDoc =
    "one <iframe> element (100 % wide, height [px] in [100, 4000]) whose srcdoc is the whole "
    "self-contained viewer page (three.js embedded, no network), HTML-escaped; the frame runs "
    "the page's scripts in a document of its own (sandbox=\"allow-scripts\"), so several viewers "
    "and the notebook never share scripts, styles or ids.";

SvgPlots SvgPlotsOf(const std::vector<LinePlot>& plots) {
  SvgPlots out;
  for (const LinePlot& plot : plots) out.plots.push_back({plot.title, LinePlotToSvg(plot)});
  return out;
}

void BindNotebook(py::module_& m, PyTrajectory& trajectory) {
  py::class_<SvgPlot>(m, "SvgPlot",
                      "One line plot as an SVG document (Trajectory.plots()); a notebook shows "
                      "it through _repr_svg_.")
      .def_readonly("title", &SvgPlot::title, "The plot's title.")
      .def_readonly("svg", &SvgPlot::svg, "The SVG document (str).")
      .def("_repr_svg_", [](const SvgPlot& p) { return p.svg; })
      .def(
          "save",
          [](const SvgPlot& p, const PathArgument& path) {
            if (path.value.empty()) throw py::value_error("SvgPlot.save: path is empty");
            WriteFileAtomically(path.value, p.svg);
          },
          py::arg("path"),
          "save(path): writes the SVG document to path (a str or os.PathLike), atomically.")
      .def("__repr__", [](const SvgPlot& p) { return "<quasidyn.SvgPlot '" + p.title + "'>"; });

  py::class_<SvgPlots>(m, "SvgPlots",
                       "The plots of a run (Trajectory.plots(), Plan.plots()): a sequence of "
                       "SvgPlot; a notebook shows them side by side (_repr_html_: the SVG "
                       "documents inline, one after another).")
      .def("__len__", [](const SvgPlots& p) { return p.plots.size(); })
      .def(
          "__getitem__",
          [](const SvgPlots& p, long i) {
            const long n = static_cast<long>(p.plots.size());
            if (i < -n || i >= n)
              throw py::index_error("SvgPlots: index " + std::to_string(i) + " out of range (" +
                                    std::to_string(n) + " plots)");
            return p.plots[static_cast<size_t>(i < 0 ? i + n : i)];
          },
          "The i-th plot (negative i from the end); IndexError out of range.")
      .def(
          "__iter__",
          [](const SvgPlots& p) { return py::make_iterator(p.plots.begin(), p.plots.end()); },
          py::keep_alive<0, 1>())
      .def_property_readonly(
          "titles",
          [](const SvgPlots& p) {
            std::vector<std::string> titles;
            for (const SvgPlot& plot : p.plots) titles.push_back(plot.title);
            return titles;
          },
          "The plots' titles, in order.")
      .def("_repr_html_",
           [](const SvgPlots& p) {
             std::string html = "<div style=\"display:flex;flex-wrap:wrap;gap:8px\">";
             for (const SvgPlot& plot : p.plots) html += plot.svg;
             return html + "</div>";
           })
      .def("__repr__", [](const SvgPlots& p) {
        return "<quasidyn.SvgPlots: " + std::to_string(p.plots.size()) + " plots>";
      });

  trajectory
      .def(
          "notebook_html",
          [](const Trajectory& t, std::shared_ptr<Scene> scene, int height, int max_frames) {
            return TrajectoryFrame(t, std::move(scene), height, max_frames);
          },
          py::arg("scene") = py::none(), py::arg("height") = kInlineFrameHeight,
          py::arg("max_frames") = kNotebookMaxFrames,
          ("notebook_html(scene=None, height=520, max_frames=500) -> str: the viewer page of "
           "the trajectory for a notebook (what _repr_html_ returns): " +
           std::string(kNotebookHtmlDoc) +
           " The scene: scene, else the in-memory one, else scene_file (as quasidyn.view). "
           "max_frames (>= 2): a longer trajectory is shown at an even stride of its steps. "
           "ValueError for no scene, a height or max_frames out of range.")
              .c_str())
      .def(
          "_repr_html_",
          [](const Trajectory& t) -> py::object {
            if (!t.scene && t.scene_file.empty()) return py::none();  // no page: the text repr
            return py::str(TrajectoryFrame(t, nullptr, kInlineFrameHeight, kNotebookMaxFrames));
          },
          "The viewer page inline (notebook_html()); None when the trajectory has no scene in "
          "memory and records no scene file.")
      .def(
          "plots",
          [](const Trajectory& t, int max_points) {
            return Named("Trajectory.plots",
                         [&] { return SvgPlotsOf(TrajectoryPlots(t, max_points)); });
          },
          py::arg("max_points") = kTrajectoryPlotMaxPoints,
          "plots(max_points=1000) -> SvgPlots: the run over time as SVG line plots: the objects' "
          "coordinates q_u and the robots' q_a [m, rad; quaternion components -] from q0, and per "
          "step the contacts [-], the total normal force [N] and the solver iterations [-] "
          "(viewer/trajectory_plots.h). A line keeps at most max_points (>= 2) points, at an even "
          "stride. In a notebook the result shows the plots side by side.");
}

}  // namespace quasidyn::python
