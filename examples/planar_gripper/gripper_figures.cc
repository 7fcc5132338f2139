// Reproduces the data of Fig. 5 and Fig. 6 of Pang & Tedrake 2021 (§V-A): the planar gripper
// squeezes the sphere, pulls it down (sticking, then sliding from t = 0.13 s), and stops at
// t = 0.24 s. Simulates the scene with the quasistatic LCP of eq. (6) and with the QP of
// eq. (10), and writes one CSV row per step and formulation:
//
//   formulation, t [s], commanded x_l [m], actual x_l [m], c_n1 [N], c_f1 [N], phi_1 [m],
//   c_n3 [N], commanded y [m], actual y [m]
//
// Contact 1 is the left finger–sphere contact, contact 3 the sphere–ground contact (the
// paper's numbering). Row k holds the state at t = (k+1)·h after the step from k·h: x_l and
// φ_1 at the end of the step, the forces averaged over it (impulse / h). c_f1 is the vertical
// (y) component of the friction force the left finger exerts on the sphere: negative while
// the fingers drag the sphere down. y is the hand's height, which the fingers share (the
// vertical coordinate of the left finger in Fig. 5). phi_1 is written as nan while the finger is
// farther from the sphere than the contact tolerance. A step that fails ends that run: its
// status is printed to stderr and the program exits with status 1 after the other run.
//
// Usage: gripper_figures OUTPUT.csv [SCENE.yaml] [END_TIME_S]   (--help; the folder of the
// output is created)

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/tool_options.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"

namespace {

using quasidyn::ContactReport;
using quasidyn::Scene;
using quasidyn::StepResult;

int JointQIndex(const Scene& scene, const std::string& name) {
  for (const auto& joint : scene.joints)
    if (joint.name == name) return joint.q_start;
  throw std::invalid_argument("scene has no joint named '" + name + "'");
}

int RequireBody(const Scene& scene, const std::string& name) {
  const int body = scene.BodyIndex(name);
  if (body < 0) throw std::invalid_argument("scene has no body named '" + name + "'");
  return body;
}

// The report of the contact between bodies a and b, or nullptr if the step has none.
const ContactReport* FindContact(const StepResult& result, int a, int b) {
  for (const ContactReport& c : result.contacts)
    if ((c.body_a == a && c.body_b == b) || (c.body_a == b && c.body_b == a)) return &c;
  return nullptr;
}

// False when a step failed (the run's rows end before it).
bool Simulate(const Scene& scene, const std::string& formulation, double end_time,
              std::ostream& out) {
  // The model shares a copy of the scene (object_mass_scale and h as in the scene); one data
  // object steps it.
  const std::shared_ptr<const quasidyn::StepModel> model = quasidyn::MakeStepModel(
      std::make_shared<const Scene>(scene), quasidyn::FormulationChoice(formulation));
  const std::unique_ptr<quasidyn::StepData> data = model->CreateData();
  const double h = model->time_step();
  const int x_left = JointQIndex(scene, "gripper/x_left");
  const int finger = RequireBody(scene, "gripper/left_finger");
  const int sphere = RequireBody(scene, "sphere");
  const int world = 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int x_left_in_u = x_left - scene.nq_u;
  const int hand_y = JointQIndex(scene, "gripper/y");
  const int hand_y_in_u = hand_y - scene.nq_u;

  Eigen::VectorXd q = scene.q0;
  const int steps = static_cast<int>(std::lround(end_time / h));
  for (int k = 0; k < steps; ++k) {
    const double t = (k + 1) * h;
    const Eigen::VectorXd u = scene.CommandAt(t);
    model->Calc(quasidyn::State{q, Eigen::VectorXd()}, u, data.get());
    const StepResult& result = data->result;
    double c_n1 = nan, c_f1 = nan, phi_1 = nan, c_n3 = nan;
    if (result.ok()) {
      q = result.next.q;
      c_n1 = c_f1 = c_n3 = 0.0;
      if (const ContactReport* c = FindContact(result, finger, sphere)) {
        c_n1 = c->normal_force;
        // Force on the sphere: the report holds the force B exerts on A.
        const double sign = c->body_a == sphere ? 1.0 : -1.0;
        c_f1 = sign * c->friction_force.y();
        phi_1 = c->phi_end;
      }
      if (const ContactReport* c = FindContact(result, sphere, world)) c_n3 = c->normal_force;
    } else {
      std::cerr << formulation << " stops: the step to t = " << t << " s failed: " << result.message
                << "\n";
      return false;
    }
    out << formulation << "," << t << "," << u[x_left_in_u] << "," << q[x_left] << "," << c_n1
        << "," << c_f1 << "," << phi_1 << "," << c_n3 << "," << u[hand_y_in_u] << "," << q[hand_y]
        << "\n";
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "gripper_figures: the data of Fig. 5 and 6 of Pang & Tedrake 2021 (the planar gripper "
      "under the quasistatic LCP and the QP), one CSV row per step and formulation"};
  std::string output;
  std::string scene_path = std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml";
  double end_time = 0.35;
  app.add_option("OUTPUT", output, "The CSV file to write (its folder is created)")->required();
  app.add_option("SCENE", scene_path, "The scene file (default: examples/planar_gripper)");
  app.add_option("END_TIME", end_time, "Simulated time [s] > 0 (default 0.35)")
      ->check(CLI::PositiveNumber);
  bool quiet = false;
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  try {
    if (quiet) quasidyn::tools::SilenceStdout();
    const Scene scene = quasidyn::LoadScene(scene_path);
    const std::filesystem::path folder = std::filesystem::path(output).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder);
    std::ofstream out(output);
    if (!out) throw std::runtime_error("cannot write " + output);
    out.precision(10);
    out << "formulation,t,x_l_commanded,x_l,c_n1,c_f1,phi_1,c_n3,y_commanded,y\n";
    const bool lcp_ok = Simulate(scene, "lcp", end_time, out);
    const bool qp_ok = Simulate(scene, "qp", end_time, out);
    if (!lcp_ok || !qp_ok) return 1;
  } catch (const std::exception& e) {
    std::cerr << "gripper_figures: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
