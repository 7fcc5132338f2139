#include "quasidyn/viewer/comparison_page.h"

#include "quasidyn/viewer/html_writer.h"
#include "quasidyn/viewer/viewer_data.h"

namespace quasidyn {
namespace {

// One colour per compared formulation, in order (repeats after ten).
constexpr const char* kColors[] = {"#e4572e", "#29a3a3", "#f3a712", "#a8c686", "#669bbc",
                                   "#c44bbf", "#ffd166", "#8e7dbe", "#06d6a0", "#ef476f"};

// The page's overlays (one per formulation that ran) and notes (the table); the overlays point
// into `comparison`, which must outlive the options.
ViewerDataOptions ComparisonViewerOptions(const Comparison& comparison) {
  ViewerDataOptions viewer;
  int color = 0;
  for (const ComparisonRow& row : comparison.rows)
    if (row.ran())
      viewer.overlays.push_back({row.formulation, kColors[color++ % 10], &row.trajectory});
  viewer.notes = "the reference (solid): " + comparison.reference.formulation +
                 " at h = " + std::to_string(comparison.reference.time_step) +
                 " s; each formulation a translucent colour\n\n" + ComparisonText(comparison);
  return viewer;
}

}  // namespace

std::string ComparisonHtmlToString(const Scene& scene, const Comparison& comparison) {
  return ViewerHtmlToString(scene, comparison.reference, ComparisonViewerOptions(comparison));
}

void WriteComparisonHtml(const Scene& scene, const Comparison& comparison,
                         const std::string& path) {
  WriteViewerHtml(scene, comparison.reference, path, ComparisonViewerOptions(comparison));
}

}  // namespace quasidyn
