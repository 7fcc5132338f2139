#include "quasidyn/formulations/ecp/contact_frame.h"

#include <Eigen/Geometry>

#include "quasidyn/math/rotation.h"

namespace quasidyn {

bool MakeContactFrame(const Eigen::Vector3d& m, const Eigen::Vector3d& seed, ContactFrame* frame,
                      bool derivatives) {
  const double length = m.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return false;
  const Eigen::Vector3d n = m / length;
  const Eigen::Vector3d u = seed - seed.dot(n) * n;
  const double u_length = u.norm();
  if (!(u_length > 1e-9)) return false;
  const Eigen::Vector3d t = u / u_length;
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  frame->n = n;
  frame->t = t;
  frame->o = n.cross(t);
  if (!derivatives) return true;
  frame->dn_dm = (I - n * n.transpose()) / length;
  const Eigen::Matrix3d du = -(seed.dot(n) * I + n * seed.transpose()) * frame->dn_dm;
  frame->dt_dm = (I - t * t.transpose()) / u_length * du;
  frame->do_dm = -Skew(t) * frame->dn_dm + Skew(n) * frame->dt_dm;
  return true;
}

Eigen::Vector3d SeedDirection(const Eigen::Vector3d& n) {
  int axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  return Eigen::Vector3d::Unit(axis);
}

}  // namespace quasidyn
