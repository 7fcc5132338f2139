#pragma once
// A tiny SVG line-plot writer (no dependencies): one set of axes with ticks, grid lines, a
// title, axis labels, a legend and any number of polylines, each optionally with a dot at its
// points (a target point is a one-point series, drawn as a dot). `quasidyn demo` draws its plots
// with it so the demo needs no Python.
//
// Layout: the plot area is the image minus fixed margins (left 70, right 20, top 40,
// bottom 50 px). Data map linearly into it; y grows upwards:
//   px(x) = left + (x − x_min)/(x_max − x_min)·plot_width
//   py(y) = top + (y_max − y)/(y_max − y_min)·plot_height
// where [x_min, x_max] and [y_min, y_max] are the data ranges widened to the nearest
// "nice" tick (NiceTicks). Text is XML-escaped (XML 1.0 § 2.4: & < > and, in attributes, ").

#include <string>
#include <vector>

namespace quasidyn {

struct PlotSeries {
  std::string label;      // legend text; empty: not in the legend
  std::vector<double> x;  // abscissae, finite, same size as y
  std::vector<double> y;  // ordinates, finite
  std::string color;      // an SVG colour ("#1f77b4"); empty: the next of a fixed palette
  bool dashed = false;    // dashed line (e.g. a target value)
  // A dot (radius kSvgPlotMarkerRadius) at every point, e.g. a target or goal point. A series of
  // one point always gets its dot: a one-point line would draw nothing.
  bool markers = false;
};

struct LinePlot {
  std::string title;
  std::string x_label;  // with its unit, e.g. "t [s]"
  std::string y_label;  // with its unit, e.g. "z [m]"
  std::vector<PlotSeries> series;
  int width = 640;   // image width [px], >= 200
  int height = 360;  // image height [px], >= 150
};

// Plot-area margins [px] (see the layout above).
inline constexpr double kSvgPlotMarginLeft = 70, kSvgPlotMarginRight = 20;
inline constexpr double kSvgPlotMarginTop = 40, kSvgPlotMarginBottom = 50;
// The radius of a series' point markers (PlotSeries::markers) [px].
inline constexpr double kSvgPlotMarkerRadius = 4;

// Tick values covering [lo, hi] (finite, lo <= hi): equally spaced multiples of a step
// d = m·10^k with m ∈ {1, 2, 5} (Heckbert, "Nice numbers for graph labels", Graphics Gems
// 1990), the smallest such d giving at most `max_ticks` (>= 2) intervals; the first tick is
// ⌊lo/d⌋·d and the last ⌈hi/d⌉·d, so the ticks enclose [lo, hi]. lo == hi is widened to
// [lo − 1, lo + 1] when lo == 0, else by |lo|/10 on each side.
// Throws std::invalid_argument naming the problem for non-finite or inverted bounds.
std::vector<double> NiceTicks(double lo, double hi, int max_ticks = 6);

// The SVG document. Throws std::invalid_argument naming the series for x/y of different
// sizes, an empty series, non-finite values, no series at all, or a size below the minimum.
std::string LinePlotToSvg(const LinePlot& plot);

// Writes LinePlotToSvg(plot) to `path`, atomically (common/atomic_file_writer.h: a failed
// write leaves a previous file as it was). Throws std::invalid_argument for an empty path,
// std::runtime_error naming the path and the reason when it cannot be written.
void WriteLinePlotSvg(const LinePlot& plot, const std::string& path);

// `text` with & < > " ' replaced by their XML entities.
std::string EscapeXml(const std::string& text);

}  // namespace quasidyn
