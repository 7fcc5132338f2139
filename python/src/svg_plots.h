#pragma once
// quasidyn.SvgPlot and quasidyn.SvgPlots (notebook_bindings.cc binds them): the plots of a run
// as SVG documents that a notebook shows (docs/python.md, "In a notebook").

#include <string>
#include <vector>

#include "quasidyn/viewer/svg_plot.h"

namespace quasidyn::python {

// One plot as Python sees it: its title and its SVG document.
struct SvgPlot {
  std::string title;
  std::string svg;
};

// The plots of a run, in order (a struct, not a bare vector, which pybind11/stl.h would turn
// into a list).
struct SvgPlots {
  std::vector<SvgPlot> plots;
};

// Each plot's SVG drawn now (LinePlotToSvg: its errors).
SvgPlots SvgPlotsOf(const std::vector<LinePlot>& plots);

}  // namespace quasidyn::python
