#include "quasidyn/contact/friction_cone.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

double CombineFriction(FrictionCombination rule, double mu_a, double mu_b) {
  if (!(mu_a >= 0.0) || !(mu_b >= 0.0) || !std::isfinite(mu_a) || !std::isfinite(mu_b))
    throw std::invalid_argument("CombineFriction: coefficients must be finite and >= 0 (got " +
                                std::to_string(mu_a) + ", " + std::to_string(mu_b) + ")");
  switch (rule) {
    case FrictionCombination::kMin:
      return std::min(mu_a, mu_b);
    case FrictionCombination::kGeometricMean:
      return std::sqrt(mu_a * mu_b);
    case FrictionCombination::kHarmonic:
      return mu_a + mu_b > 0.0 ? 2.0 * mu_a * mu_b / (mu_a + mu_b) : 0.0;
  }
  return 0.0;
}

void TangentBasis(const Eigen::Vector3d& n, bool planar, Eigen::Vector3d* t1, Eigen::Vector3d* t2) {
  if (planar) {
    *t1 = Eigen::Vector3d(-n.y(), n.x(), 0.0).normalized();  // ẑ × n
    *t2 = Eigen::Vector3d::UnitZ();
    return;
  }
  // Duff et al. 2017, Listing 3, with the branch at n_z = −1/2 (header).
  const double sign = n.z() >= -0.5 ? 1.0 : -1.0;
  const double a = -1.0 / (sign + n.z());
  const double b = n.x() * n.y() * a;
  *t1 = Eigen::Vector3d(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
  *t2 = Eigen::Vector3d(b, sign + n.y() * n.y() * a, -n.y());
}

int QsimReferenceAxis(const Eigen::Vector3d& n, int num_rays) {
  if (num_rays == 2 && 1.0 - n.x() * n.x() > 0.0) return 0;  // a = x̂: rays ±x̂ × n
  int i = 0;
  n.cwiseAbs().minCoeff(&i);  // Eigen keeps the first of equal coefficients
  return i;
}

void QsimTangentBasis(const Eigen::Vector3d& n, int axis, Eigen::Vector3d* t1,
                      Eigen::Vector3d* t2) {
  const int i = axis, j = (i + 1) % 3, k = (i + 2) % 3;
  const double m = std::sqrt(1.0 - n[i] * n[i]);
  const double r = 1.0 / m;
  const double s = -r * n[i];
  (*t1)[i] = 0.0;
  (*t1)[j] = -r * n[k];
  (*t1)[k] = r * n[j];
  (*t2)[i] = m;
  (*t2)[j] = s * n[j];
  (*t2)[k] = s * n[k];
}

void ContactTangentBasis(const Scene& scene, const Eigen::Vector3d& n, Eigen::Vector3d* t1,
                         Eigen::Vector3d* t2) {
  if (!scene.planar && scene.conventions.friction_ray_basis == FrictionRayBasis::kQsim) {
    QsimTangentBasis(n, QsimReferenceAxis(n, scene.friction_rays), t1, t2);
    return;
  }
  TangentBasis(n, scene.planar, t1, t2);
}

Eigen::Matrix3Xd FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays,
                              bool planar) {
  Eigen::Matrix3Xd rays;
  FrictionRays(t1, t2, num_rays, planar, &rays);
  return rays;
}

void FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays, bool planar,
                  Eigen::Matrix3Xd* rays) {
  if (planar || num_rays == 2) {
    rays->resize(3, 2);
    rays->col(0) = t1;
    rays->col(1) = -t1;
    return;
  }
  QUASIDYN_CHECK_ARGUMENT(
      num_rays >= 2, "FrictionRays",
      "a 3D friction pyramid needs n_d >= 2 rays (got " + std::to_string(num_rays) + ")");
  rays->resize(3, num_rays);
  for (int j = 0; j < num_rays; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / num_rays;
    rays->col(j) = std::cos(angle) * t1 + std::sin(angle) * t2;
  }
}

}  // namespace quasidyn
