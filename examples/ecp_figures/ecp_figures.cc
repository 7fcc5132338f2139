// The figures of Xie & Chakraborty's four scenarios (§VI, Figs. 6–10) from the example scenes
// examples/ecp_*/scene.yaml under the ecp formulation (docs/ecp.md), as CSV and SVG:
//
//   build/release/ecp_figures OUT_DIR
//
//   ecp_cube_sliding.csv/.svg        Fig. 6b: the ECP (a_x, a_y) and the position against the
//                                    analytic solution of pure translation (the peers' curves,
//                                    Fig. 6c/d, come from bench/ecp_peer_comparison)
//   ecp_cylinder_rolling.csv/.svg    Fig. 7b/c: L (along the contact line) and D (off it)
//   ecp_cube_toppling.csv/.svg       Fig. 8: sliding velocities v_t, v_o, v_r at the ECP, the
//                                    ECP's a_x, a_y and N, the cube's faces in contact (0 in
//                                    flight), the paper's mode-change times dashed
//   ecp_cylinder_manipulation.csv/.svg  Fig. 10: the applied impulses (a) beside q_z and v_z (b),
//                                    the paper's phase boundaries T1–T6 dashed
//   ecp_cylinder_manipulation_impulses.svg  Fig. 10a alone
//
// It prints the contact modes of scenarios 3 and 4 over time against the paper's (docs/ecp.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/formulations/ecp/ecp_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/viewer/svg_plot.h"

namespace quasidyn {
namespace {

// One step of a scenario: the state after it, its command, the data of the step.
struct Sample {
  double t = 0.0;
  State x;
  Eigen::VectorXd u;
  bool contact = false;  // a pair pushes (p_n > 0)
  Eigen::Vector3d ecp = Eigen::Vector3d::Zero();
  double pn = 0.0, pr = 0.0;
  Eigen::Vector3d sliding = Eigen::Vector3d::Zero();  // v_t, v_o [m/s], v_r [rad/s]
  int facets = 0;  // F's inequalities with l_i > 0 (the paper's N)
  int iterations = 0;
};

std::vector<Sample> Run(const std::string& example, double duration) {
  const auto scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + example + "/scene.yaml"));
  // The scene's own formulation, ecp, as its registration makes it.
  const auto model_owner = std::dynamic_pointer_cast<const EcpModel>(MakeStepModel(scene));
  if (!model_owner) throw std::runtime_error(example + ": the scene's formulation is not ecp");
  const EcpModel& model = *model_owner;
  auto data_owner = model.CreateData();
  const EcpData& data = static_cast<const EcpData&>(*data_owner);
  State x = InitialState(model);
  const int steps = static_cast<int>(std::lround(duration / model.time_step()));
  std::vector<Sample> samples;
  for (int k = 1; k <= steps; ++k) {
    Sample s;
    s.t = k * model.time_step();
    s.u = model.ScheduledCommand(s.t, x);
    model.Calc(x, s.u, data_owner.get());
    if (!data.result.ok()) {
      throw std::runtime_error(example + ": step " + std::to_string(k) +
                               " failed: " + data.result.message);
    }
    x = data.result.next;
    s.x = x;
    s.iterations = data.result.solver.iterations;
    // The pair with the largest normal impulse (the ground, in these scenes).
    const Eigen::VectorXd& z = data.solution().z;
    const EcpSystem& system = model.system();
    int best = -1;
    for (int p = 0; p < static_cast<int>(system.pairs().size()); ++p) {
      if (data.active()[p] && z[system.pairs()[p].pn()] > 1e-9 &&
          (best < 0 || z[system.pairs()[p].pn()] > z[system.pairs()[best].pn()]))
        best = p;
    }
    if (best >= 0) {
      const EcpPair& pair = system.pairs()[best];
      const auto& frame = data.function().frame(best);
      const int b = system.shapes()[pair.shape_f].body_slot;
      s.contact = true;
      s.ecp = z.segment<3>(pair.a2());
      s.pn = pair.impulse_scale * z[pair.pn()];
      s.pr = pair.impulse_scale * z[pair.pr()];
      const Eigen::Vector3d v = z.segment<3>(6 * b), w = z.segment<3>(6 * b + 3);
      const Eigen::Vector3d slip = v + w.cross(s.ecp - data.function().end_com(b));
      s.sliding = Eigen::Vector3d(frame.t.dot(slip), frame.o.dot(slip), frame.n.dot(w));
      for (int i = 0; i < pair.m_f; ++i) s.facets += z[pair.lf() + i] > 1e-6;
    }
    samples.push_back(s);
  }
  return samples;
}

void WriteText(const std::string& path, const std::string& text) {
  WriteFileAtomically(path, text);
}

PlotSeries Series(const std::string& label, const std::vector<Sample>& samples,
                  double (*value)(const Sample&), bool contact_only = false, double until = 1e9) {
  PlotSeries s;
  s.label = label;
  for (const Sample& sample : samples) {
    if ((contact_only && !sample.contact) || sample.t > until) continue;
    s.x.push_back(sample.t);
    s.y.push_back(value(sample));
  }
  return s;
}

// Consecutive samples with the same mode, as "mode from–to s" items.
std::string ModeIntervals(const std::vector<Sample>& samples,
                          const std::string& (*mode)(const Sample&)) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2);
  size_t begin = 0;
  for (size_t k = 1; k <= samples.size(); ++k) {
    if (k < samples.size() && mode(samples[k]) == mode(samples[begin])) continue;
    text << (begin == 0 ? "" : ", ") << mode(samples[begin]) << " " << samples[begin].t << "–"
         << samples[k - 1].t << " s";
    begin = k;
  }
  return text.str();
}

// A dashed vertical line at t from y0 to y1 (a paper's time in a plot).
PlotSeries VerticalLine(const std::string& label, double t, double y0, double y1) {
  return PlotSeries{label, {t, t}, {y0, y1}, "#7f7f7f", true};
}

// Scenario 1 (Fig. 6b and the analytic comparison).
void CubeSliding(const std::string& out) {
  const std::vector<Sample> samples = Run("ecp_cube_sliding", 4.0);
  const double mu = 0.12, g = 9.8;
  std::ostringstream csv;
  csv << std::setprecision(12);  // the checks compare to 1e-6 m
  csv << "t,q_x,q_y,analytic_x,analytic_y,a_x,a_y,ecp_offset_x,ecp_offset_y,iterations\n";
  PlotSeries ours{"ours q_x, q_y [m]", {}, {}, "#1f77b4", false};
  PlotSeries analytic{"analytic", {}, {}, "#000000", true};
  for (const Sample& s : samples) {
    const double d = 5.0 * s.t - 0.5 * mu * g * s.t * s.t;
    csv << s.t << "," << s.x.q[0] << "," << s.x.q[1] << "," << 0.8 * d << "," << 0.6 * d << ","
        << s.ecp.x() << "," << s.ecp.y() << "," << s.ecp.x() - s.x.q[0] << ","
        << s.ecp.y() - s.x.q[1] << "," << s.iterations << "\n";
  }
  WriteText(out + "/ecp_cube_sliding.csv", csv.str());
  LinePlot ecp{"Scenario 1: the ECP of the sliding cube (Fig. 6b)", "t [s]", "[m]", {}, 640, 360};
  ecp.series.push_back(Series("a_x", samples, [](const Sample& s) { return s.ecp.x(); }));
  ecp.series.push_back(Series("a_y", samples, [](const Sample& s) { return s.ecp.y(); }));
  ecp.series.push_back(Series("a_x - q_x (0.048 m: 0.06 m ahead)", samples,
                              [](const Sample& s) { return 10 * (s.ecp.x() - s.x.q[0]); }));
  ecp.series.back().label = "10 (a_x - q_x): the ECP 0.06 m ahead of the centre";
  WriteLinePlotSvg(ecp, out + "/ecp_cube_sliding.svg");
}

// Scenario 2 (Fig. 7b/c).
void CylinderRolling(const std::string& out) {
  const std::vector<Sample> samples = Run("ecp_cylinder_rolling", 10.0);
  std::ostringstream csv;
  csv << std::setprecision(12);  // the checks compare to 1e-6 m
  csv << "t,q_x,q_y,theta_z,L,D,omega_z,p_r,iterations\n";
  std::vector<double> L(samples.size()), D(samples.size());
  for (size_t k = 0; k < samples.size(); ++k) {
    const Sample& s = samples[k];
    const Eigen::Matrix3d R = RotationMatrixFromQuaternion(s.x.q.segment<4>(3));
    const double theta = std::atan2(R(1, 0), R(0, 0));
    const double dx = s.ecp.x() - s.x.q[0], dy = s.ecp.y() - s.x.q[1];
    L[k] = std::cos(theta) * dx + std::sin(theta) * dy;
    D[k] = std::sin(theta) * dx - std::cos(theta) * dy;
    csv << s.t << "," << s.x.q[0] << "," << s.x.q[1] << "," << theta << "," << L[k] << "," << D[k]
        << "," << s.x.v[5] << "," << s.pr << "," << s.iterations << "\n";
  }
  WriteText(out + "/ecp_cylinder_rolling.csv", csv.str());
  LinePlot plot{
      "Scenario 2: the ECP on the contact line (Fig. 7b, c)", "t [s]", "[m]", {}, 640, 360};
  PlotSeries l{"L along the line (|L| <= l/2 = 2.5 m)", {}, {}, "#1f77b4", false};
  PlotSeries d{"D off the line", {}, {}, "#d62728", false};
  PlotSeries w{"omega_z [rad/s]", {}, {}, "#2ca02c", true};
  for (size_t k = 0; k < samples.size(); ++k) {
    if (samples[k].t > 2.0) break;  // the paper's plots end at 2 s; the pattern repeats
    l.x.push_back(samples[k].t);
    l.y.push_back(L[k]);
    d.x.push_back(samples[k].t);
    d.y.push_back(D[k]);
    w.x.push_back(samples[k].t);
    w.y.push_back(samples[k].x.v[5]);
  }
  plot.series = {l, d, w};
  WriteLinePlotSvg(plot, out + "/ecp_cylinder_rolling.svg");
}

// Scenario 3 (Fig. 8).
void CubeToppling(const std::string& out) {
  const std::vector<Sample> samples = Run("ecp_cube_toppling", 4.0);
  std::ostringstream csv;
  csv << std::setprecision(12);  // the checks compare to 1e-6 m
  csv << "t,v_t,v_o,v_r,N,a_x,a_y,p_n,iterations\n";
  for (const Sample& s : samples) {
    csv << s.t << "," << s.sliding.x() << "," << s.sliding.y() << "," << s.sliding.z() << ","
        << s.facets << "," << s.ecp.x() << "," << s.ecp.y() << "," << s.pn << "," << s.iterations
        << "\n";
  }
  WriteText(out + "/ecp_cube_toppling.csv", csv.str());
  LinePlot plot{"Scenario 3: point, line, surface contact (Fig. 8)",
                "t [s]",
                "N [-], velocities [m/s, rad/s], ECP [m]",
                {},
                720,
                400};
  plot.series.push_back(Series("N (faces in contact; 0: in flight)", samples,
                               [](const Sample& s) { return double(s.facets); }));
  plot.series.push_back(Series(
      "v_t", samples, [](const Sample& s) { return s.sliding.x(); }, true, 1.8));
  plot.series.push_back(Series(
      "v_o", samples, [](const Sample& s) { return s.sliding.y(); }, true, 1.8));
  plot.series.push_back(Series(
      "v_r", samples, [](const Sample& s) { return s.sliding.z(); }, true, 1.8));
  plot.series.push_back(Series(
      "a_x", samples, [](const Sample& s) { return s.ecp.x(); }, true, 1.8));
  plot.series.push_back(Series(
      "a_y", samples, [](const Sample& s) { return s.ecp.y(); }, true, 1.8));
  // The paper's text (§VI-C): line contact at t = 1 s, surface contact at t = 1.8 s.
  plot.series.push_back(
      VerticalLine("the paper's line (1 s) and surface (1.8 s) contact", 1.0, 0, 3));
  plot.series.push_back(VerticalLine("", 1.8, 0, 3));
  WriteLinePlotSvg(plot, out + "/ecp_cube_toppling.svg");
  static const std::string kModes[] = {"in flight", "surface", "line", "point"};
  std::cout << "scenario 3 (paper: point, line from 1 s, surface from 1.8 s): "
            << ModeIntervals(samples,
                             [](const Sample& s) -> const std::string& {
                               return kModes[s.contact ? std::clamp(s.facets, 0, 3) : 0];
                             })
            << "\n";
}

// Scenario 4 (Fig. 10).
void CylinderManipulation(const std::string& out) {
  const std::vector<Sample> samples = Run("ecp_cylinder_manipulation", 5.0);
  std::ostringstream csv;
  csv << std::setprecision(12);  // the checks compare to 1e-6 m
  csv << "t,p_x,p_y,p_z,p_xtau,p_ytau,p_ztau,q_x,q_y,q_z,v_z,N,iterations\n";
  for (const Sample& s : samples) {
    csv << s.t;
    for (int i = 0; i < 6; ++i) csv << "," << s.u[i];
    csv << "," << s.x.q[0] << "," << s.x.q[1] << "," << s.x.q[2] << "," << s.x.v[2] << ","
        << s.facets << "," << s.iterations << "\n";
  }
  WriteText(out + "/ecp_cylinder_manipulation.csv", csv.str());
  // The paper's phases (§VI-D): T1 fall, T2 roll, T3 pivot, T4 roll, T5 lift, T6 rest.
  const double boundaries[] = {0.655, 1.505, 2.155, 3.255, 4.705};  // [s] between T_i and T_i+1
  LinePlot plot{
      "Scenario 4: heights and impacts (Fig. 10b)", "t [s]", "q_z [m], v_z [m/s]", {}, 720, 400};
  plot.series.push_back(Series("q_z", samples, [](const Sample& s) { return s.x.q[2]; }));
  plot.series.push_back(Series("v_z", samples, [](const Sample& s) { return s.x.v[2]; }));
  plot.series.push_back(
      PlotSeries{"0.1 m: lying (line); 0.15 m: standing (surface)", {0, 5}, {0.1, 0.1}, "", true});
  plot.series.push_back(PlotSeries{"", {0, 5}, {0.15, 0.15}, plot.series.back().color, true});
  double v_low = 0.0, v_high = 0.0;
  for (const Sample& s : samples) {
    v_low = std::min(v_low, s.x.v[2]);
    v_high = std::max(v_high, s.x.v[2]);
  }
  for (const double t : boundaries) {
    plot.series.push_back(
        VerticalLine(t == boundaries[0] ? "the paper's T1 | T2 | … | T6" : "", t, v_low, v_high));
  }
  LinePlot impulses{
      "Scenario 4: the applied impulses (Fig. 10a)", "t [s]", "[N s], [N m s]", {}, 720, 400};
  const char* const names[] = {"p_x", "p_y", "p_z", "p_xtau", "p_ytau", "p_ztau"};
  double p_low = 0.0, p_high = 0.0;
  for (int i = 0; i < 6; ++i) {
    PlotSeries series{names[i], {}, {}, "", false};
    for (const Sample& s : samples) {
      series.x.push_back(s.t);
      series.y.push_back(s.u[i]);
      p_low = std::min(p_low, s.u[i]);
      p_high = std::max(p_high, s.u[i]);
    }
    impulses.series.push_back(series);
  }
  for (const double t : boundaries) impulses.series.push_back(VerticalLine("", t, p_low, p_high));
  WriteLinePlotSvg(impulses, out + "/ecp_cylinder_manipulation_impulses.svg");
  // Fig. 10: (a) the impulses beside (b) v_z and q_z, one image of two plots, each plot's own
  // <svg> placed at its x offset inside the outer one.
  const auto placed = [](const LinePlot& p, int x) {
    std::string svg = LinePlotToSvg(p);
    return svg.insert(svg.find("<svg ") + 5, "x=\"" + std::to_string(x) + "\" ");
  };
  std::ostringstream both;
  both << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << impulses.width + plot.width
       << "\" height=\"" << std::max(impulses.height, plot.height) << "\">\n"
       << placed(impulses, 0) << placed(plot, impulses.width) << "</svg>\n";
  WriteText(out + "/ecp_cylinder_manipulation.svg", both.str());
  static const std::string kModes[] = {"lying (line)", "standing (surface)", "between"};
  std::cout
      << "scenario 4 (paper: T1 fall 0.01–0.65, T2 roll 0.66–1.5, T3 pivot 1.51–2.15, T4 roll "
         "2.16–3.25, T5 lift 3.26–4.7, T6 rest 4.71–5 s): "
      << ModeIntervals(
             samples,
             [](const Sample& s) -> const std::string& {
               const double z = s.x.q[2];
               return kModes[std::abs(z - 0.1) < 1e-6 ? 0 : std::abs(z - 0.15) < 1e-6 ? 1 : 2];
             })
      << "\n";
}

}  // namespace
}  // namespace quasidyn

int main(int argc, char** argv) {
  CLI::App app{"The figures of Xie & Chakraborty's four scenarios (CSV + SVG)"};
  std::string out;
  bool quiet = false;
  app.add_option("OUT_DIR", out, "Output folder (created if needed)")->required();
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  try {
    if (quiet) quasidyn::tools::SilenceStdout();
    std::filesystem::create_directories(out);
    quasidyn::CubeSliding(out);
    quasidyn::CylinderRolling(out);
    quasidyn::CubeToppling(out);
    quasidyn::CylinderManipulation(out);
  } catch (const std::exception& e) {
    std::cerr << "ecp_figures: " << e.what() << "\n";
    return 1;
  }
  std::cout << "ecp_figures: wrote 4 scenarios' CSV and SVG to " << out << "\n";
  return 0;
}
