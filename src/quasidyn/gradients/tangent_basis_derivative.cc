#include "quasidyn/gradients/tangent_basis_derivative.h"

#include <cmath>

#include "quasidyn/contact/friction_cone.h"

namespace quasidyn {

void TangentBasisDerivative(const Eigen::Vector3d& n, const Eigen::Vector3d& dn, bool planar,
                            Eigen::Vector3d* dt1, Eigen::Vector3d* dt2) {
  if (planar) {
    const Eigen::Vector3d w(-n.y(), n.x(), 0.0), dw(-dn.y(), dn.x(), 0.0);
    const double length = w.norm();
    const Eigen::Vector3d t1 = w / length;
    *dt1 = (dw - t1 * t1.dot(dw)) / length;
    dt2->setZero();
    return;
  }
  const double sign = n.z() >= -0.5 ? 1.0 : -1.0;  // TangentBasis's branch
  const double a = -1.0 / (sign + n.z());
  const double da = a * a * dn.z();
  const double db = (dn.x() * n.y() + n.x() * dn.y()) * a + n.x() * n.y() * da;
  *dt1 = Eigen::Vector3d(sign * (2.0 * n.x() * dn.x() * a + n.x() * n.x() * da), sign * db,
                         -sign * dn.x());
  *dt2 = Eigen::Vector3d(db, 2.0 * n.y() * dn.y() * a + n.y() * n.y() * da, -dn.y());
}

void QsimTangentBasisDerivative(const Eigen::Vector3d& n, const Eigen::Vector3d& dn, int axis,
                                Eigen::Vector3d* dt1, Eigen::Vector3d* dt2) {
  const int i = axis, j = (i + 1) % 3, k = (i + 2) % 3;
  const double m = std::sqrt(1.0 - n[i] * n[i]);
  const double r = 1.0 / m;
  const double dm = -r * n[i] * dn[i];
  const double dr = -r * r * dm;
  const double rn = r * n[i], drn = dr * n[i] + r * dn[i];
  (*dt1)[i] = 0.0;
  (*dt1)[j] = -(dr * n[k] + r * dn[k]);
  (*dt1)[k] = dr * n[j] + r * dn[j];
  (*dt2)[i] = dm;
  (*dt2)[j] = -(drn * n[j] + rn * dn[j]);
  (*dt2)[k] = -(drn * n[k] + rn * dn[k]);
}

void ContactTangentBasisDerivative(const Scene& scene, const Eigen::Vector3d& n,
                                   const Eigen::Vector3d& dn, Eigen::Vector3d* dt1,
                                   Eigen::Vector3d* dt2) {
  if (!scene.planar && scene.conventions.friction_ray_basis == FrictionRayBasis::kQsim) {
    QsimTangentBasisDerivative(n, dn, QsimReferenceAxis(n, scene.friction_rays), dt1, dt2);
    return;
  }
  TangentBasisDerivative(n, dn, scene.planar, dt1, dt2);
}

}  // namespace quasidyn
