#pragma once
// Reads a URDF file into an InstanceSpec for the SceneBuilder (urdfdom for links, inertials,
// joints and collision geometry).
//
// Supported: <link> with <inertial> and <collision>. A moving object's links need <inertial>
// with a mass > 0; a robot's links and those of an object fixed to the world may have none
// (mass 0: the quasi-dynamic step never uses their mass). <collision>
// shapes box, sphere, cylinder and the quasidyn extension
//   <collision><geometry><capsule radius="r" length="l"/></geometry></collision>
// (r, l in m, > 0; core segment of length l along the shape's z, as in model/shape.h).
// urdfdom does not know capsules, so urdfdom reads a copy of the file in which each
// <capsule> is a <mesh filename="quasidyn-capsule:<radius>:<length>"/> that is turned back
// into a capsule (the extension is found by text, outside XML comments).
// Joints: fixed, revolute, continuous (= revolute), prismatic; <limit lower upper> of a
// revolute or prismatic joint becomes Joint::lower_limit/upper_limit (equal bounds, urdfdom's
// default when they are absent, mean no limit; velocity and effort are ignored). Meshes and
// floating / planar URDF joints are rejected. Visual elements are ignored.
//
// Names in the scene: body "<instance>/<link>", joint "<instance>/<joint>", shape
// "<instance>/<link>/<k>" (k = index of the <collision> in its link). The root link is
// attached to the world by a joint named "<instance>/root_joint": fixed at `base_pose` for a
// robot, `object_joint` for an object (planar and floating joint frames are the world frame).

#include <Eigen/Geometry>
#include <string>

#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

struct UrdfOptions {
  std::string instance_name;                      // prefix of every name, unique in the scene
  bool actuated = true;                           // robot (true) or object (false)
  JointType object_joint = JointType::kFloating;  // objects: floating, planar or fixed
  Eigen::Isometry3d base_pose = Eigen::Isometry3d::Identity();  // root link in world (fixed)
  double friction = 0.5;  // μ [-] >= 0 of every collision shape
  SourceLocation where;   // the scene field naming the URDF: errors go here
};

// Throws SceneError at options.where when the file is missing, is not well-formed XML, is
// rejected by urdfdom, or uses something unsupported (the message names the URDF and the link
// or joint, and the URDF line when known).
InstanceSpec LoadUrdfInstance(const std::string& urdf_path, const UrdfOptions& options);

}  // namespace quasidyn
