#include "quasidyn/planning/object_space.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/math/quaternion.h"

namespace quasidyn {

double WrapAngle(double theta) { return std::remainder(theta, 2.0 * M_PI); }

Eigen::Vector3d QuaternionDifference(const Eigen::Vector4d& Q_a, const Eigen::Vector4d& Q_b) {
  const Eigen::Vector4d a = NormalizeQuaternion(Q_a);
  const Eigen::Vector4d b = NormalizeQuaternion(Q_b);
  const Eigen::Vector4d b_inverse(b[0], -b[1], -b[2], -b[3]);
  Eigen::Vector4d d = QuaternionProduct(a, b_inverse);
  if (d[0] < 0) d = -d;  // the shorter rotation: angle in [0, π]
  const Eigen::Vector3d axis_sin = d.tail<3>();
  const double s = axis_sin.norm();
  if (s < 1e-12) return 2.0 * axis_sin / d[0];  // angle ≈ 2 s / w, exact to O(s³)
  return (2.0 * std::atan2(s, d[0]) / s) * axis_sin;
}

ObjectSpace::ObjectSpace(const Scene& scene) {
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    if (instance.actuated || instance.nq == 0) continue;
    Block block;
    block.instance = i;
    block.q_start = instance.q_start;
    block.v_start = instance.v_start;
    block.floating = instance.nq == 7;
    // One planar (x, y, θ) or floating joint per object, or planar ghost links whose joint
    // coordinates are taken as (x, y, θ) (CheckPlanningSettings says so first).
    if (OnPlanarGhostLinks(scene, instance)) {
      blocks_.push_back(block);
      continue;
    }
    int moving_joints = 0;
    for (const int j : instance.joints) {
      const JointType type = scene.joints[j].type;
      moving_joints += type == JointType::kFixed ? 0 : 1;
      QUASIDYN_CHECK_ARGUMENT(type != JointType::kRevolute && type != JointType::kPrismatic,
                              "ObjectSpace",
                              "object '" + instance.name +
                                  "' is articulated; the planner's object space holds planar "
                                  "and floating objects and objects on planar ghost links only");
    }
    QUASIDYN_CHECK_ARGUMENT(moving_joints == 1 && (instance.nq == 3 || instance.nq == 7),
                            "ObjectSpace",
                            "object '" + instance.name + "' is not one planar or floating body");
    blocks_.push_back(block);
  }
  QUASIDYN_CHECK_ARGUMENT(!blocks_.empty(), "ObjectSpace",
                          "scene '" + scene.name + "' has no movable object");
  nq_u_ = scene.nq_u;
  nv_u_ = scene.nv_u;
}

void ObjectSpace::Difference(const Eigen::Ref<const Eigen::VectorXd>& a,
                             const Eigen::Ref<const Eigen::VectorXd>& b,
                             Eigen::Ref<Eigen::VectorXd> out) const {
  for (const Block& block : blocks_) {
    const int q = block.q_start, v = block.v_start;
    if (block.floating) {
      out.segment<3>(v) = a.segment<3>(q) - b.segment<3>(q);
      out.segment<3>(v + 3) = QuaternionDifference(a.segment<4>(q + 3), b.segment<4>(q + 3));
    } else {
      out.segment<2>(v) = a.segment<2>(q) - b.segment<2>(q);
      out[v + 2] = WrapAngle(a[q + 2] - b[q + 2]);
    }
  }
}

Eigen::VectorXd ObjectSpace::Difference(const Eigen::Ref<const Eigen::VectorXd>& a,
                                        const Eigen::Ref<const Eigen::VectorXd>& b) const {
  Eigen::VectorXd out(nv_u_);
  Difference(a, b, out);
  return out;
}

Eigen::MatrixXd ObjectSpace::TangentRows(const Eigen::VectorXd& q,
                                         const Eigen::MatrixXd& raw_rows) const {
  CheckSize("ObjectSpace::TangentRows", "raw_rows.rows()", raw_rows.rows(), nq_u_, "n_q,u");
  Eigen::MatrixXd out(nv_u_, raw_rows.cols());
  for (const Block& block : blocks_) {
    const int iq = block.q_start, iv = block.v_start;
    if (block.floating) {
      out.middleRows<3>(iv) = raw_rows.middleRows<3>(iq);
      // δω = 4 E(Q̂)ᵀ NJ(Q) δQ (gradients/configuration_map.h, T(q)).
      const Eigen::Vector4d Q = q.segment<4>(iq + 3);
      const Eigen::Matrix<double, 3, 4> map =
          4.0 * QuaternionRateMap(NormalizeQuaternion(Q)).transpose() * NormalizationJacobian(Q);
      out.middleRows<3>(iv + 3) = map * raw_rows.middleRows<4>(iq + 3);
    } else {
      out.middleRows<3>(iv) = raw_rows.middleRows<3>(iq);
    }
  }
  return out;
}

double ObjectSpace::GoalDistance(const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& goal,
                                 const PlanningSettings& settings) const {
  double sum = 0.0;
  for (const Block& block : blocks_) {
    const int iq = block.q_start;
    double position = 0.0, rotation = 0.0;
    if (block.floating) {
      position = (q.segment<3>(iq) - goal.segment<3>(iq)).norm();
      rotation = QuaternionDifference(q.segment<4>(iq + 3), goal.segment<4>(iq + 3)).norm();
    } else {
      position = (q.segment<2>(iq) - goal.segment<2>(iq)).norm();
      rotation = std::abs(WrapAngle(q[iq + 2] - goal[iq + 2]));
    }
    sum += std::pow(settings.position_weight * position, 2) +
           std::pow(settings.rotation_weight * rotation, 2);
  }
  return std::sqrt(sum);
}

Eigen::VectorXd ObjectSpace::CoordinateWeights(const PlanningSettings& settings) const {
  Eigen::VectorXd w(nq_u_);
  const double position = settings.position_weight * settings.position_weight;
  const double rotation = settings.rotation_weight * settings.rotation_weight;
  for (const Block& block : blocks_) {
    const int iq = block.q_start;
    if (block.floating) {
      w.segment<3>(iq).setConstant(position);
      w.segment<4>(iq + 3).setConstant(4.0 * rotation);
    } else {
      w.segment<2>(iq).setConstant(position);
      w[iq + 2] = rotation;
    }
  }
  return w;
}

}  // namespace quasidyn
