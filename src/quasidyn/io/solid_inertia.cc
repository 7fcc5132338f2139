#include "quasidyn/io/solid_inertia.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace quasidyn {
namespace {

// Diagonal inertia with `axial` about `axis` and `transverse` about the two others.
Eigen::Matrix3d AxialInertia(double axial, double transverse, int axis) {
  Eigen::Vector3d d = Eigen::Vector3d::Constant(transverse);
  d[axis] = axial;
  return d.asDiagonal();
}

}  // namespace

Eigen::Matrix3d SolidInertia(const Shape& shape, double mass, int capsule_axis) {
  if (!(mass > 0.0)) throw std::invalid_argument("SolidInertia: mass must be > 0");
  if (capsule_axis < 0 || capsule_axis > 2) {
    throw std::invalid_argument("SolidInertia: capsule_axis must be 0, 1 or 2");
  }
  const double r = shape.radius;
  const double l = shape.length;
  switch (shape.type) {
    case ShapeType::kSphere:
      if (!(r > 0.0)) break;
      return AxialInertia(0.4 * mass * r * r, 0.4 * mass * r * r, 2);
    case ShapeType::kBox: {
      const Eigen::Vector3d s2 = shape.size.cwiseProduct(shape.size);
      if (!(shape.size.minCoeff() > 0.0)) break;
      return (mass / 12.0 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()))
          .asDiagonal();
    }
    case ShapeType::kCylinder:
      if (!(r > 0.0 && l > 0.0)) break;
      return AxialInertia(mass * r * r / 2.0, mass * (3.0 * r * r + l * l) / 12.0, 2);
    case ShapeType::kCapsule: {
      if (!(r > 0.0 && l > 0.0)) break;
      const double cylinder_volume = std::numbers::pi * r * r * l;
      const double sphere_volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
      const double m_c = mass * cylinder_volume / (cylinder_volume + sphere_volume);
      const double m_s = mass - m_c;
      const double axial = m_c * r * r / 2.0 + 0.4 * m_s * r * r;
      const double transverse = m_c * (3.0 * r * r + l * l) / 12.0 +
                                m_s * (0.4 * r * r + l * l / 4.0 + 3.0 * l * r / 8.0);
      return AxialInertia(axial, transverse, capsule_axis);
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kConvex:
      throw std::invalid_argument(std::string("no solid inertia for a ") +
                                  ShapeTypeName(shape.type) + " shape");
  }
  throw std::invalid_argument(std::string("SolidInertia: the ") + ShapeTypeName(shape.type) +
                              " has a non-positive dimension");
}

}  // namespace quasidyn
