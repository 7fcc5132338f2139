#include "demo_command.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "embedded_files.h"
#include "formulation_options.h"
#include "log.h"
#include "output_paths.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"
#include "quasidyn/viewer/svg_plot.h"
#include "timed_rollout.h"

namespace quasidyn::cli {
namespace {

constexpr const char* kEmbeddedSceneFile = "scene.yaml";
// The scene's story: this object is carried and placed on top of that one.
constexpr const char* kCarriedObject = "red_cube";
constexpr const char* kStackTopObject = "stack_top";

struct DemoOptions {
  std::string out_dir = "quasidyn-demo";
  std::string formulation;
  CLI::Option* formulation_option = nullptr;
};

// The embedded scene, its URDFs staged by LoadSceneFromMemory.
Scene LoadEmbeddedScene() {
#ifndef QUASIDYN_EMBEDDED_FILES  // set by quasidyn_embed_files() (EmbedFiles.cmake)
  throw std::runtime_error(
      "demo: this build has no built-in scene (the top CMakeLists.txt does not call "
      "quasidyn_embed_files for the quasidyn program)");
#else
  std::optional<std::string> yaml;
  std::map<std::string, std::string> files;
  for (const EmbeddedFile& file : EmbeddedFiles()) {
    if (file.path == kEmbeddedSceneFile) {
      yaml = std::string(file.contents);
    } else {
      files.emplace(std::string(file.path), std::string(file.contents));
    }
  }
  if (!yaml) throw std::logic_error("demo: no scene.yaml among the embedded files");
  return LoadSceneFromMemory(*yaml, "embedded:arm_cubes/scene.yaml", files);
#endif
}

// The body of a one-body object with a floating joint (the cubes).
struct ObjectBody {
  int body = -1;
  const Joint* joint = nullptr;
};

ObjectBody FindFloatingObject(const Scene& scene, const std::string& name) {
  const int instance = scene.InstanceIndex(name);
  if (instance < 0) throw std::runtime_error("demo: the scene has no object '" + name + "'");
  const ModelInstance& model = scene.instances[instance];
  if (model.actuated || model.bodies.size() != 1) {
    throw std::runtime_error("demo: '" + name + "' must be a one-body object");
  }
  ObjectBody object;
  object.body = model.bodies[0];
  object.joint = &scene.joints[scene.bodies[object.body].parent_joint];
  if (object.joint->type != JointType::kFloating || object.joint->parent_body != 0) {
    throw std::runtime_error("demo: '" + name + "' must have a floating joint to the world");
  }
  return object;
}

// X_WB = X_WJ · X_JB(q), the floating joint's q = (p, w, x, y, z) (model/scene.h).
Eigen::Isometry3d BodyPose(const ObjectBody& object, const Eigen::VectorXd& q) {
  const int i = object.joint->q_start;
  Eigen::Isometry3d X_JB = Eigen::Isometry3d::Identity();
  X_JB.translation() = q.segment<3>(i);
  X_JB.linear() =
      Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized().toRotationMatrix();
  return object.joint->X_PJ * X_JB;
}

// [lowest, highest] world z [m] of the body's shapes at pose X_WB (boxes: their 8 corners;
// spheres: centre ± radius).
std::pair<double, double> VerticalExtent(const Scene& scene, int body,
                                         const Eigen::Isometry3d& X_WB) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const CollisionGeometry& geometry : scene.geometries) {
    if (geometry.body != body) continue;
    const Eigen::Isometry3d X_WS = X_WB * geometry.X_BS;
    if (geometry.shape.type == ShapeType::kBox) {
      for (int corner = 0; corner < 8; ++corner) {
        const Eigen::Vector3d sign((corner & 1) ? 1 : -1, (corner & 2) ? 1 : -1,
                                   (corner & 4) ? 1 : -1);
        const double z = (X_WS * (0.5 * sign.cwiseProduct(geometry.shape.size))).z();
        low = std::min(low, z);
        high = std::max(high, z);
      }
    } else if (geometry.shape.type == ShapeType::kSphere) {
      low = std::min(low, X_WS.translation().z() - geometry.shape.radius);
      high = std::max(high, X_WS.translation().z() + geometry.shape.radius);
    } else {
      throw std::runtime_error("demo: the target needs box or sphere shapes on '" +
                               scene.bodies[body].name + "', not " +
                               ShapeTypeName(geometry.shape.type));
    }
  }
  if (!(low <= high)) {
    throw std::runtime_error("demo: '" + scene.bodies[body].name + "' has no shape");
  }
  return {low, high};
}

// The carried cube's target pose: resting on top of the stack's top cube as the scene places
// it (q0), centred on it and aligned with it. Read from the scene, so a changed scene file
// (another stack height, another schedule) keeps a meaningful target.
Eigen::Isometry3d TargetPose(const Scene& scene, const ObjectBody& carried,
                             const ObjectBody& stack_top) {
  const Eigen::Isometry3d X_W_top = BodyPose(stack_top, scene.q0);
  const double top_surface = VerticalExtent(scene, stack_top.body, X_W_top).second;
  // The carried body in the stack top's orientation at the origin: how far its origin lies
  // above its lowest point.
  Eigen::Isometry3d aligned = Eigen::Isometry3d::Identity();
  aligned.linear() = X_W_top.linear();
  const double origin_above_bottom = -VerticalExtent(scene, carried.body, aligned).first;
  Eigen::Isometry3d target = aligned;
  target.translation() = X_W_top.translation();
  target.translation().z() = top_surface + origin_above_bottom;
  return target;
}

// True when the body is one box with three equal sides: a cube, whose 24 rotational
// symmetries leave it unchanged.
bool IsSingleCube(const Scene& scene, int body) {
  int shapes = 0;
  bool cube = false;
  for (const CollisionGeometry& geometry : scene.geometries) {
    if (geometry.body != body) continue;
    ++shapes;
    const Eigen::Vector3d& s = geometry.shape.size;
    cube = geometry.shape.type == ShapeType::kBox && s.x() == s.y() && s.y() == s.z() &&
           geometry.X_BS.isApprox(Eigen::Isometry3d::Identity());
  }
  return shapes == 1 && cube;
}

// The rotation angle [rad] from R_target to R (angle of R_targetᵀ R, in [0, π]); for a cube
// the smallest over its 24 symmetries S (signed permutation matrices with det +1), since
// R·S looks the same as R.
double OrientationError(const Eigen::Matrix3d& R, const Eigen::Matrix3d& R_target, bool cube) {
  const Eigen::Matrix3d relative = R_target.transpose() * R;
  double best = Eigen::AngleAxisd(relative).angle();
  if (!cube) return best;
  const int permutations[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& p : permutations) {
    for (int signs = 0; signs < 8; ++signs) {
      Eigen::Matrix3d S = Eigen::Matrix3d::Zero();
      for (int row = 0; row < 3; ++row) S(row, p[row]) = (signs >> row) & 1 ? -1.0 : 1.0;
      if (S.determinant() < 0) continue;
      best = std::min(best, Eigen::AngleAxisd(relative * S).angle());
    }
  }
  return best;
}

std::vector<double> StepTimes(const Trajectory& trajectory) {
  std::vector<double> t;
  for (const TrajectoryStep& step : trajectory.steps) t.push_back(step.t);
  return t;
}

// The plots of the run, written as SVG files into `dir`; returns their file names.
std::vector<std::string> WritePlots(const Trajectory& trajectory, const ObjectBody& carried,
                                    const Eigen::Isometry3d& target, const std::string& dir) {
  std::vector<double> t = {0.0};
  std::vector<double> x = {trajectory.q0[carried.joint->q_start]};
  std::vector<double> y = {trajectory.q0[carried.joint->q_start + 1]};
  std::vector<double> z = {trajectory.q0[carried.joint->q_start + 2]};
  for (const TrajectoryStep& step : trajectory.steps) {
    t.push_back(step.t);
    x.push_back(step.q[carried.joint->q_start]);
    y.push_back(step.q[carried.joint->q_start + 1]);
    z.push_back(step.q[carried.joint->q_start + 2]);
  }
  const std::vector<double> ends = {0.0, t.back() > 0 ? t.back() : trajectory.time_step};
  const Eigen::Vector3d p = target.translation();
  LinePlot position{std::string(kCarriedObject) + " position (dashed: target on the stack)",
                    "t [s]",
                    "position [m]",
                    {{"x", t, x, "#1f77b4", false},
                     {"y", t, y, "#ff7f0e", false},
                     {"z", t, z, "#2ca02c", false},
                     {"", ends, {p.x(), p.x()}, "#1f77b4", true},
                     {"", ends, {p.y(), p.y()}, "#ff7f0e", true},
                     {"", ends, {p.z(), p.z()}, "#2ca02c", true}}};

  const std::vector<double> step_t = StepTimes(trajectory);
  std::vector<double> contacts, force, iterations, solve_ms;
  for (const TrajectoryStep& step : trajectory.steps) {
    contacts.push_back(static_cast<double>(step.contacts.size()));
    double total = 0.0;
    for (const ContactRecord& contact : step.contacts) total += contact.normal_force;
    force.push_back(total);
    iterations.push_back(step.solver.iterations);
    solve_ms.push_back(1e3 * step.solver.solve_time_seconds);
  }
  std::vector<std::pair<std::string, LinePlot>> plots = {
      {std::string(kCarriedObject) + "_position.svg", position}};
  if (!step_t.empty()) {
    plots.push_back({"contacts.svg",
                     {"Contacts within the tolerance per step",
                      "t [s]",
                      "contacts [-]",
                      {{"contacts", step_t, contacts, "", false}}}});
    plots.push_back({"normal_force.svg",
                     {"Total normal force per step (sum of c_n)",
                      "t [s]",
                      "force [N]",
                      {{"sum c_n", step_t, force, "", false}}}});
    plots.push_back({"solver_iterations.svg",
                     {"Solver iterations per step",
                      "t [s]",
                      "iterations [-]",
                      {{trajectory.formulation, step_t, iterations, "", false}}}});
    plots.push_back({"solve_time.svg",
                     {"Solve time per step",
                      "t [s]",
                      "solve time [ms]",
                      {{trajectory.formulation, step_t, solve_ms, "", false}}}});
  }
  std::vector<std::string> names;
  for (const auto& [name, plot] : plots) {
    WriteLinePlotSvg(plot, (std::filesystem::path(dir) / name).string());
    names.push_back(name);
  }
  return names;
}

void PrintSummary(const Trajectory& trajectory, double wall_seconds, const Eigen::Isometry3d& X_WC,
                  const Eigen::Isometry3d& target, bool cube, std::ostream& out) {
  const int done = static_cast<int>(trajectory.steps.size());
  size_t max_contacts = 0, total_contacts = 0;
  std::map<std::string, int> statuses;
  for (const TrajectoryStep& step : trajectory.steps) {
    max_contacts = std::max(max_contacts, step.contacts.size());
    total_contacts += step.contacts.size();
    ++statuses[std::string(ToString(step.status))];
  }
  if (!trajectory.completed()) ++statuses[std::string(ToString(trajectory.status))];
  out << "scene            " << trajectory.scene_name << " (built in; formulation "
      << trajectory.formulation << ", h = " << trajectory.time_step << " s)\n";
  out << "steps            " << done << " of " << trajectory.steps_requested << "\n";
  out << "simulated time   " << done * trajectory.time_step << " s\n";
  out << "wall time        " << std::setprecision(3) << wall_seconds << " s";
  if (done > 0) out << " (" << 1e3 * wall_seconds / done << " ms per step)";
  out << std::setprecision(6) << "\n";
  out << "contacts         max " << max_contacts << ", mean " << std::fixed << std::setprecision(1)
      << (done > 0 ? static_cast<double>(total_contacts) / done : 0.0) << std::defaultfloat
      << std::setprecision(6) << " per step\n";
  out << "solver status   ";
  for (const auto& [status, count] : statuses) out << " " << status << " " << count;
  out << "\n";
  const Eigen::Vector3d p = target.translation();
  const Eigen::Vector3d error = X_WC.translation() - p;
  out << std::fixed << std::setprecision(4);
  out << "target           " << kCarriedObject << " on top of " << kStackTopObject << " at ("
      << p.x() << ", " << p.y() << ", " << p.z() << ") m\n";
  out << std::setprecision(1);
  out << "final error      position " << 1e3 * error.norm() << " mm (dx " << 1e3 * error.x()
      << ", dy " << 1e3 * error.y() << ", dz " << 1e3 * error.z() << " mm), orientation "
      << OrientationError(X_WC.linear(), target.linear(), cube) * 180.0 / M_PI << " deg"
      << (cube ? " (up to the cube's symmetry)" : "") << "\n";
  out << std::defaultfloat << std::setprecision(6);
  out << "final status     " << (trajectory.completed() ? "" : "stopped: ")
      << ToString(trajectory.status) << "\n";
}

void RunDemo(const DemoOptions& options) {
  const ScenePtr scene_ptr = std::make_shared<const Scene>(LoadEmbeddedScene());
  const Scene& scene = *scene_ptr;
  FormulationChoice choice;
  if (options.formulation_option->count() > 0) choice.name = options.formulation;
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene_ptr, choice);
  const ObjectBody carried = FindFloatingObject(scene, kCarriedObject);
  const ObjectBody stack_top = FindFloatingObject(scene, kStackTopObject);
  const Eigen::Isometry3d target = TargetPose(scene, carried, stack_top);
  const int steps = StepCountForDuration(scene.ScheduleEnd(), model->time_step());

  CheckOutputFolder({"--out", options.out_dir});
  std::filesystem::create_directories(options.out_dir);
  const TimedRollout run = RunRolloutWithProgress(*model, steps, "demo " + scene.name);
  const Trajectory& trajectory = run.trajectory;
  const double wall_seconds = run.wall_seconds;

  // Written before reporting a failure: the steps done are worth keeping.
  const std::filesystem::path dir(options.out_dir);
  const std::string json_path = (dir / "arm_cubes.json").string();
  const std::string html_path = (dir / "arm_cubes.html").string();
  WriteTrajectory(trajectory, json_path);
  WriteViewerHtml(scene, trajectory, html_path);
  const std::vector<std::string> plots = WritePlots(trajectory, carried, target, options.out_dir);

  const Eigen::Isometry3d X_WC = BodyPose(carried, trajectory.FinalConfiguration());
  PrintSummary(trajectory, wall_seconds, X_WC, target, IsSingleCube(scene, carried.body),
               std::cout);
  std::cout << "trajectory       " << json_path << "\n";
  std::cout << "viewer           " << html_path << "  <- open this in a browser\n";
  std::cout << "plots           ";
  for (const std::string& name : plots) std::cout << " " << (dir / name).string();
  std::cout << "\n" << std::flush;
  if (!trajectory.completed()) {
    std::cerr << "quasidyn: demo: " << scene.name << ": " << trajectory.message << "\n";
    throw CLI::RuntimeError(kStepFailedExitCode);
  }
}

}  // namespace

void AddDemoCommand(CLI::App& app) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* demo = app.add_subcommand(
      "demo",
      "Run the built-in scene (the arm places a cube on a stack) and write its trajectory, "
      "viewer page and plots; needs no files");
  demo->add_option("--out", options->out_dir, "Output folder (created if missing)")
      ->capture_default_str();
  options->formulation_option =
      demo->add_option("--formulation", options->formulation,
                       FormulationNamesText() +
                           " (default: the scene's qp; those that can step "
                           "the arm and its cubes)");
  AddQuietFlag(demo);
  demo->callback([options] { RunDemo(*options); });
}

}  // namespace quasidyn::cli
