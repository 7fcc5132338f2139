#pragma once
// Reads one SDF <model> (SDFormat, read by libsdformat 12, Debian libsdformat-dev) into an
// InstanceSpec for the SceneBuilder, as an object or a robot (docs/model-files.md, "SDF
// models"): the format of the reference quasi-static simulator's object files.
//
// Read:
//   <link>       one body each; <inertial> (mass [kg] > 0, com and inertia about it, in the
//                link frame, rotated by the inertial's pose). A robot's links and those of a
//                fixed object may have none (their mass is never used); a moving object's
//                links need one (SDFormat's default, 1 kg and 1 kg·m², is not taken).
//   <collision>  box, sphere, cylinder (axis z), capsule (axis z) and mesh (its convex hull,
//                io/mesh_shape.h; uri resolved by io/model_uri.h, <scale> applied), at the
//                collision's pose in its link; μ from <surface><friction><ode><mu> when present,
//                otherwise the scene's `friction:` (then required).
//   <visual>     the same primitives and meshes, for the viewer only.
//   <joint>      revolute, continuous (= revolute), prismatic and fixed, with <axis><xyz>
//                (resolved in the joint frame) and <limit><lower>/<upper> (revolute and
//                prismatic; |bound| >= 1e16, SDFormat's default, is no limit); the joint's
//                <pose> is where the axis passes. A model without joints is one free object.
//                A joint whose parent is `world` fixes or moves a robot's root relative to the
//                scene's base_pose; objects take their joint to the world from the scene's
//                `joint:`, or, where it gives none, from the file's joints whose parent is
//                `world` (an articulated object, placed at the scene's `pose`).
// Every pose is resolved by SDFormat's own frame semantics (SemanticPose, relative_to,
// <frame>), so the model's kinematics equals what SDFormat describes at q = 0: each body's
// frame is its parent joint's frame (the root's, its link frame), and the link's contents are
// re-expressed in it.
//
// Rejected, with the element, the file and its line: ball, universal, screw, gearbox and
// revolute2 joints, nested <model>s (and so <include>d models), <plane>, <heightmap>,
// <ellipsoid> and empty geometry, links that no joint connects, a <world> file, a collision
// geometry without a size element libsdformat would fill with its default (a <cylinder>
// without <length> becomes 1 m long), a misspelt <collision>, <visual> or <inertial> in a link,
// <drake:joint> and <drake:ball_constraint>. Ignored, with a warning in InstanceSpec::warnings
// (Scene::warnings): <plugin>, <sensor>, <light>, <gripper>, joint <dynamics> (damping,
// friction, springs), <static>, the model's own <pose> (the scene places models), drake: tags,
// a visual without its size elements, a visual mesh that cannot be found or read (the link's
// visuals are then left out: the viewer draws its collision shapes). A collision shape's `where`
// names its line in the SDF.
//
// Names in the scene: body "<instance>/<link>", joint "<instance>/<joint>", shape
// "<instance>/<link>/<collision name>", visual "<instance>/<link>/visual/<visual name>", and
// "<instance>/root_joint" for the root's joint to the world when the file has none.

#include <string>

#include "quasidyn/io/model_file_options.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// Throws SceneError at options.where when the file is missing, is rejected by SDFormat (its
// first errors, with file:line), or uses something unsupported (naming the element, the file
// and its line).
InstanceSpec LoadSdfInstance(const std::string& sdf_path, const ModelFileOptions& options);

}  // namespace quasidyn
