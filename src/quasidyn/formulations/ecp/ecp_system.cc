#include "quasidyn/formulations/ecp/ecp_system.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/contact/friction_cone.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

namespace {

constexpr char kWhere[] = "ecp";

std::string ObjectText(const Scene& scene, int instance) {
  return "object '" + scene.instances[instance].name + "'";
}

}  // namespace

EcpSystem::EcpSystem(const Scene& scene, const EcpParameters& parameters)
    : h_(parameters.time_step),
      gravity_(scene.gravity),
      e_t_(parameters.e_t),
      e_o_(parameters.e_o),
      e_r_(parameters.e_r) {
  CheckPositive(kWhere, "time step h", h_);
  CheckPositive(kWhere, "e_t", e_t_);
  CheckPositive(kWhere, "e_o", e_o_);
  CheckPositive(kWhere, "e_r", e_r_);
  QUASIDYN_CHECK_ARGUMENT(
      !scene.planar, kWhere,
      "the ecp formulation needs a 3D scene (dimension: 3); this one is planar");
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    QUASIDYN_CHECK_ARGUMENT(
        !instance.actuated, kWhere,
        "robot '" + instance.name +
            "': robots are not part of the ecp formulation (it drives objects by applied "
            "impulses and forces, objects[].impulses and external_force, as the paper's "
            "examples do); remove the robot or use another formulation");
  }
  body_slot_.assign(scene.bodies.size(), -1);
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    if (instance.nv == 0) continue;  // a fixed object: an obstacle
    QUASIDYN_CHECK_ARGUMENT(instance.bodies.size() == 1, kWhere,
                            ObjectText(scene, i) + " has " +
                                std::to_string(instance.bodies.size()) +
                                " bodies; the ecp formulation steps one rigid body per object");
    const Body& body = scene.bodies[instance.bodies[0]];
    const Joint& joint = scene.joints[body.parent_joint];
    QUASIDYN_CHECK_ARGUMENT(joint.type == JointType::kFloating && joint.parent_body == 0 &&
                                joint.X_PJ.isApprox(Eigen::Isometry3d::Identity(), 1e-12),
                            kWhere,
                            ObjectText(scene, i) +
                                ": a moving object needs a floating joint to the world with the "
                                "world's frame (joint: floating)");
    EcpBody b;
    b.body = instance.bodies[0];
    b.instance = i;
    b.q_start = joint.q_start;
    b.v_start = joint.v_start;
    b.mass = body.mass;
    b.inertia = body.inertia;
    b.com = body.com;
    b.angular_scale =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(body.inertia).eigenvalues().maxCoeff();
    QUASIDYN_CHECK_ARGUMENT(b.mass > 0.0 && b.angular_scale > 0.0, kWhere,
                            ObjectText(scene, i) + " needs a mass and an inertia > 0");
    body_slot_[b.body] = static_cast<int>(bodies_.size());
    bodies_.push_back(b);
  }
  // Shapes, in their body's com frame (moving) or in the world (fixed).
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(scene.q0);
  for (int g = 0; g < static_cast<int>(scene.geometries.size()); ++g) {
    const CollisionGeometry& geometry = scene.geometries[g];
    ConvexQuadricSet set;
    const Outcome compiled = ConvexQuadricSetFromShape(geometry.shape, &set);
    QUASIDYN_CHECK_ARGUMENT(compiled.ok(), kWhere,
                            "shape '" + geometry.name + "': " + compiled.message() +
                                " (the ecp formulation needs every shape as an intersection of "
                                "convex C² inequalities)");
    EcpShape shape;
    shape.geometry = g;
    shape.body_slot = body_slot_[geometry.body];
    if (shape.body_slot >= 0) {
      Eigen::Isometry3d com = Eigen::Isometry3d::Identity();
      com.translation() = bodies_[shape.body_slot].com;
      shape.set = TransformQuadricSet(set, geometry.X_BS.inverse() * com);
    } else {
      const Eigen::Isometry3d X_WS = kinematics.BodyPose(geometry.body) * geometry.X_BS;
      shape.set = TransformQuadricSet(set, X_WS.inverse());
    }
    shapes_.push_back(std::move(shape));
  }
  // Pairs and the layout.
  size_ = 6 * static_cast<int>(bodies_.size());
  kinds_.assign(size_, NcpKind::kFree);
  const double acceleration = std::max(gravity_.norm(), 1.0);
  for (int i = 0; i < static_cast<int>(shapes_.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(shapes_.size()); ++j) {
      const int body_i = scene.geometries[i].body, body_j = scene.geometries[j].body;
      if (body_i == body_j) continue;
      if (shapes_[i].body_slot < 0 && shapes_[j].body_slot < 0) continue;
      if (scene.IsFiltered(std::min(body_i, body_j), std::max(body_i, body_j))) continue;
      EcpPair pair;
      pair.shape_g = body_i < body_j ? i : j;
      pair.shape_f = body_i < body_j ? j : i;
      if (shapes_[pair.shape_f].body_slot < 0) std::swap(pair.shape_f, pair.shape_g);
      pair.friction = CombineFriction(scene.friction_combination, scene.geometries[i].friction,
                                      scene.geometries[j].friction);
      double mass = bodies_[shapes_[pair.shape_f].body_slot].mass;
      if (shapes_[pair.shape_g].body_slot >= 0) {
        mass = std::min(mass, bodies_[shapes_[pair.shape_g].body_slot].mass);
      }
      pair.impulse_scale = mass * acceleration * h_;
      pair.m_f = shapes_[pair.shape_f].set.size();
      pair.m_g = shapes_[pair.shape_g].set.size();
      pair.offset = size_;
      size_ += pair.size();
      for (int k = 0; k < 10; ++k) kinds_.push_back(NcpKind::kFree);
      for (int k = 10; k < pair.size(); ++k) kinds_.push_back(NcpKind::kComplementarity);
      pairs_.push_back(pair);
    }
  }
}

int EcpSystem::BodySlot(int body) const {
  return body >= 0 && body < static_cast<int>(body_slot_.size()) ? body_slot_[body] : -1;
}

int EcpSystem::PairOfUnknown(int i) const {
  for (int k = 0; k < static_cast<int>(pairs_.size()); ++k) {
    if (i >= pairs_[k].offset && i < pairs_[k].offset + pairs_[k].size()) return k;
  }
  return -1;
}

std::string EcpSystem::PairName(const Scene& scene, int pair) const {
  const EcpPair& p = pairs_[pair];
  return "pair " + std::to_string(pair) + " (" +
         scene.geometries[shapes_[p.shape_f].geometry].name + " on " +
         scene.geometries[shapes_[p.shape_g].geometry].name + ")";
}

std::string EcpSystem::UnknownName(const Scene& scene, int i) const {
  if (i < 0 || i >= size_) return "unknown " + std::to_string(i);
  const int pair = PairOfUnknown(i);
  if (pair < 0) {
    static const char* const kVelocity[] = {"v+_x", "v+_y", "v+_z", "w+_x", "w+_y", "w+_z"};
    return "body '" + scene.bodies[bodies_[i / 6].body].name + "' " + kVelocity[i % 6];
  }
  const EcpPair& p = pairs_[pair];
  static const char* const kPair[] = {"a1_x", "a1_y", "a1_z", "a2_x", "a2_y", "a2_z",
                                      "s",    "p_t",  "p_o",  "p_r",  "p_n",  "sigma"};
  const int local = i - p.offset;
  std::string what = local < 12           ? kPair[local]
                     : local < 12 + p.m_f ? "l_F[" + std::to_string(local - 12) + "]"
                                          : "l_G[" + std::to_string(local - 12 - p.m_f) + "]";
  return PairName(scene, pair) + " " + what;
}

}  // namespace quasidyn
