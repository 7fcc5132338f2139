// quasidyn.compare(scene, ...): every registered formulation that can step the scene, side by
// side against the finest-step reference (simulation/formulation_comparison.h, the same run as
// `quasidyn compare`; its checks are the library's).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "interruptible_call.h"
#include "path_argument.h"
#include "quasidyn/simulation/formulation_comparison.h"
#include "quasidyn/viewer/comparison_page.h"
#include "quasidyn/viewer/inline_frame.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

py::dict Row(const ComparisonRow& row) {
  py::dict d;
  d["formulation"] = row.formulation;
  d["ran"] = row.ran();
  d["skipped"] = row.skipped;
  d["trajectory"] = row.ran() ? py::cast(std::make_shared<Trajectory>(row.trajectory)) : py::none();
  d["median_step_seconds"] = row.median_step_seconds;
  d["max_contacts"] = row.max_contacts;
  d["mean_contacts"] = row.mean_contacts;
  d["deepest_penetration"] = row.deepest_penetration;
  d["object_displacement"] = row.object_displacement;
  d["final_position_difference"] = row.final_position_difference;
  d["final_rotation_difference"] = row.final_rotation_difference;
  d["failure"] = row.failure;
  return d;
}

}  // namespace

void BindComparison(py::module_& m) {
  m.def(
      "compare",
      [](std::shared_ptr<Scene> scene, int steps, int reference_refinement,
         std::optional<std::string> reference, std::optional<std::vector<std::string>> formulations,
         std::optional<PathArgument> html) {
        const char* who = "compare";
        ComparisonOptions options;
        options.steps = steps;
        options.reference_refinement = reference_refinement;
        options.reference_formulation = reference.value_or("");
        options.formulations = formulations.value_or(std::vector<std::string>{});
        // Kept by the result, which builds its notebook page when asked for it.
        // Ctrl-C stops the runs at their next step and raises (interruptible_call.h).
        CancellationToken cancel;
        options.cancel = &cancel;
        const auto kept = std::make_shared<const Comparison>(Named(who, [&] {
          return CallInterruptibly(&cancel, [&] { return CompareFormulations(scene, options); });
        }));
        const Comparison& comparison = *kept;
        if (html) Named(who, [&] { WriteComparisonHtml(*scene, comparison, html->value); });
        py::list rows;
        for (const ComparisonRow& row : comparison.rows) rows.append(Row(row));
        const py::cpp_function frame([scene, kept](int height) {
          return Named("compare.notebook_html", [&] {
            return InlineFrameHtml(ComparisonHtmlToString(*scene, *kept), height);
          });
        });
        py::dict out;
        out["scene"] = comparison.scene_name;
        out["h"] = comparison.time_step;
        out["steps"] = comparison.steps;
        out["reference"] = std::make_shared<Trajectory>(comparison.reference);
        out["rows"] = rows;
        out["table"] = ComparisonText(comparison);
        out["csv"] = ComparisonCsv(comparison);
        // A dict subclass: py::dict keeps the instance as it is.
        return py::dict(
            py::module_::import("quasidyn._notebook").attr("ComparisonResult")(out, frame));
      },
      py::arg("scene"), py::kw_only(), py::arg("steps") = 0, py::arg("reference_refinement") = 10,
      py::arg("reference") = py::none(), py::arg("formulations") = py::none(),
      py::arg("html") = py::none(),
      "compare(scene, *, steps=0, reference_refinement=10, reference=None, formulations=None, "
      "html=None) -> dict: runs every registered formulation that can step the scene (or those "
      "named in formulations) for `steps` steps of the scene's h (0: the scene's schedule to its "
      "end), and a reference at h / reference_refinement (the scene's own formulation when its "
      "state has velocities, else the first registered one with a velocity state and position "
      "commands; `reference` names another). Returns {scene, h, steps, reference (Trajectory), "
      "rows, table (text), csv}; each row a dict: formulation, ran, skipped (why it cannot step "
      "the scene, '' when it ran), trajectory (Trajectory or None), median_step_seconds [s], "
      "max_contacts, mean_contacts, deepest_penetration [m], object_displacement [m], "
      "final_position_difference [m] and final_rotation_difference [rad] against the reference, "
      "failure ('' or why the run stopped early). The result is a dict (quasidyn._notebook."
      "ComparisonResult) that a notebook shows as the page below (notebook_html(height=520) "
      "returns it as one <iframe srcdoc> element). html= writes one viewer page with every run "
      "overlaid (a str or os.PathLike). The same as `quasidyn compare` (docs/formulations.md).");
}

}  // namespace quasidyn::python
