// Halm & Posa 2018, §6.3 (Fig. 5): four two-link arms pinch a square (scene.yaml). The paper
// compares its quasi-static model with a second-order (Drake) simulation; here halm-posa runs
// beside quasidyn's second-order Stewart–Trinkle stepper (the arms' link inertias, impedances
// K = 100/B with critical damping) and the quasi-dynamic QP (Pang & Tedrake 2021, eq. (10)):
// the same scene, schedule and step h.
//
// Writes into OUT_DIR: pinch.csv (formulation, t [s], the square's x, y [m], θ [rad], contacts)
// and pinch_path.svg (the square's centre under each formulation, with its initial and final
// outlines) and pinch_angle.svg (θ(t) under each), drawn by pinch_plots.h. Prints the final
// poses. Exit status 1 when a step fails. bench/pinch_peer_comparison.cc adds MuJoCo (compliant
// contact, as the paper's Drake comparison) to the same figure.
//
// Usage: pinch_figure OUT_DIR

#include "pinch/pinch_plots.h"

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
    const std::vector<PinchRun> runs = {RunPinchFormulation(scene, "halm-posa", "#1f77b4"),
                                        RunPinchFormulation(scene, "stewart-trinkle", "#2ca02c"),
                                        RunPinchFormulation(scene, "qp", "#d62728")};
    return WritePinchFigure(runs, out, "pinch", "pinch_figure") ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "pinch_figure: " << e.what() << "\n";
    return 2;
  }
}
