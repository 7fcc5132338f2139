#include "quasidyn/formulations/ecp/posed_quadric.h"

#include "quasidyn/math/rotation.h"

namespace quasidyn {

Eigen::Matrix3d PosedQuadric::GradientRotationDerivative() const {
  if (flat) return -Skew(gradient);
  return -Skew(gradient) + hessian * Skew(lever);
}

PosedQuadric EvaluatePosedQuadric(const Quadric& quadric, const Eigen::Vector3d& c,
                                  const Eigen::Matrix3d& R, const Eigen::Vector3d& x) {
  PosedQuadric out;
  out.lever = x - c;
  const Eigen::Vector3d xi = R.transpose() * out.lever;
  out.flat = quadric.flat();
  if (out.flat) {
    out.value = quadric.b.dot(xi) + quadric.c;
    out.gradient = R * quadric.b;
    return out;  // hessian stays zero
  }
  out.value = quadric.Value(xi);
  out.gradient = R * quadric.Gradient(xi);
  out.hessian = R * quadric.A * R.transpose();
  return out;
}

}  // namespace quasidyn
