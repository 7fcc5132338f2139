#pragma once
// Test-only helper: builds small Scenes by hand (no YAML), filling the fields the
// kinematics layer reads: bodies (bodies[0] = world), joints with q_start/v_start,
// instances (objects first, then robots), nq, nv, nq_u, nv_u, nq_a, nv_a and q0.

#include <Eigen/Geometry>
#include <stdexcept>
#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn::testing {

class SceneBuilder {
 public:
  SceneBuilder() {
    Body world;
    world.name = "world";
    scene_.bodies.push_back(world);
  }

  // Adds a model instance; objects (actuated = false) must all be added before robots.
  int AddInstance(const std::string& name, bool actuated) {
    if (!actuated && !scene_.instances.empty() && scene_.instances.back().actuated) {
      throw std::logic_error("SceneBuilder: add objects before robots");
    }
    ModelInstance instance;
    instance.name = name;
    instance.actuated = actuated;
    scene_.instances.push_back(instance);
    return static_cast<int>(scene_.instances.size()) - 1;
  }

  // Adds a body of `instance` joined to `parent_body` by a joint of `type` whose frame is
  // X_PJ in the parent; returns the new body's index. Inertia about the com, in B.
  int AddBody(int instance, const std::string& name, double mass, const Eigen::Vector3d& com,
              const Eigen::Matrix3d& inertia, JointType type, int parent_body,
              const Eigen::Isometry3d& X_PJ = Eigen::Isometry3d::Identity(),
              const Eigen::Vector3d& axis = Eigen::Vector3d::UnitZ()) {
    const int body_index = static_cast<int>(scene_.bodies.size());
    const int joint_index = static_cast<int>(scene_.joints.size());
    Body body;
    body.name = name;
    body.mass = mass;
    body.com = com;
    body.inertia = inertia;
    body.parent_joint = joint_index;
    body.instance = instance;
    scene_.bodies.push_back(body);
    Joint joint;
    joint.name = name + "_joint";
    joint.type = type;
    joint.parent_body = parent_body;
    joint.child_body = body_index;
    joint.X_PJ = X_PJ;
    joint.axis = axis;
    joint.stiffness = scene_.instances[instance].actuated ? 100.0 : 0.0;
    scene_.joints.push_back(joint);
    scene_.instances[instance].bodies.push_back(body_index);
    scene_.instances[instance].joints.push_back(joint_index);
    return body_index;
  }

  // Lays out q and v instance by instance (joints in order within each) and sets q0 to
  // zeros with identity quaternions.
  Scene Build() const {
    Scene scene = scene_;
    int nq = 0, nv = 0;
    for (ModelInstance& instance : scene.instances) {
      instance.q_start = nq;
      instance.v_start = nv;
      for (int j : instance.joints) {
        Joint& joint = scene.joints[j];
        joint.q_start = nq;
        joint.v_start = nv;
        nq += JointNq(joint.type);
        nv += JointNv(joint.type);
      }
      instance.nq = nq - instance.q_start;
      instance.nv = nv - instance.v_start;
      if (instance.actuated) {
        scene.nq_a += instance.nq;
        scene.nv_a += instance.nv;
      } else {
        scene.nq_u += instance.nq;
        scene.nv_u += instance.nv;
      }
    }
    scene.nq = nq;
    scene.nv = nv;
    scene.q0 = Eigen::VectorXd::Zero(nq);
    for (const Joint& joint : scene.joints) {
      if (joint.type == JointType::kFloating) scene.q0[joint.q_start + 3] = 1.0;
    }
    return scene;
  }

 private:
  Scene scene_;
};

// A pose from a rotation (angle [rad] about a unit axis) and a translation [m].
inline Eigen::Isometry3d MakePose(double angle, const Eigen::Vector3d& axis,
                                  const Eigen::Vector3d& translation) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  X.translation() = translation;
  return X;
}

// The two-link planar arm of the mass-matrix closed form: revolute joints about z, link
// 1 at the world origin, link 2's joint at (l1, 0, 0) in link 1, coms at (lc_i, 0, 0).
// Inertias are diag(0.3 I_i, 0.6 I_i, I_i) so that only the z entry may enter M.
struct TwoLinkArm {
  double m1 = 1.3, m2 = 0.9;      // [kg]
  double l1 = 1.0, l2 = 0.8;      // [m]
  double lc1 = 0.45, lc2 = 0.35;  // [m]
  double I1 = 0.12, I2 = 0.07;    // [kg·m²] about z through the com
  int link1 = -1, link2 = -1;     // body indices
  Scene Build() {
    SceneBuilder builder;
    const int arm = builder.AddInstance("arm", /*actuated=*/true);
    const auto inertia = [](double I) -> Eigen::Matrix3d {
      return Eigen::Vector3d(0.3 * I, 0.6 * I, I).asDiagonal();
    };
    link1 = builder.AddBody(arm, "link1", m1, Eigen::Vector3d(lc1, 0, 0), inertia(I1),
                            JointType::kRevolute, 0);
    link2 = builder.AddBody(arm, "link2", m2, Eigen::Vector3d(lc2, 0, 0), inertia(I2),
                            JointType::kRevolute, link1,
                            MakePose(0.0, Eigen::Vector3d::UnitZ(), Eigen::Vector3d(l1, 0, 0)));
    return builder.Build();
  }
};

// A forest with every joint type: a floating box (rotated joint frame, offset com), a
// planar puck (tilted joint frame), a floating base carrying a revolute link, and a robot
// arm revolute → prismatic → fixed → revolute with tilted axes. Body indices are kept.
struct MixedForest {
  int box = -1, puck = -1, base = -1, base_link = -1;
  int arm_shoulder = -1, arm_slider = -1, arm_bracket = -1, arm_wrist = -1;
  int arm_instance = -1;
  Scene Build() {
    SceneBuilder builder;
    Eigen::Matrix3d inertia;         // SPD, not diagonal [kg·m²]
    inertia << 0.02, 0.003, -0.001,  //
        0.003, 0.015, 0.002,         //
        -0.001, 0.002, 0.01;
    const int box_instance = builder.AddInstance("box", false);
    box = builder.AddBody(box_instance, "box", 0.5, Eigen::Vector3d(0.02, -0.01, 0.03), inertia,
                          JointType::kFloating, 0,
                          MakePose(0.4, Eigen::Vector3d(1, 1, 0), Eigen::Vector3d(0.1, 0.2, 0.3)));
    const int puck_instance = builder.AddInstance("puck", false);
    puck =
        builder.AddBody(puck_instance, "puck", 0.3, Eigen::Vector3d(0.01, 0.02, 0.0), 1.5 * inertia,
                        JointType::kPlanar, 0,
                        MakePose(0.5, Eigen::Vector3d(1, 0, 0.2), Eigen::Vector3d(-0.4, 0, 0.1)));
    const int base_instance = builder.AddInstance("base", false);
    base = builder.AddBody(base_instance, "base", 1.2, Eigen::Vector3d::Zero(), 2.0 * inertia,
                           JointType::kFloating, 0);
    base_link = builder.AddBody(base_instance, "base_link", 0.4, Eigen::Vector3d(0.1, 0, 0),
                                0.5 * inertia, JointType::kRevolute, base,
                                MakePose(0.2, Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0.2, 0, 0)),
                                Eigen::Vector3d(0, 0.6, 0.8));
    arm_instance = builder.AddInstance("arm", true);
    arm_shoulder = builder.AddBody(
        arm_instance, "shoulder", 2.0, Eigen::Vector3d(0, 0, 0.1), 3.0 * inertia,
        JointType::kRevolute, 0, MakePose(0.1, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(1, 0, 0)));
    arm_slider = builder.AddBody(
        arm_instance, "slider", 1.0, Eigen::Vector3d(0.05, 0, 0), inertia, JointType::kPrismatic,
        arm_shoulder, MakePose(-0.3, Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, 0.3)),
        Eigen::Vector3d(0.8, 0, 0.6));
    arm_bracket = builder.AddBody(
        arm_instance, "bracket", 0.2, Eigen::Vector3d(0, 0.02, 0), 0.3 * inertia, JointType::kFixed,
        arm_slider, MakePose(0.7, Eigen::Vector3d(0, 1, 1), Eigen::Vector3d(0.1, 0, 0)));
    arm_wrist = builder.AddBody(arm_instance, "wrist", 0.5, Eigen::Vector3d(0, 0, 0.05),
                                0.8 * inertia, JointType::kRevolute, arm_bracket,
                                MakePose(0.0, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 0.1, 0)),
                                Eigen::Vector3d(1, 2, 2) / 3.0);
    return builder.Build();
  }
  // A generic configuration of the forest (unit quaternions built with Eigen).
  static Eigen::VectorXd Configuration(const Scene& scene) {
    Eigen::VectorXd q(scene.nq);
    const Eigen::Quaterniond box(
        Eigen::AngleAxisd(1.1, Eigen::Vector3d(0.2, -0.7, 0.4).normalized()));
    const Eigen::Quaterniond base(
        Eigen::AngleAxisd(-2.3, Eigen::Vector3d(1, 0.5, -0.3).normalized()));
    q << 0.3, -0.2, 0.5, box.w(), box.x(), box.y(), box.z(),     // box
        0.4, -0.1, 0.8,                                          // puck
        -0.5, 0.6, 0.2, base.w(), base.x(), base.y(), base.z(),  // base
        0.9,                                                     // base_link
        0.7, 0.25, -1.2;                                         // shoulder, slider, wrist
    return q;
  }
};

}  // namespace quasidyn::testing
