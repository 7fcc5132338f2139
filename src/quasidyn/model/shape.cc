#include "quasidyn/model/shape.h"

namespace quasidyn {

const char* ShapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::kSphere:
      return "sphere";
    case ShapeType::kBox:
      return "box";
    case ShapeType::kCylinder:
      return "cylinder";
    case ShapeType::kCapsule:
      return "capsule";
    case ShapeType::kHalfSpace:
      return "half_space";
    case ShapeType::kConvex:
      return "convex";
  }
  return "unknown";
}

}  // namespace quasidyn
