#include "quasidyn/io/plane_frame.h"

#include <cmath>
#include <stdexcept>

namespace quasidyn {

Eigen::Isometry3d PlaneFrame(const Eigen::Vector3d& normal, const Eigen::Vector3d& origin) {
  const double largest = normal.cwiseAbs().maxCoeff();
  if (!normal.allFinite() || !origin.allFinite() || !(largest > 0.0))
    throw std::invalid_argument("PlaneFrame: the normal must be finite and non-zero");
  const Eigen::Vector3d z = (normal / largest).normalized();
  const Eigen::Vector3d seed =
      std::abs(z.x()) > 0.99 ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitX();
  const Eigen::Vector3d x = (seed - seed.dot(z) * z).normalized();
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear().col(0) = x;
  X.linear().col(1) = z.cross(x);
  X.linear().col(2) = z;
  X.translation() = origin;
  return X;
}

Eigen::Isometry3d ReadPlane(const YamlValue& value) {
  value.CheckKeys({"normal", "origin"});
  Eigen::Vector3d normal = kDefaultPlaneNormal;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  if (const auto n = value.Find("normal")) {
    normal = n->AsVector3();
    if (normal.cwiseAbs().maxCoeff() == 0.0) n->Fail("must be non-zero");
  }
  if (const auto o = value.Find("origin")) origin = o->AsVector3();
  return PlaneFrame(normal, origin);
}

}  // namespace quasidyn
