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
// Drake's <drake:capsule radius length> is read the same way.
// <mesh filename scale> collision geometry collides as the mesh's convex hull (io/
// mesh_shape.h: rejected when the mesh is not convex), file names resolved by io/model_uri.h
// (package:// through ModelFileOptions::packages, io/package_folders.h).
// What the file declares is compared with what urdfdom loaded (io/urdf_audit.h): a link, joint
// or collision element urdfdom would drop is an error at the URDF's line, what is ignorable
// (materials, drake: tags, transmissions, gazebo tags, ...) a warning in
// InstanceSpec::warnings. A collision shape's `where` names its line in the URDF.
// Joints: fixed, revolute, continuous (= revolute), prismatic; <limit lower upper> of a
// revolute or prismatic joint becomes Joint::lower_limit/upper_limit (equal bounds, urdfdom's
// default when they are absent, mean no limit; velocity and effort are ignored). Floating /
// planar URDF joints are rejected. <visual> elements (primitives and meshes) are read for the
// viewer (Scene::visuals, named "<instance>/<link>/visual/<k>"); a visual mesh that cannot be
// found or read is a warning, and the link's visuals are then left out so that the viewer draws
// its collision shapes.
//
// Names in the scene: body "<instance>/<link>", joint "<instance>/<joint>", shape
// "<instance>/<link>/<k>" (k = index of the <collision> in its link). The root link is
// attached to the world by a joint named "<instance>/root_joint": fixed at `base_pose` for a
// robot, `object_joint` for an object (planar and floating joint frames are the world frame).
// An object without `object_joint` (an articulated object moved by its file's joints) has a
// root link named `world`, Drake's convention: that link is the scene's world, and its joints
// are the object's joints to the world, placed at `base_pose`.

#include <Eigen/Geometry>
#include <string>

#include "quasidyn/io/model_file_options.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// URDF has no friction: options.friction is every collision shape's μ (0.5 when unset; the
// scene file requires it).
using UrdfOptions = ModelFileOptions;

// Throws SceneError at options.where when the file is missing, is not well-formed XML, is
// rejected by urdfdom, or uses something unsupported (the message names the URDF and the link
// or joint, and the URDF line when known).
InstanceSpec LoadUrdfInstance(const std::string& urdf_path, const UrdfOptions& options);

}  // namespace quasidyn
