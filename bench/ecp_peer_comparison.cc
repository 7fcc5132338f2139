// Scenario 1 of Xie & Chakraborty (§VI-A, Fig. 6c/d): a 1 m, 1 kg cube sliding on a plane from
// ν₀ = (4, 3, 0, 0, 0, 0), μ = 0.12, g = 9.8, h = 0.01 s, 4 s, in four simulators side by side
// against the analytic solution of pure translation with patch contact (Xie & Chakraborty 2016:
// |v(t)| = 5 − μ g t along (0.8, 0.6), docs/ecp.md):
//
//   ours      the ecp formulation on examples/ecp_cube_sliding/scene.yaml;
//   MuJoCo    2.2 (Debian libmujoco-dev): a free box on a plane, Euler integrator, the default
//             soft contacts (pyramidal cone, condim 3, up to 4 contact points);
//   Bullet    3.24 (libbullet-dev): btDiscreteDynamicsWorld, sequential impulses, a box on a
//             static plane (friction 0.12 · 1, restitution 0, no sleeping), one step of 0.01 s;
//   ODE       0.16 (libode-dev): dWorldStep, up to 4 contact points, contact.surface.mode =
//             dContactApprox1 (ours: the paper does not give ODE's or Bullet's settings) and
//             mu = 0.12 (the paper's μ, §VI-A).
//
//   build/release/ecp_peer_comparison OUT_DIR
//
// writes OUT_DIR/ecp_cube_sliding_peers.csv (positions of each), ecp_cube_sliding_peers.svg
// (q_x, q_y over time beside the analytic curve, Fig. 6c), ecp_cube_sliding_errors.svg (the
// percentage errors |q − q_analytic|/q_analytic, Fig. 6d), and prints the error table at t = 1,
// 2, 3, 4 s. These engines are used here only, never by the library (docs/dependencies.md).
#include <btBulletDynamicsCommon.h>
#include <mujoco/mujoco.h>
#include <ode/ode.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/viewer/svg_plot.h"

namespace {

constexpr double kH = 0.01, kMu = 0.12, kG = 9.8, kDuration = 4.0;
constexpr int kSteps = 400;

using Path = std::vector<Eigen::Vector2d>;  // (q_x, q_y) after each step

Eigen::Vector2d Analytic(double t) {
  const double d = 5.0 * t - 0.5 * kMu * kG * t * t;
  return Eigen::Vector2d(0.8 * d, 0.6 * d);
}

Path Ours() {
  const auto scene = std::make_shared<const quasidyn::Scene>(quasidyn::LoadScene(
      std::string(QUASIDYN_SOURCE_DIR) + "/examples/ecp_cube_sliding/scene.yaml"));
  const auto model_ptr = quasidyn::MakeStepModel(scene);  // the scene's own: ecp
  const quasidyn::StepModel& model = *model_ptr;
  auto data = model.CreateData();
  quasidyn::State x = quasidyn::InitialState(model);
  Path path;
  for (int k = 1; k <= kSteps; ++k) {
    model.Calc(x, model.ScheduledCommand(k * kH, x), data.get());
    if (!data->result.ok()) throw std::runtime_error("ours: " + data->result.message);
    x = data->result.next;
    path.emplace_back(x.q[0], x.q[1]);
  }
  return path;
}

Path MuJoCo() {
  const std::string xml = R"(<mujoco>
  <option timestep="0.01" gravity="0 0 -9.8" integrator="Euler"/>
  <worldbody>
    <geom type="plane" size="0 0 1" friction="0.12 0 0"/>
    <body pos="0 0 0.5">
      <freejoint/>
      <geom type="box" size="0.5 0.5 0.5" mass="1" friction="0.12 0 0"/>
    </body>
  </worldbody>
</mujoco>)";
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("ecp_peer_mujoco_" + std::to_string(getpid()) + ".xml");
  std::ofstream(file) << xml;
  char error[1000] = "";
  mjModel* m = mj_loadXML(file.string().c_str(), nullptr, error, sizeof(error));
  std::filesystem::remove(file);
  if (!m) throw std::runtime_error(std::string("MuJoCo: ") + error);
  mjData* d = mj_makeData(m);
  d->qvel[0] = 4.0;
  d->qvel[1] = 3.0;
  Path path;
  for (int k = 1; k <= kSteps; ++k) {
    mj_step(m, d);
    path.emplace_back(d->qpos[0], d->qpos[1]);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return path;
}

Path Bullet() {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0, 0, -kG));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &plane));
  ground.setFriction(1.0);  // Bullet multiplies the two: 0.12 · 1
  ground.setRestitution(0.0);
  world.addRigidBody(&ground);
  btBoxShape box(btVector3(0.5, 0.5, 0.5));
  btVector3 inertia;
  box.calculateLocalInertia(1.0, inertia);
  btDefaultMotionState motion(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.5)));
  btRigidBody cube(btRigidBody::btRigidBodyConstructionInfo(1.0, &motion, &box, inertia));
  cube.setFriction(kMu);
  cube.setRestitution(0.0);
  cube.setActivationState(DISABLE_DEACTIVATION);
  cube.setLinearVelocity(btVector3(4, 3, 0));
  world.addRigidBody(&cube);
  Path path;
  for (int k = 1; k <= kSteps; ++k) {
    world.stepSimulation(kH, 0);  // exactly one step of h (no sub-stepping or interpolation)
    const btVector3 p = cube.getCenterOfMassPosition();
    path.emplace_back(p.x(), p.y());
  }
  world.removeRigidBody(&cube);
  world.removeRigidBody(&ground);
  return path;
}

struct OdeWorld {
  dWorldID world;
  dJointGroupID contacts;
};

void OdeNearCallback(void* data, dGeomID a, dGeomID b) {
  auto* w = static_cast<OdeWorld*>(data);
  dContact contact[4];
  const int n = dCollide(a, b, 4, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    contact[i].surface.mode = dContactApprox1;  // ours (the paper gives no ODE settings)
    contact[i].surface.mu = kMu;
    const dJointID joint = dJointCreateContact(w->world, w->contacts, &contact[i]);
    dJointAttach(joint, dGeomGetBody(a), dGeomGetBody(b));
  }
}

Path Ode() {
  dInitODE2(0);
  OdeWorld w{dWorldCreate(), dJointGroupCreate(0)};
  dWorldSetGravity(w.world, 0, 0, -kG);
  const dSpaceID space = dHashSpaceCreate(nullptr);
  dCreatePlane(space, 0, 0, 1, 0);
  const dBodyID body = dBodyCreate(w.world);
  dMass mass;
  dMassSetBox(&mass, 1.0, 1.0, 1.0, 1.0);  // density 1 kg/m³, 1 m sides: 1 kg
  dBodySetMass(body, &mass);
  const dGeomID box = dCreateBox(space, 1.0, 1.0, 1.0);
  dGeomSetBody(box, body);
  dBodySetPosition(body, 0, 0, 0.5);
  dBodySetLinearVel(body, 4, 3, 0);
  Path path;
  for (int k = 1; k <= kSteps; ++k) {
    dSpaceCollide(space, &w, &OdeNearCallback);
    dWorldStep(w.world, kH);
    dJointGroupEmpty(w.contacts);
    const dReal* p = dBodyGetPosition(body);
    path.emplace_back(p[0], p[1]);
  }
  dJointGroupDestroy(w.contacts);
  dSpaceDestroy(space);
  dWorldDestroy(w.world);
  dCloseODE();
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ecp_peer_comparison: scenario 1 of the ecp formulation (the sliding cube) in quasidyn, "
      "MuJoCo, Bullet and ODE against the analytic solution; a CSV and two SVGs into OUT_DIR, "
      "the error table on stdout"};
  std::string out;
  bool quiet = false;
  app.add_option("OUT_DIR", out, "Output folder (created if needed)")->required();
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  try {
    if (quiet) quasidyn::tools::SilenceStdout();
    std::filesystem::create_directories(out);
    const std::vector<std::string> names = {"ours", "MuJoCo", "Bullet", "ODE"};
    const std::vector<Path> paths = {Ours(), MuJoCo(), Bullet(), Ode()};
    std::ostringstream csv;
    csv << "t,analytic_x,analytic_y";
    for (const std::string& n : names) csv << "," << n << "_x," << n << "_y";
    csv << "\n";
    for (int k = 0; k < kSteps; ++k) {
      const double t = (k + 1) * kH;
      const Eigen::Vector2d a = Analytic(t);
      csv << t << "," << a.x() << "," << a.y();
      for (const Path& p : paths) csv << "," << p[k].x() << "," << p[k].y();
      csv << "\n";
    }
    quasidyn::WriteFileAtomically(out + "/ecp_cube_sliding_peers.csv", csv.str());
    const char* const colors[] = {"#1f77b4", "#2ca02c", "#ff7f0e", "#d62728"};
    quasidyn::LinePlot positions{"Scenario 1: the sliding cube in four simulators (Fig. 6c)",
                                 "t [s]",
                                 "q_x, q_y [m]",
                                 {},
                                 720,
                                 420};
    quasidyn::LinePlot errors{"Scenario 1: error against the analytic solution (Fig. 6d)",
                              "t [s]",
                              "|q - q_analytic| / q_analytic [%]",
                              {},
                              720,
                              420};
    for (int c = 0; c < 2; ++c) {
      quasidyn::PlotSeries analytic{c == 0 ? "analytic" : "", {}, {}, "#000000", true};
      for (int k = 0; k < kSteps; ++k) {
        analytic.x.push_back((k + 1) * kH);
        analytic.y.push_back(Analytic((k + 1) * kH)[c]);
      }
      positions.series.push_back(analytic);
      for (size_t i = 0; i < paths.size(); ++i) {
        quasidyn::PlotSeries s{c == 0 ? names[i] : "", {}, {}, colors[i], c == 1};
        quasidyn::PlotSeries e{names[i] + (c == 0 ? " x" : " y"), {}, {}, colors[i], c == 1};
        for (int k = 0; k < kSteps; ++k) {
          const double t = (k + 1) * kH, exact = Analytic(t)[c];
          s.x.push_back(t);
          s.y.push_back(paths[i][k][c]);
          e.x.push_back(t);
          e.y.push_back(100.0 * std::abs(paths[i][k][c] - exact) / exact);
        }
        positions.series.push_back(s);
        errors.series.push_back(e);
      }
    }
    quasidyn::WriteLinePlotSvg(positions, out + "/ecp_cube_sliding_peers.svg");
    quasidyn::WriteLinePlotSvg(errors, out + "/ecp_cube_sliding_errors.svg");
    std::printf("scenario 1: |q - q_analytic| [m] and relative error in q_x, q_y [%%]\n");
    std::printf("%-7s", "t [s]");
    for (const std::string& n : names) std::printf("  %-27s", n.c_str());
    std::printf("\n");
    for (int t = 1; t <= 4; ++t) {
      const int k = t * 100 - 1;
      const Eigen::Vector2d a = Analytic(t);
      std::printf("%-7d", t);
      for (const Path& p : paths) {
        std::printf("  %.4f m  %6.3f %% %6.3f %%", (p[k] - a).norm(),
                    100 * std::abs(p[k].x() - a.x()) / a.x(),
                    100 * std::abs(p[k].y() - a.y()) / a.y());
      }
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    std::cerr << "ecp_peer_comparison: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
