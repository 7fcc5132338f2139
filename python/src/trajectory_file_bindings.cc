// Trajectory files and pages: Trajectory.save / Trajectory.load / quasidyn.load_trajectory
// (simulation/trajectory_file.h, docs/trajectory-format.md) and quasidyn.view (the HTML viewer
// page, viewer/html_writer.h; with plans, viewer/execution_page.h).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "execution_view.h"
#include "path_argument.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// Reads a trajectory file; `scene`, when given, becomes its in-memory scene (same n_q).
std::shared_ptr<Trajectory> LoadTrajectory(const char* who, const std::string& path,
                                           std::shared_ptr<Scene> scene) {
  auto t = std::make_shared<Trajectory>(ReadTrajectory(path));
  if (scene) {
    if (scene->nq != t->nq)
      throw py::value_error(std::string(who) + ": scene has n_q = " + std::to_string(scene->nq) +
                            " but the trajectory " + std::to_string(t->nq));
    t->scene = std::move(scene);
  }
  return t;
}

constexpr const char* kLoadDoc =
    "Reads a trajectory file written by Trajectory.save or `quasidyn simulate --out` (any "
    "format save writes) at path (a str or os.PathLike); scene, when given, is kept as its "
    "in-memory scene. Raises TrajectoryFileNotFoundError (a RuntimeError and a "
    "FileNotFoundError, with errno and filename) when nothing exists at path, RuntimeError on "
    "an unreadable file, ValueError on bad content.";

}  // namespace

std::shared_ptr<const Scene> SceneToShow(const char* who, const Trajectory& trajectory,
                                         std::shared_ptr<const Scene> scene) {
  if (scene) return scene;
  if (trajectory.scene) return trajectory.scene;
  if (trajectory.scene_file.empty())
    throw py::value_error(std::string(who) + ": the trajectory records no scene file: pass scene=");
  return std::make_shared<const Scene>(LoadScene(trajectory.scene_file));
}

void BindTrajectoryFiles(py::module_& m, PyTrajectory& trajectory) {
  // TrajectoryFileNotFoundError → quasidyn.TrajectoryFileNotFoundError: a RuntimeError (what a
  // file that cannot be read raises) and a FileNotFoundError.
  // A handle the module keeps alive (never released at exit, after the interpreter).
  static const py::handle not_found =
      FileNotFoundClass(
          m, "TrajectoryFileNotFoundError", PyExc_RuntimeError,
          "A trajectory file that does not exist (load_trajectory, Trajectory.load): a "
          "RuntimeError and a FileNotFoundError (e.errno = ENOENT, e.filename = the missing "
          "path).")
          .release();
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const TrajectoryFileNotFoundError& e) {
      const py::object instance = FileNotFoundInstance(not_found, e.what(), e.path());
      PyErr_SetObject(not_found.ptr(), instance.ptr());
    }
  });

  trajectory
      .def(
          "save",
          [](const Trajectory& t, const PathArgument& path, int every, int indent) {
            TrajectoryWriteOptions options;
            options.every = every;
            options.indent = indent;
            Named("Trajectory.save", [&] { WriteTrajectory(t, path.value, options); });
          },
          py::arg("path"), py::arg("every") = 1, py::arg("indent") = -1,
          "save(path, every=1, indent=-1): writes the trajectory file to path (a str or "
          "os.PathLike) in the format of its extension (docs/trajectory-format.md), keeping "
          "every `every`-th step (>= 1; and the last); indent >= 0 indents JSON by that many "
          "spaces. Written atomically: a failed write leaves an existing file as it was. Raises "
          "RuntimeError naming an unwritable path, ValueError for an empty one.")
      .def_static(
          "load",
          [](const PathArgument& path, std::shared_ptr<Scene> scene) {
            return LoadTrajectory("Trajectory.load", path.value, std::move(scene));
          },
          py::arg("path"), py::arg("scene") = py::none(), kLoadDoc);

  m.def(
      "load_trajectory",
      [](const PathArgument& path, std::shared_ptr<Scene> scene) {
        return LoadTrajectory("load_trajectory", path.value, std::move(scene));
      },
      py::arg("path"), py::arg("scene") = py::none(), kLoadDoc);

  m.def(
      "view",
      [](const Trajectory& t, const PathArgument& path, std::shared_ptr<Scene> scene,
         std::optional<std::vector<std::shared_ptr<Trajectory>>> plans,
         std::optional<std::vector<double>> plan_starts) {
        const char* who = "view";
        const std::shared_ptr<const Scene> shown = SceneToShow(who, t, std::move(scene));
        if (plan_starts && !plans) throw py::value_error("view: plan_starts given without plans");
        Named(who, [&] {
          if (!plans) return WriteViewerHtml(*shown, t, path.value);
          WriteExecutionHtml(*shown, ExecutionViewOf(*shown, t, *plans, plan_starts), path.value);
        });
        return py::str(py::cast(path));  // as str, whatever path-like was given
      },
      py::arg("trajectory"), py::arg("path"), py::arg("scene") = py::none(),
      py::arg("plans") = py::none(), py::arg("plan_starts") = py::none(),
      "view(trajectory, path, scene=None, plans=None, plan_starts=None) -> str: writes the "
      "self-contained HTML viewer page (three.js, no network; what `quasidyn view` writes) of the "
      "trajectory to path (a str or os.PathLike) and returns path as a str. The "
      "scene: scene, else the trajectory's in-memory scene, else its scene_file. Open the "
      "page in a browser. With plans (a list of Trajectory of the same scene, each recording "
      "every step), the page of `quasidyn track --html`: the trajectory is a plant's run and "
      "each plan is drawn over it as translucent ghosts from its start, plan_starts [s] (one per "
      "plan, the first 0, non-decreasing, within the run; default: each where the previous one's "
      "steps end), with D to the scene's planning goal over time when the scene has a planning "
      "block (docs/viewer.md, \"A plan executed on a plant\"). ValueError naming the plan and "
      "what does not fit (another scene's n_q, starts out of order or past the run's end).");
}

}  // namespace quasidyn::python
