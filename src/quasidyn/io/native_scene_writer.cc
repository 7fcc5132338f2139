#include "quasidyn/io/native_scene_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace quasidyn {
namespace {

// `path` relative to `folder` when it can be, else as given (absolute).
std::string RelativeTo(const std::string& path, const std::string& folder) {
  std::error_code error;
  const std::filesystem::path base =
      std::filesystem::weakly_canonical(folder.empty() ? "." : folder, error);
  const std::filesystem::path target = std::filesystem::weakly_canonical(path, error);
  if (error) return path;
  const std::filesystem::path relative = target.lexically_relative(base);
  return relative.empty() ? target.string() : relative.string();
}

// A YAML double-quoted string (names and paths may hold ':' or '#').
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

template <typename Vector>
std::string List(const Vector& values) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(values.size()); ++i) {
    if (i > 0) out.append(", ");
    out.append(RoundTripNumber(values[i]));
  }
  out.append("]");
  return out;
}

std::string Pose(const XyzRpy& pose) {
  std::string out = "{xyz: ";
  out.append(List(pose.xyz)).append(", rpy: ").append(List(pose.rpy)).append("}");
  return out;
}

// The model-file key of `file`: sdf or urdf.
std::string FileKey(const std::string& file) {
  const std::string extension = std::filesystem::path(file).extension().string();
  return extension == ".urdf" || extension == ".URDF" ? "urdf" : "sdf";
}

void WriteModel(const QsimModel& model, const std::string& folder, std::ostringstream& out) {
  out << "  - name: " << Quoted(model.name) << "\n";
  if (model.role == QsimModel::Role::kObject && !model.own_world_joints)
    out << "    joint: floating\n";
  if (model.role == QsimModel::Role::kFixed) out << "    joint: fixed\n";
  out << "    " << FileKey(model.file) << ": " << Quoted(RelativeTo(model.file, folder)) << "\n";
  out << "    friction: " << RoundTripNumber(kDrakeDefaultFriction)
      << "  # for collisions without <surface><friction><ode><mu> (Drake's default)\n";
  if (model.role == QsimModel::Role::kFixed) out << "    pose: " << Pose(model.pose) << "\n";
  if (model.role == QsimModel::Role::kRobot) {
    if (!model.base_parent.empty()) out << "    base_parent: " << Quoted(model.base_parent) << "\n";
    out << "    base_pose: " << Pose(model.pose) << "\n";
    out << "    stiffness: " << List(model.stiffness) << "\n";
  }
  if (model.role != QsimModel::Role::kFixed) out << "    initial: " << List(model.initial) << "\n";
}

}  // namespace

std::string RoundTripNumber(double x) {
  char text[40];
  // Whole numbers as integers (100, not 1e+02) while they are exact.
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::snprintf(text, sizeof(text), "%.0f", x);
    return text;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  return text;
}

std::string NativeSceneYaml(const QsimScene& qsim, const std::string& output_directory,
                            const std::map<std::string, std::string>& package_folders) {
  std::ostringstream out;
  out << "# Converted by `quasidyn convert` from " << RelativeTo(qsim.file, output_directory)
      << "\n# (the reference quasistatic simulator's file; docs/qsim-files.md gives the "
         "mapping).\n";
  out << "name: " << Quoted(qsim.name) << "\n";
  out << "dimension: 3\n";
  out << "gravity: " << List(qsim.gravity) << "\n";
  out << "time_step: " << RoundTripNumber(qsim.time_step) << "\n";
  out << "contact_tolerance: " << RoundTripNumber(qsim.contact_tolerance) << "\n";
  out << "friction_rays: " << qsim.friction_rays << "\n";
  out << "friction_combination: harmonic\n";
  out << "conventions:  # the reference simulator's (docs/qsim-files.md, \"Parity mode\")"
      << (qsim.conventions == QsimConventions() ? "" : ", with a side file's keys in place")
      << "\n";
  out << "  friction_ray_basis: " << FrictionRayBasisName(qsim.conventions.friction_ray_basis)
      << "\n";
  out << "  quaternion_update: " << QuaternionUpdateName(qsim.conventions.quaternion_update)
      << "\n";
  out << "  joint_limits: " << JointLimitRuleName(qsim.conventions.joint_limits) << "\n";
  out << "formulation:\n  type: qp\n";
  if (qsim.object_mass_scale)
    out << "  object_mass_scale: " << RoundTripNumber(*qsim.object_mass_scale) << "\n";
  if (qsim.unactuated_mass_scale)
    out << "  unactuated_mass_scale: " << RoundTripNumber(*qsim.unactuated_mass_scale) << "\n";
  if (!package_folders.empty()) {
    out << "packages:\n";
    for (const auto& [name, folder] : package_folders)
      out << "  " << Quoted(name) << ": " << Quoted(RelativeTo(folder, output_directory)) << "\n";
  }
  bool objects = false, robots = false;
  for (const QsimModel& model : qsim.models) {
    if (model.role == QsimModel::Role::kRobot) continue;
    if (!objects) out << "objects:\n";
    objects = true;
    WriteModel(model, output_directory, out);
  }
  for (const QsimModel& model : qsim.models) {
    if (model.role != QsimModel::Role::kRobot) continue;
    if (!robots) out << "robots:\n";
    robots = true;
    WriteModel(model, output_directory, out);
  }
  return out.str();
}

}  // namespace quasidyn
