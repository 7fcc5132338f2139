// Halm & Posa 2018, §6.3 (Fig. 5): the pinch of examples/pinch against a compliant, fully dynamic
// simulator. The paper compares its quasi-static model with Drake's compliant simulation; Drake is
// not a dependency here, MuJoCo (2.2, Debian libmujoco-dev) is, and its contact is compliant too
// (soft constraints), so it stands in as the independent second-order peer.
//
// The MuJoCo model is written from the loaded scene (examples/pinch/scene.yaml), so both see the
// same bodies, placement, initial configuration and commands:
//   the square    a body with the scene's planar joint as MuJoCo joints slide x, slide y, hinge z
//                 (no support plane, no friction with the ground: seen from above, gravity off),
//                 its mass 0.01 kg and box inertia from the scene;
//   the arms      each scene revolute joint a hinge, each link's mass, com and inertia from the
//                 scene (I_xx, I_yy raised to I_zz/2, which act in no planar motion, for
//                 MuJoCo's inertia check; no link geometry), the tip a sphere of the scene's radius
//                 in the plane of the square's centre; tips collide with the square only (not with
//                 each other);
//   friction      μ of the scene's shapes (0.5 for all, so MuJoCo's max rule and the scene's
//                 harmonic mean agree), condim 3, MuJoCo's default pyramidal cone;
//   feedback      halm-posa's finite feedback −F_m = (1/c) B⁻¹ (u − q̇_m) (Halm & Posa 2018,
//                 eq. (15)) is exactly a MuJoCo velocity actuator, force kv (ctrl − q̇) with
//                 kv = 1/(c B_i) [N·m·s/rad] per joint and ctrl = u, the schedule's joint velocity
//                 (c = 0.05, B = 1, 2, 0.5, 1: kv = 20, 10, 40, 20); the arms start at u.
//                 A second run, "MuJoCo-impedance", drives them as stewart-trinkle does:
//                 position actuators kp = K = 100/B [N·m/rad] towards q̄(t), joint damping
//                 D = 2 sqrt(K M_ii(q0)) (dynamics/second_order_cost.h), the arms at rest;
//   stepping      Euler, h = --time-step (default 1e-4 s), contact solref = (--contact-time-
//                 constant [s], damping ratio 1), solimp MuJoCo's default. The time constant's
//                 default, 5e-4 s (= 5 h), is a fortieth of MuJoCo's own 0.02 s: the deepest
//                 penetration falls from 2.4 mm to 0.04 mm and the final y from 0.082 m to 0.058 m,
//                 within 0.002 m of the runs at h/2 and at 2e-4 s (docs/formulations.md, "Pinch").
// Not stated in the paper: Drake's settings and contact parameters; ours: the above.
//
//   build/release/pinch_peer_comparison OUT_DIR [--time-step H] [--contact-time-constant T]
//
// writes OUT_DIR/pinch_peers.csv (formulation, t [s], x, y [m], θ [rad], contacts: MuJoCo's
// touching ones, quasidyn's those within the scene's contact_tolerance; MuJoCo sampled at the
// scene's step 0.02 s), pinch_peers_path.svg and pinch_peers_angle.svg (pinch_plots.h, the
// plots of pinch_figure) for halm-posa, stewart-trinkle, qp and both MuJoCo runs, and prints the
// final poses and MuJoCo's deepest penetration. Exit status 1 when a run fails. MuJoCo is used here
// only, never by the library (docs/dependencies.md).
#include <mujoco/mujoco.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "pinch/pinch_plots.h"

namespace {

using quasidyn::examples::PinchRun;

// How MuJoCo drives the arms' joints (ctrl per joint, one actuator each).
enum class ArmDrive {
  kVelocityFeedback,  // halm-posa's eq. (15): velocity actuator kv = 1/(c B_i), ctrl = u
  kImpedance,         // the second-order steppers' arms: position actuator kp = K_i (the scene's
                      // stiffness), joint damping D_i = 2 sqrt(K_i M_ii(q0)), ctrl = q̄(t)
};

struct MujocoSettings {
  double time_step = 1e-4;              // h [s], > 0, dividing the scene's step
  double contact_time_constant = 5e-4;  // solref[0] [s], >= 2 h (MuJoCo's stability bound)
};

std::string Numbers(const double* v, int n) {
  std::ostringstream s;
  s << std::setprecision(17);
  for (int i = 0; i < n; ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

// pos="..." quat="w x y z" of a rigid transform.
std::string PoseAttributes(const Eigen::Isometry3d& X) {
  const Eigen::Vector3d p = X.translation();
  const Eigen::Quaterniond r(X.rotation());
  const double quat[4] = {r.w(), r.x(), r.y(), r.z()};
  return "pos=\"" + Numbers(p.data(), 3) + "\" quat=\"" + Numbers(quat, 4) + "\"";
}

// The finite-feedback gains of the scene's halm-posa block: kv_i = 1/(c B_i) [N·m·s/rad], one
// per robot joint (Halm & Posa 2018, eq. (15)).
Eigen::VectorXd VelocityGains(const quasidyn::Scene& scene) {
  const quasidyn::ParameterValue* c = scene.formulation.parameters.Find("c");
  const quasidyn::ParameterValue* B = scene.formulation.parameters.Find("B");
  if (!c || !B || c->value.size() != 1 || B->value.size() != scene.nv_a)
    throw std::runtime_error("the scene's formulation block needs c and B (one per robot joint)");
  const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(B->value.data(), B->value.size());
  if (!(c->value(0, 0) > 0) || !(b.array() > 0).all())
    throw std::runtime_error("c and every B must be > 0 for finite feedback gains");
  return (c->value(0, 0) * b).cwiseInverse();
}

class MjcfWriter {
 public:
  explicit MjcfWriter(const quasidyn::Scene& scene) : scene_(scene) {}

  // `gains`: per robot coordinate, kv [N·m·s/rad] (velocity feedback) or kp [N·m/rad].
  std::string Write(const MujocoSettings& settings, ArmDrive drive, const Eigen::VectorXd& gains) {
    xml_ << std::setprecision(17) << "<mujoco model=\"" << scene_.name << "\">\n"
         << "  <option timestep=\"" << settings.time_step << "\" gravity=\""
         << Numbers(scene_.gravity.data(), 3) << "\" integrator=\"Euler\"/>\n"
         << "  <default><geom condim=\"3\" solref=\"" << settings.contact_time_constant
         << " 1\"/></default>\n  <worldbody>\n";
    Children(0, "    ");
    xml_ << "  </worldbody>\n  <actuator>\n";
    for (const quasidyn::Joint& joint : scene_.joints) {
      if (joint.q_start < scene_.nq_u || joint.type == quasidyn::JointType::kFixed) continue;
      const double gain = gains(joint.v_start - scene_.nv_u);
      if (drive == ArmDrive::kVelocityFeedback)
        xml_ << "    <velocity joint=\"" << JointName(joint, 0) << "\" kv=\"" << gain << "\"/>\n";
      else
        xml_ << "    <position joint=\"" << JointName(joint, 0) << "\" kp=\"" << gain << "\"/>\n";
    }
    xml_ << "  </actuator>\n</mujoco>\n";
    return xml_.str();
  }

  // MuJoCo's name for coordinate k of scene joint `joint`.
  static std::string JointName(const quasidyn::Joint& joint, int k) {
    return joint.name + "#" + std::to_string(k);
  }

 private:
  void Children(int parent, const std::string& indent) {
    for (const quasidyn::Joint& joint : scene_.joints)
      if (joint.parent_body == parent) Body(joint, indent);
  }

  void Body(const quasidyn::Joint& joint, const std::string& indent) {
    const quasidyn::Body& body = scene_.bodies[joint.child_body];
    const bool actuated = joint.q_start >= scene_.nq_u;
    xml_ << indent << "<body name=\"" << body.name << "\" " << PoseAttributes(joint.X_PJ) << ">\n";
    const std::string in = indent + "  ";
    switch (joint.type) {
      case quasidyn::JointType::kPlanar:
        xml_ << in << "<joint name=\"" << JointName(joint, 0)
             << "\" type=\"slide\" axis=\"1 0 0\"/>\n"
             << in << "<joint name=\"" << JointName(joint, 1)
             << "\" type=\"slide\" axis=\"0 1 0\"/>\n"
             << in << "<joint name=\"" << JointName(joint, 2)
             << "\" type=\"hinge\" axis=\"0 0 1\"/>\n";
        break;
      case quasidyn::JointType::kRevolute:
      case quasidyn::JointType::kPrismatic:
        xml_ << in << "<joint name=\"" << JointName(joint, 0) << "\" type=\""
             << (joint.type == quasidyn::JointType::kRevolute ? "hinge" : "slide") << "\" axis=\""
             << Numbers(joint.axis.data(), 3) << "\"/>\n";
        break;
      case quasidyn::JointType::kFixed:
        break;
      default:
        throw std::runtime_error("joint " + joint.name + ": only planar scenes' joints");
    }
    // Only I_zz acts in a planar scene (every joint turns about z or slides in x-y); I_xx and
    // I_yy are raised to I_zz/2 where needed for MuJoCo's triangle-inequality check (the arms'
    // (1e-3, 1e-3, 4.2e-2) kg·m² fail it).
    Eigen::Matrix3d I = body.inertia;
    I(0, 0) = std::max(I(0, 0), I(2, 2) / 2);
    I(1, 1) = std::max(I(1, 1), I(2, 2) / 2);
    const double full[6] = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
    xml_ << in << "<inertial pos=\"" << Numbers(body.com.data(), 3) << "\" mass=\"" << body.mass
         << "\" fullinertia=\"" << Numbers(full, 6) << "\"/>\n";
    for (const quasidyn::CollisionGeometry& g : scene_.geometries)
      if (g.body == joint.child_body) Geom(g, actuated, in);
    Children(joint.child_body, in);
    xml_ << indent << "</body>\n";
  }

  // Robot geometry collides with the objects' (contype 1, conaffinity 0), not with itself.
  void Geom(const quasidyn::CollisionGeometry& g, bool robot, const std::string& indent) {
    std::string shape;
    if (g.shape.type == quasidyn::ShapeType::kSphere) {
      shape = "type=\"sphere\" size=\"" + Numbers(&g.shape.radius, 1) + "\"";
    } else if (g.shape.type == quasidyn::ShapeType::kBox) {
      const Eigen::Vector3d half = g.shape.size / 2;
      shape = "type=\"box\" size=\"" + Numbers(half.data(), 3) + "\"";
    } else {
      throw std::runtime_error("shape " + g.name + ": only spheres and boxes here");
    }
    xml_ << indent << "<geom name=\"" << g.name << "\" " << shape << " " << PoseAttributes(g.X_BS)
         << " friction=\"" << g.friction << " 0 0\" contype=\"1\" conaffinity=\"" << (robot ? 0 : 1)
         << "\"/>\n";
  }

  const quasidyn::Scene& scene_;
  std::ostringstream xml_;
};

mjModel* LoadMjcf(const std::string& xml) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "pinch.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0)
    throw std::runtime_error("MuJoCo: cannot make the in-memory model file");
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML(name, vfs.get(), error, sizeof(error));
  mj_deleteVFS(vfs.get());
  if (!m) throw std::runtime_error(std::string("MuJoCo: ") + error);
  return m;
}

// The schedule's command for robot coordinate i (index into q_a) at t [s]: its piecewise-linear
// position q̄(t) [rad], held at the ends, or (`velocity`) its slope u(t) [rad/s], 0 outside.
double Commanded(const quasidyn::Scene& scene, int i, double t, bool velocity) {
  for (const quasidyn::RobotSchedule& s : scene.schedules) {
    const quasidyn::ModelInstance& robot = scene.instances[s.instance];
    const int k = scene.nq_u + i - robot.q_start;
    if (k < 0 || k >= robot.nq) continue;
    for (size_t j = 0; j + 1 < s.times.size(); ++j) {
      if (!(s.times[j] <= t && t < s.times[j + 1])) continue;
      const double slope =
          (s.positions[j + 1][k] - s.positions[j][k]) / (s.times[j + 1] - s.times[j]);
      return velocity ? slope : s.positions[j][k] + slope * (t - s.times[j]);
    }
    if (velocity) return 0.0;
    return t < s.times.front() ? s.positions.front()[k] : s.positions.back()[k];
  }
  return velocity ? 0.0 : scene.q0[scene.nq_u + i];  // unscheduled: held where it starts
}

struct MujocoRun {
  PinchRun run;
  double deepest_penetration = 0.0;  // [m], >= 0
};

MujocoRun RunMujoco(const quasidyn::Scene& scene, const MujocoSettings& settings, ArmDrive drive) {
  const double h = settings.time_step, end = scene.ScheduleEnd();
  const int per_sample = static_cast<int>(std::lround(scene.time_step / h));
  if (!(h > 0) || per_sample < 1 || std::abs(per_sample * h - scene.time_step) > 1e-9 * h)
    throw std::runtime_error("--time-step must divide the scene's time step");
  if (!(settings.contact_time_constant >= 2 * h))
    throw std::runtime_error("--contact-time-constant must be at least twice --time-step");
  const bool feedback = drive == ArmDrive::kVelocityFeedback;
  Eigen::VectorXd stiffness = Eigen::VectorXd::Zero(scene.nv_a);  // K_i [N·m/rad]
  for (const quasidyn::Joint& joint : scene.joints)
    if (joint.q_start >= scene.nq_u && quasidyn::JointNq(joint.type) == 1)
      stiffness(joint.v_start - scene.nv_u) = joint.stiffness;
  mjModel* m = LoadMjcf(
      MjcfWriter(scene).Write(settings, drive, feedback ? VelocityGains(scene) : stiffness));
  mjData* d = mj_makeData(m);
  // Scene coordinate -> MuJoCo qpos/qvel address (every joint here has nq = nv).
  std::vector<int> address(scene.nq);
  for (const quasidyn::Joint& joint : scene.joints)
    for (int k = 0; k < quasidyn::JointNq(joint.type); ++k) {
      const int id = mj_name2id(m, mjOBJ_JOINT, MjcfWriter::JointName(joint, k).c_str());
      address[joint.q_start + k] = m->jnt_qposadr[id];
    }
  for (int i = 0; i < scene.nq; ++i) d->qpos[address[i]] = scene.q0[i];
  if (feedback) {  // the arms start at the commanded velocity, as halm-posa's do
    for (int i = scene.nq_u; i < scene.nq; ++i)
      d->qvel[address[i]] = Commanded(scene, i - scene.nq_u, 0.0, true);
  } else {  // at rest, as stewart-trinkle's; D = 2 sqrt(K M_ii(q0)) (dynamics/second_order_cost.h)
    mj_forward(m, d);
    std::vector<mjtNum> M(m->nv * m->nv);
    mj_fullM(m, M.data(), d->qM);
    for (int i = scene.nq_u; i < scene.nq; ++i) {
      const int v = address[i];  // == its dof address: hinges and slides only
      m->dof_damping[v] = 2 * std::sqrt(stiffness(i - scene.nq_u) * M[v * m->nv + v]);
    }
  }
  auto command = [&](double t) {  // each actuator drives one robot coordinate
    for (int a = 0; a < m->nu; ++a) {
      const int q = m->jnt_qposadr[m->actuator_trnid[2 * a]];
      for (int i = scene.nq_u; i < scene.nq; ++i)
        if (address[i] == q) d->ctrl[a] = Commanded(scene, i - scene.nq_u, t, feedback);
    }
  };
  MujocoRun out{{feedback ? "MuJoCo" : "MuJoCo-impedance",
                 feedback ? "#ff7f0e" : "#9467bd",
                 {0.0},
                 {scene.q0[0]},
                 {scene.q0[1]},
                 {scene.q0[2]},
                 {0},
                 true,
                 ""}};
  const int steps = static_cast<int>(std::lround(end / h));
  for (int k = 1; k <= steps; ++k) {
    command(d->time);
    mj_step(m, d);
    for (int c = 0; c < d->ncon; ++c)
      out.deepest_penetration = std::max(out.deepest_penetration, -d->contact[c].dist);
    if (k % per_sample) continue;
    out.run.t.push_back(k * h);
    out.run.x.push_back(d->qpos[address[0]]);
    out.run.y.push_back(d->qpos[address[1]]);
    out.run.theta.push_back(d->qpos[address[2]]);
    out.run.contacts.push_back(d->ncon);
    if (!std::isfinite(out.run.x.back() + out.run.y.back() + out.run.theta.back()) ||
        d->warning[mjWARN_BADQACC].number > 0 || d->warning[mjWARN_CONTACTFULL].number > 0) {
      out.run.completed = false;
      out.run.message = "MuJoCo diverged or ran out of contacts at t = " + std::to_string(k * h);
      break;
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace quasidyn;
  using namespace quasidyn::examples;
  CLI::App app{
      "pinch_peer_comparison: Halm & Posa 2018, Fig. 5 (four arms pinch a square) under halm-posa, "
      "stewart-trinkle, the QP and MuJoCo (compliant contact, the paper's Drake comparison); a "
      "CSV and two SVGs into OUT_DIR, the final poses on stdout"};
  std::string folder;
  bool quiet = false;
  MujocoSettings settings;
  app.add_option("OUT_DIR", folder, "Output folder (created if needed)")->required();
  app.add_option("--time-step", settings.time_step, "MuJoCo's step h [s], dividing 0.02 s")
      ->capture_default_str();
  app.add_option("--contact-time-constant", settings.contact_time_constant,
                 "MuJoCo's contact solref time constant [s], >= 2 h")
      ->capture_default_str();
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  try {
    if (quiet) tools::SilenceStdout();
    std::filesystem::create_directories(folder);
    const ScenePtr scene = LoadExample("pinch/scene.yaml");
    const MujocoRun mujoco = RunMujoco(*scene, settings, ArmDrive::kVelocityFeedback);
    const MujocoRun impedance = RunMujoco(*scene, settings, ArmDrive::kImpedance);
    const std::vector<PinchRun> runs = {RunPinchFormulation(scene, "halm-posa", "#1f77b4"),
                                        RunPinchFormulation(scene, "stewart-trinkle", "#2ca02c"),
                                        RunPinchFormulation(scene, "qp", "#d62728"), mujoco.run,
                                        impedance.run};
    const bool ok = WritePinchFigure(runs, folder, "pinch_peers", "pinch_peer_comparison");
    std::printf(
        "MuJoCo: h = %g s, contact time constant %g s, deepest penetration %.2e m "
        "(impedance arms: %.2e m)\n",
        settings.time_step, settings.contact_time_constant, mujoco.deepest_penetration,
        impedance.deepest_penetration);
    std::printf(
        "final y [m]: MuJoCo - halm-posa = %+.4f, MuJoCo-impedance - stewart-trinkle = "
        "%+.4f\n",
        runs[3].y.back() - runs[0].y.back(), runs[4].y.back() - runs[1].y.back());
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "pinch_peer_comparison: " << e.what() << "\n";
    return 1;
  }
}
