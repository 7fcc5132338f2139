#pragma once
// How the scene file asks for one model read from a model file (URDF, SDF, MJCF: io/
// urdf_loader.h, io/sdf_loader.h, io/mjcf_loader.h): its name, robot or object, the object's
// joint to the world, where a robot's base sits, the friction of its shapes, and where errors
// go.

#include <Eigen/Geometry>
#include <optional>
#include <string>

#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

struct ModelFileOptions {
  std::string instance_name;  // prefix of every name, unique in the scene
  bool actuated = true;       // robot (true) or object (false)
  // Objects: the joint to the world the scene gives (floating, planar or fixed), or none: the
  // file's own joints to the world (an SDF <joint> whose <parent> is `world`, the joints of a
  // URDF root link named `world`, an MJCF top body's hinge or slide joints), an articulated
  // object such as a door on its hinge (docs/scene-format.md, "Articulated objects").
  std::optional<JointType> object_joint = JointType::kFloating;
  // The root joint's X_PJ: the root link in the world (fixed), the plane of a planar object in
  // a 3D scene (io/plane_frame.h), where the file's own joints to the world are placed (no
  // object_joint); unused for floating objects.
  Eigen::Isometry3d base_pose = Eigen::Isometry3d::Identity();
  // μ [-] >= 0 of the collision shapes: every one for URDF (which has no friction; 0.5 when
  // unset, the scene file requires it);
  // for SDF and MJCF those whose file gives none (optional when every shape has its own).
  std::optional<double> friction;
  SourceLocation where;  // the scene field naming the file: errors go here
  // Set by the loaders: the model file's folder, against which mesh file names are resolved.
  std::string model_directory;
  // The folders of package:// names given by the scene and the command line
  // (io/package_folders.h).
  PackageSearch packages;

  // True when the file's own joints to the world move the object (object_joint empty).
  bool OwnWorldJoints() const { return !actuated && !object_joint; }
  // Whether a link may be massless: a robot's mass never enters the quasi-dynamic step (robots
  // are impedances; Pang & Tedrake 2021, §III-A), nor does that of an object fixed to the
  // world; an articulated object's links may be massless "ghost" links between its joints as
  // long as every joint moves some mass (checked by the scene builder).
  bool MasslessLinksAllowed() const {
    return actuated || !object_joint || *object_joint == JointType::kFixed;
  }
};

}  // namespace quasidyn
