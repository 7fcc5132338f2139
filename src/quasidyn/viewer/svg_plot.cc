#include "quasidyn/viewer/svg_plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/atomic_file_writer.h"

namespace quasidyn {
namespace {

// Matplotlib's "tab10" colours, a common palette that stays readable for colour-blind viewers.
constexpr std::array<const char*, 8> kPalette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                 "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string Fixed(double value, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << value;
  const std::string text = s.str();
  if (text.find_first_not_of("-0.") == std::string::npos) return std::string(1, '0');  // no -0.0
  return text;
}

// Decimals that show every multiple of the tick step d exactly (d = m·10^k: max(0, −k)).
int TickDecimals(const std::vector<double>& ticks) {
  if (ticks.size() < 2) return 0;
  const double step = ticks[1] - ticks[0];
  return std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
}

void CheckSeries(const PlotSeries& series, size_t index) {
  const std::string name = "plot series " + std::to_string(index) +
                           (series.label.empty() ? "" : " '" + series.label + "'");
  if (series.x.size() != series.y.size()) {
    throw std::invalid_argument(name + ": x has " + std::to_string(series.x.size()) +
                                " values but y has " + std::to_string(series.y.size()));
  }
  if (series.x.empty()) throw std::invalid_argument(name + ": no points");
  for (size_t i = 0; i < series.x.size(); ++i) {
    if (!std::isfinite(series.x[i]) || !std::isfinite(series.y[i])) {
      throw std::invalid_argument(name + ": point " + std::to_string(i) + " is not finite");
    }
  }
}

// A series drawn with dots: asked for, or a single point (a one-point polyline draws nothing).
bool HasMarkers(const PlotSeries& series) { return series.markers || series.x.size() == 1; }

// A filled dot at (x, y) [px].
std::string Marker(double x, double y, const std::string& color) {
  return "<circle cx=\"" + Fixed(x, 2) + "\" cy=\"" + Fixed(y, 2) + "\" r=\"" +
         Fixed(kSvgPlotMarkerRadius, 1) + "\" fill=\"" + EscapeXml(color) + "\"/>\n";
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw std::invalid_argument("NiceTicks: the range bounds must be finite");
  }
  if (lo > hi) throw std::invalid_argument("NiceTicks: lower bound above the upper bound");
  if (max_ticks < 2) throw std::invalid_argument("NiceTicks: max_ticks must be >= 2");
  if (lo == hi) {
    const double pad = lo == 0.0 ? 1.0 : std::abs(lo) / 10.0;
    lo -= pad;
    hi += pad;
  }
  // Start one decade at or below (hi − lo)/max_ticks, the smallest step that can fit.
  const double smallest = (hi - lo) / max_ticks;
  double decade = std::pow(10.0, std::floor(std::log10(smallest)));
  for (int attempt = 0; attempt < 40; ++attempt) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * decade;
      // A relative slack of 1e-9 steps keeps round-off in lo/step (e.g. 0.3/0.1 =
      // 2.9999999999999996) from adding a spurious interval.
      const double first = std::floor(lo / step + 1e-9);
      const double last = std::ceil(hi / step - 1e-9);
      if (last - first <= max_ticks) {
        std::vector<double> ticks;
        for (double i = first; i <= last; i += 1.0) ticks.push_back(i * step);
        return ticks;
      }
    }
    decade *= 10.0;
  }
  throw std::logic_error("NiceTicks: no step found");  // unreachable for finite input
}

std::string EscapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string LinePlotToSvg(const LinePlot& plot) {
  if (plot.width < 200 || plot.height < 150) {
    throw std::invalid_argument("line plot '" + plot.title + "': size must be at least 200×150 px");
  }
  if (plot.series.empty()) throw std::invalid_argument("line plot '" + plot.title + "': no series");
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  double y_lo = x_lo, y_hi = -x_lo;
  for (size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& series = plot.series[i];
    CheckSeries(series, i);
    x_lo = std::min(x_lo, *std::min_element(series.x.begin(), series.x.end()));
    x_hi = std::max(x_hi, *std::max_element(series.x.begin(), series.x.end()));
    y_lo = std::min(y_lo, *std::min_element(series.y.begin(), series.y.end()));
    y_hi = std::max(y_hi, *std::max_element(series.y.begin(), series.y.end()));
  }
  const std::vector<double> x_ticks = NiceTicks(x_lo, x_hi);
  const std::vector<double> y_ticks = NiceTicks(y_lo, y_hi);
  const double x_min = x_ticks.front(), x_max = x_ticks.back();
  const double y_min = y_ticks.front(), y_max = y_ticks.back();
  const double left = kSvgPlotMarginLeft, top = kSvgPlotMarginTop;
  const double plot_width = plot.width - kSvgPlotMarginLeft - kSvgPlotMarginRight;
  const double plot_height = plot.height - kSvgPlotMarginTop - kSvgPlotMarginBottom;
  const double right = left + plot_width, bottom = top + plot_height;
  auto px = [&](double x) { return left + (x - x_min) / (x_max - x_min) * plot_width; };
  auto py = [&](double y) { return top + (y_max - y) / (y_max - y_min) * plot_height; };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << plot.width << "\" height=\""
      << plot.height << "\" viewBox=\"0 0 " << plot.width << " " << plot.height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << Fixed(left + plot_width / 2, 2) << "\" y=\"24\" text-anchor=\"middle\" "
      << "font-size=\"15\">" << EscapeXml(plot.title) << "</text>\n";
  // Grid lines and tick labels.
  const int x_decimals = TickDecimals(x_ticks), y_decimals = TickDecimals(y_ticks);
  for (double tick : x_ticks) {
    const std::string x = Fixed(px(tick), 2);
    svg << "<line x1=\"" << x << "\" y1=\"" << Fixed(top, 2) << "\" x2=\"" << x << "\" y2=\""
        << Fixed(bottom, 2) << "\" stroke=\"#dddddd\"/>\n";
    svg << "<text x=\"" << x << "\" y=\"" << Fixed(bottom + 16, 2) << "\" text-anchor=\"middle\">"
        << Fixed(tick, x_decimals) << "</text>\n";
  }
  for (double tick : y_ticks) {
    const std::string y = Fixed(py(tick), 2);
    svg << "<line x1=\"" << Fixed(left, 2) << "\" y1=\"" << y << "\" x2=\"" << Fixed(right, 2)
        << "\" y2=\"" << y << "\" stroke=\"#dddddd\"/>\n";
    svg << "<text x=\"" << Fixed(left - 6, 2) << "\" y=\"" << Fixed(py(tick) + 4, 2)
        << "\" text-anchor=\"end\">" << Fixed(tick, y_decimals) << "</text>\n";
  }
  svg << "<rect x=\"" << Fixed(left, 2) << "\" y=\"" << Fixed(top, 2) << "\" width=\""
      << Fixed(plot_width, 2) << "\" height=\"" << Fixed(plot_height, 2)
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  svg << "<text x=\"" << Fixed(left + plot_width / 2, 2) << "\" y=\"" << plot.height - 10
      << "\" text-anchor=\"middle\">" << EscapeXml(plot.x_label) << "</text>\n";
  svg << "<text transform=\"translate(16," << Fixed(top + plot_height / 2, 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << EscapeXml(plot.y_label) << "</text>\n";
  // The series, then the legend (top right, inside the plot area).
  size_t palette_index = 0;
  std::vector<std::string> colors;
  for (const PlotSeries& series : plot.series) {
    const std::string color =
        series.color.empty() ? kPalette[palette_index++ % kPalette.size()] : series.color;
    colors.push_back(color);
    if (series.x.size() > 1) {
      svg << "<polyline fill=\"none\" stroke=\"" << EscapeXml(color) << "\" stroke-width=\"1.5\""
          << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"";
      for (size_t i = 0; i < series.x.size(); ++i) {
        svg << (i > 0 ? " " : "") << Fixed(px(series.x[i]), 2) << "," << Fixed(py(series.y[i]), 2);
      }
      svg << "\"/>\n";
    }
    if (HasMarkers(series)) {
      for (size_t i = 0; i < series.x.size(); ++i)
        svg << Marker(px(series.x[i]), py(series.y[i]), color);
    }
  }
  const auto labelled = std::count_if(plot.series.begin(), plot.series.end(),
                                      [](const PlotSeries& s) { return !s.label.empty(); });
  if (labelled > 0) {  // a white box keeps the legend readable over the lines
    svg << "<rect x=\"" << Fixed(right - 156, 2) << "\" y=\"" << Fixed(top + 4, 2)
        << "\" width=\"150\" height=\"" << 16 * labelled + 4
        << "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#cccccc\"/>\n";
  }
  double legend_y = top + 16;
  for (size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& series = plot.series[i];
    if (series.label.empty()) continue;
    if (series.x.size() > 1) {
      svg << "<line x1=\"" << Fixed(right - 150, 2) << "\" y1=\"" << Fixed(legend_y - 4, 2)
          << "\" x2=\"" << Fixed(right - 126, 2) << "\" y2=\"" << Fixed(legend_y - 4, 2)
          << "\" stroke=\"" << EscapeXml(colors[i]) << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n";
    }
    if (HasMarkers(series)) svg << Marker(right - 138, legend_y - 4, colors[i]);
    svg << "<text x=\"" << Fixed(right - 120, 2) << "\" y=\"" << Fixed(legend_y, 2) << "\">"
        << EscapeXml(series.label) << "</text>\n";
    legend_y += 16;
  }
  svg << "</svg>\n";
  return svg.str();
}

void WriteLinePlotSvg(const LinePlot& plot, const std::string& path) {
  if (path.empty()) throw std::invalid_argument("WriteLinePlotSvg: the output path is empty");
  WriteFileAtomically(path, LinePlotToSvg(plot));
}

}  // namespace quasidyn
