#include "quasidyn/gradients/tangent_basis_derivative.h"

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

}  // namespace quasidyn
