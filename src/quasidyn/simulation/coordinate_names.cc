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

}  // namespace

std::vector<std::string> CoordinateNames(const Scene& scene) {
  std::vector<std::string> names(scene.nq);
  std::vector<bool> named(scene.nq, false);
  for (const Joint& joint : scene.joints) {
    const std::vector<std::string> suffixes = Suffixes(joint.type);
    for (size_t i = 0; i < suffixes.size(); ++i) {
      const int index = joint.q_start + static_cast<int>(i);
      if (index < 0 || index >= scene.nq || named[index])
        throw std::invalid_argument("joint '" + joint.name + "': q index " + std::to_string(index) +
                                    " is outside [0, n_q = " + std::to_string(scene.nq) +
                                    ") or owned twice");
      names[index] = joint.name + suffixes[i];
      named[index] = true;
    }
  }
  for (int i = 0; i < scene.nq; ++i)
    if (!named[i])
      throw std::invalid_argument("q index " + std::to_string(i) + " belongs to no joint");
  return names;
}

}  // namespace quasidyn
