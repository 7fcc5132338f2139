#pragma once
// Reads an MJCF model through MuJoCo's own parser and compiler (mj_loadXML of libmujoco 2.2,
// Debian libmujoco-dev; docs/dependencies.md) into an InstanceSpec for the SceneBuilder, as an
// object or a robot (docs/model-files.md, "MJCF models"). What is read is the compiled
// mjModel, so MJCF's defaults classes, <include>, angle units, fromto and the inertias the
// compiler infers from geoms all mean what they mean to MuJoCo.
//
// Read:
//   bodies     one body each ("<instance>/<body>"), with the compiled mass, com (body_ipos) and
//              inertia (body_inertia rotated by body_iquat); mass 0 is accepted for a robot's
//              and a fixed or articulated object's bodies only.
//   joints     hinge → revolute, slide → prismatic, with their axis, anchor (jnt_pos: the body
//              frame is moved to it, so the rotation passes where MuJoCo's does) and range when
//              limited; a body with k > 1 joints becomes a chain of k − 1 massless bodies
//              ("<instance>/<body>/<joint>") and the body, composed in MJCF order as MuJoCo
//              composes them. free → the object's floating joint (objects only; the scene's
//              `joint:` decides, as for URDF); a robot's top bodies without a joint are fixed to
//              the world at base_pose.
//   geoms      sphere, capsule, cylinder, box (MuJoCo's half sizes doubled), mesh (the convex
//              hull of the compiled mesh, which is what MuJoCo itself collides with; a warning
//              when the mesh is not convex, io/mesh_hull.h) and, on the <worldbody> itself,
//              plane → an environment half_space (InstanceSpec::world_shapes); μ = the geom's
//              sliding friction (friction[0], MuJoCo's default 1). A geom with contype = 0 and
//              conaffinity = 0 does not collide in MuJoCo: it is read as a visual.
//
// Rejected, naming the element and the file: ball joints, a free joint on a robot or below an
// object's top body, a hinge or slide on an object's top body when the scene gives the object a
// `joint:` (without one, those are its joints to the world: an articulated object; hinges and
// slides below the top body are its inner joints), ellipsoid and height-field geoms, a plane
// on a body. Ignored with a warning (InstanceSpec::warnings, with the line of the
// element's first occurrence in the file when it is there): actuators, tendons, equality
// constraints, sites, sensors, keyframes, cameras, lights, explicit contact pairs and
// exclusions, joint stiffness, damping, armature and friction loss, and MuJoCo's own solver
// parameters.
//
// mj_loadXML's message (with MuJoCo's element and line) is the error of a file MuJoCo rejects.

#include <string>

#include "quasidyn/io/model_file_options.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// Throws SceneError at options.where naming the file for what is rejected above. MJCF geoms
// carry their own friction, so options.friction must be empty.
InstanceSpec LoadMjcfInstance(const std::string& mjcf_path, const ModelFileOptions& options);

}  // namespace quasidyn
