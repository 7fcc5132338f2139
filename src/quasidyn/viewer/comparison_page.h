#pragma once
// One viewer page of a formulation comparison (simulation/formulation_comparison.h): the
// reference trajectory animated as the page's own, every formulation that ran overlaid in a
// translucent colour of its own (ViewerOverlay, viewer_data.h), and the comparison's table in
// the side panel. `quasidyn compare --html` and Python's quasidyn.compare(html=...) write it;
// compare's result shows it in a notebook.

#include <string>

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/formulation_comparison.h"

namespace quasidyn {

// The page as text (html_writer.h, ViewerHtmlToString: its errors).
std::string ComparisonHtmlToString(const Scene& scene, const Comparison& comparison);

// Writes the page to `path` atomically (html_writer.h, WriteViewerHtml: its errors).
void WriteComparisonHtml(const Scene& scene, const Comparison& comparison, const std::string& path);

}  // namespace quasidyn
