#pragma once
// Reads the reference quasistatic simulator's files (Pang & Tedrake; github pangtao22/
// quasistatic_simulator): a system file (`model_directive:`, `robots:`, `objects:`,
// `quasistatic_sim_params:`, models/q_sys/*.yml there) or a Drake model-directive file alone
// (`directives:`, io/model_directives.h), into the scene they describe: every model loaded
// (io/sdf_loader.h, io/urdf_loader.h) and given its role, pose, stiffness and initial q, and
// the simulator's parameters mapped to the scene's. docs/qsim-files.md gives every key's
// mapping and its source. qsim_scene.h builds the Scene from it; native_scene_writer.h writes
// the equivalent scene file (`quasidyn convert`). Every error names the file and the line.

#include <Eigen/Core>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/io/model_directives.h"
#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

// The time step h [s] of a file that gives none (the simulator takes it at run time: its
// examples use 0.1 s, e.g. qsim/examples/allegro_hand/run_allegro_hand.py); --h overrides it.
inline constexpr double kQsimDefaultTimeStep = 0.1;
// μ [-] of a collision without <surface><friction><ode><mu>: Drake's default_friction()
// (drake/multibody/parsing/detail_common.h), static and dynamic 1.
inline constexpr double kDrakeDefaultFriction = 1.0;
// K [N·m/rad or N/m] of the robots of a directive file read alone (no system file, no Kp).
inline constexpr double kDirectiveFileStiffness = 100.0;

struct QsimModel {
  enum class Role { kRobot, kObject, kFixed };
  Role role = Role::kFixed;
  std::string name;
  std::string file;      // the SDF or URDF, resolved
  SourceLocation where;  // the key naming the file
  XyzRpy pose;           // robots: base_pose; fixed models: pose; objects: unused
  // Robots welded to another robot's link (a gripper on an arm): that link's scene body name,
  // the frame `pose` is in; empty: the world.
  std::string base_parent;
  // Objects whose file joins them to the world itself (SDF ghost links): no `joint:` key.
  bool own_world_joints = false;
  std::vector<double> stiffness;  // robots: Kp, one per joint
  SourceLocation stiffness_where;
  Eigen::VectorXd initial;  // q of the model in quasidyn's order (zeros within the limits)
  InstanceSpec spec;        // the loaded model, ready for the SceneBuilder
};

struct QsimScene {
  std::string name;                                   // the file's stem
  std::string file;                                   // the system or directive file
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();  // [m/s²]
  double time_step = kQsimDefaultTimeStep;            // h [s]
  double contact_tolerance = 0.01;                    // ε [m]
  int friction_rays = 4;                              // n_d (2: qsim's rays ±x̂ × n)
  // qsim's ray basis, quaternion update and joint limits (model/simulator_conventions.h).
  SimulatorConventions conventions = QsimConventions();
  // The objects' mass term (formulations/quasi_dynamic/object_mass_scale.h): s itself, or the
  // reference rule's divisor c_u; neither: s = 1.
  std::optional<double> object_mass_scale;
  std::optional<double> unactuated_mass_scale;
  SourceLocation mass_scale_where;
  std::vector<QsimModel> models;  // objects (free ones by name), fixed models, then robots
  std::vector<std::string> warnings;
};

// True when `root` is a system file (`model_directive:`) or a directive file (`directives:`).
bool IsQsimFile(const YamlValue& root);

// Reads `root` (IsQsimFile) and loads every model it names; relative file names resolve
// against `base_directory` (the file's folder), `packages` resolve package:// names (the
// command line's --package, then ROS_PACKAGE_PATH and package.xml files above the file).
QsimScene ReadQsimFile(const YamlValue& root, const std::string& base_directory,
                       const PackageSearch& packages);

// Reads the file at `path`; `package_folders` (NAME: folder) are the command line's --package.
// A file that is neither kind fails at its first line.
QsimScene ReadQsimSceneFile(const std::string& path,
                            const std::map<std::string, std::string>& package_folders = {});

}  // namespace quasidyn
