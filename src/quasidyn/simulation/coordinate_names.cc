#include "quasidyn/simulation/coordinate_names.h"

#include <stdexcept>

namespace quasidyn {
namespace {

std::vector<std::string> Suffixes(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return {};
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return {""};
    case JointType::kPlanar:
      return {"/x", "/y", "/theta"};
    case JointType::kFloating:
      return {"/x", "/y", "/z", "/qw", "/qx", "/qy", "/qz"};
  }
  return {};
}

std::vector<std::string> VelocitySuffixes(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return {};
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return {"/v"};
    case JointType::kPlanar:
      return {"/vx", "/vy", "/omega"};
    case JointType::kFloating:
      return {"/vx", "/vy", "/vz", "/wx", "/wy", "/wz"};
  }
  return {};
}

// The names of q (velocities = false) or v (true), checking that the joints tile it.
std::vector<std::string> Names(const Scene& scene, bool velocities) {
  const int n = velocities ? scene.nv : scene.nq;
  const char* symbol = velocities ? "v" : "q";
  std::vector<std::string> names(n);
  std::vector<bool> named(n, false);
  for (const Joint& joint : scene.joints) {
    const std::vector<std::string> suffixes =
        velocities ? VelocitySuffixes(joint.type) : Suffixes(joint.type);
    const int start = velocities ? joint.v_start : joint.q_start;
    for (size_t i = 0; i < suffixes.size(); ++i) {
      const int index = start + static_cast<int>(i);
      if (index < 0 || index >= n || named[index])
        throw std::invalid_argument("joint '" + joint.name + "': " + symbol + " index " +
                                    std::to_string(index) + " is outside [0, n_" + symbol + " = " +
                                    std::to_string(n) + ") or owned twice");
      names[index] = joint.name + suffixes[i];
      named[index] = true;
    }
  }
  for (int i = 0; i < n; ++i)
    if (!named[i])
      throw std::invalid_argument(std::string(symbol) + " index " + std::to_string(i) +
                                  " belongs to no joint");
  return names;
}

}  // namespace

std::vector<std::string> CoordinateNames(const Scene& scene) { return Names(scene, false); }

std::vector<std::string> VelocityNames(const Scene& scene) { return Names(scene, true); }

std::vector<std::string> ImpulseNames(const Scene& scene) {
  std::vector<std::string> names(scene.nv_u);
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kFloating || joint.v_start + 6 > scene.nv_u) continue;
    const char* const suffix[] = {"/px", "/py", "/pz", "/mx", "/my", "/mz"};
    for (int i = 0; i < 6; ++i) names[joint.v_start + i] = joint.name + suffix[i];
  }
  return names;
}

}  // namespace quasidyn
