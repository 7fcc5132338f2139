// Halm & Posa 2018, §6.3 (Fig. 5): four two-link arms pinch a square (scene.yaml). The paper
// compares its quasi-static model with a second-order (Drake) simulation; here halm-posa runs
// beside quasidyn's second-order Stewart–Trinkle stepper (the arms' link inertias, impedances
// K = 100/B with critical damping) and the quasi-dynamic QP (Pang & Tedrake 2021, eq. (10)):
// the same scene, schedule and step h.
//
// Writes into OUT_DIR: pinch.csv (formulation, t [s], the square's x, y [m], θ [rad], contacts)
// and pinch_path.svg (the square's centre under each formulation, with its initial and final
// outlines) and pinch_angle.svg (θ(t) under each). Prints both final poses. Exit status 1 when a
// step fails.
//
// Usage: pinch_figure OUT_DIR

#include <iostream>
#include <string>

#include "common/halm_posa_figures.h"

int main(int argc, char** argv) {
  using namespace quasidyn;
  using namespace quasidyn::examples;
  try {
    const std::filesystem::path out =
        OutputFolder(argc, argv,
                     "Halm & Posa 2018, Fig. 5: four arms pinch a square, halm-posa beside the "
                     "second-order stewart-trinkle step and the quasi-dynamic QP; a CSV and SVGs "
                     "into OUT_DIR");
    const ScenePtr scene = LoadExample("pinch/scene.yaml");
    Csv csv("formulation,t,x,y,theta,contacts");
    LinePlot path;
    path.title = "Pinched square: the centre's path (outlines at 0 s and at the end)";
    path.x_label = "x_W [m]";
    path.y_label = "y_W [m]";
    MatchAspect(&path, 0.7, 0.7, 560);
    path.series.push_back({"", {-0.3, 0.4}, {-0.3, 0.4}, "#ffffff"});  // the window
    LinePlot angle;
    angle.title = "Pinched square: orientation";
    angle.x_label = "t [s]";
    angle.y_label = "theta [rad]";
    const std::vector<Eigen::Vector2d> square = {
        {-0.2, -0.2}, {0.2, -0.2}, {0.2, 0.2}, {-0.2, 0.2}};
    path.series.push_back(Outline(Placed(square, 0, 0, 0), "#808080"));
    bool ok = true;
    struct Run {
      const char* formulation;
      const char* color;
    };
    for (const Run& each :
         {Run{"halm-posa", "#1f77b4"}, Run{"stewart-trinkle", "#2ca02c"}, Run{"qp", "#d62728"}}) {
      const Trajectory run = RunExample(scene, FormulationChoice(each.formulation));
      const std::string name = each.formulation;
      const std::string color = each.color;
      PlotSeries theta{name, {0.0}, {run.q0[2]}, color, false};
      for (const TrajectoryStep& s : run.steps) {
        csv.Row(name, s.t, s.q[0], s.q[1], s.q[2], s.contacts.size());
        theta.x.push_back(s.t);
        theta.y.push_back(s.q[2]);
      }
      angle.series.push_back(theta);
      path.series.push_back(PathOf(run, 0, name, color));
      const Eigen::VectorXd& q = run.FinalConfiguration();
      path.series.push_back(Outline(Placed(square, q[0], q[1], q[2]), color));
      std::cout << name << ": " << run.steps.size() << " of " << run.steps_requested
                << " steps, final (" << q[0] << ", " << q[1] << ", " << q[2] << ")\n";
      if (!run.completed()) {
        std::cerr << "pinch_figure: " << name << ": " << run.message << "\n";
        ok = false;
      }
    }
    csv.Write(out / "pinch.csv");
    WriteLinePlotSvg(path, out / "pinch_path.svg");
    WriteLinePlotSvg(angle, out / "pinch_angle.svg");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "pinch_figure: " << e.what() << "\n";
    return 2;
  }
}
