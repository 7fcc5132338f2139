#pragma once
// What the figure programs of the halm-posa examples share (examples/disk_pushing,
// examples/peg_in_hole, examples/pinch): loading an example scene, rolling it out under given
// settings, outlines of circles and polygons for the SVG plots (src/quasidyn/viewer/svg_plot.h),
// a colour ramp, and CSV output written atomically. Header-only, for the example programs.

#include <CLI/CLI.hpp>
#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/viewer/svg_plot.h"

namespace quasidyn::examples {

inline ScenePtr LoadExample(const std::string& relative_path) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + relative_path));
}

// The scene's schedule to its end (or `duration` [s] when > 0) under formulation `choice`
// (empty: the scene's own).
inline Trajectory RunExample(const ScenePtr& scene, const FormulationChoice& choice,
                             double duration = 0.0) {
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, choice);
  RolloutOptions options;
  options.steps =
      StepCountForDuration(duration > 0 ? duration : scene->ScheduleEnd(), model->time_step());
  return Rollout(*model, options);
}

// x, y of q[i], q[i + 1] along a trajectory (q0 first), as a plot series.
inline PlotSeries PathOf(const Trajectory& t, int i, const std::string& label,
                         const std::string& color, bool dashed = false) {
  PlotSeries s{label, {t.q0[i]}, {t.q0[i + 1]}, color, dashed};
  for (const TrajectoryStep& step : t.steps) {
    s.x.push_back(step.q[i]);
    s.y.push_back(step.q[i + 1]);
  }
  return s;
}

// A closed polygon through `points` (world), as a plot series without legend.
inline PlotSeries Outline(const std::vector<Eigen::Vector2d>& points, const std::string& color) {
  PlotSeries s{"", {}, {}, color, false};
  for (size_t k = 0; k <= points.size(); ++k) {
    s.x.push_back(points[k % points.size()].x());
    s.y.push_back(points[k % points.size()].y());
  }
  return s;
}

inline std::vector<Eigen::Vector2d> Circle(const Eigen::Vector2d& centre, double radius,
                                           int segments = 48) {
  std::vector<Eigen::Vector2d> points;
  for (int k = 0; k < segments; ++k) {
    const double a = 2 * M_PI * k / segments;
    points.push_back(centre + radius * Eigen::Vector2d(std::cos(a), std::sin(a)));
  }
  return points;
}

// `vertices` (body frame) placed at the planar pose (x, y, θ).
inline std::vector<Eigen::Vector2d> Placed(const std::vector<Eigen::Vector2d>& vertices, double x,
                                           double y, double theta) {
  std::vector<Eigen::Vector2d> points;
  for (const Eigen::Vector2d& v : vertices)
    points.push_back(Eigen::Vector2d(x, y) + Eigen::Rotation2Dd(theta) * v);
  return points;
}

// Colour k of n from yellow (low feedback gain) to blue (high), as the paper's Fig. 3.
inline std::string Ramp(int k, int n) {
  const double hue = (M_PI / 2) * (n > 1 ? static_cast<double>(k) / (n - 1) : 1.0);
  const double yellow[3] = {0.9, 0.9, 0.0}, blue[3] = {0.0, 0.0, 1.0};
  char text[8];
  int rgb[3];
  for (int i = 0; i < 3; ++i) {
    const double v = yellow[i] * std::cos(hue) + blue[i] * std::sin(hue);
    rgb[i] = static_cast<int>(std::lround(255 * std::min(1.0, std::max(0.0, v))));
  }
  std::snprintf(text, sizeof(text), "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return text;
}

// A plot whose image has the aspect ratio of the data (so circles look round), about
// `width` px wide.
inline void MatchAspect(LinePlot* plot, double x_span, double y_span, int width = 640) {
  const double plot_width = width - kSvgPlotMarginLeft - kSvgPlotMarginRight;
  plot->width = width;
  plot->height = static_cast<int>(
      std::lround(plot_width * y_span / x_span + kSvgPlotMarginTop + kSvgPlotMarginBottom));
  plot->height = std::max(plot->height, 150);
}

// CSV text accumulated row by row, then written atomically.
class Csv {
 public:
  explicit Csv(const std::string& header) { text_ << header << "\n"; }
  template <typename... Values>
  void Row(const Values&... values) {
    const char* separator = "";
    ((text_ << separator << values, separator = ","), ...);
    text_ << "\n";
  }
  void Write(const std::filesystem::path& path) const { WriteFileAtomically(path, text_.str()); }

 private:
  std::ostringstream text_;
};

// The command line, OUT_DIR (parsed with CLI11, as `quasidyn`): `--help` prints the usage and
// exits 0 without writing anything; a missing or extra argument prints the error and exits 2.
// Returns the output folder, created if needed.
inline std::filesystem::path OutputFolder(int argc, char** argv, const char* description) {
  CLI::App app{description};
  std::string folder;
  bool quiet = false;
  app.add_option("OUT_DIR", folder, "The folder to write into (created if needed)")->required();
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  if (quiet) tools::SilenceStdout();
  std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace quasidyn::examples
