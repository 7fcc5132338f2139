#pragma once
// Reads poses and collision shapes from a scene file (keys documented in
// docs/scene-format.md).

#include <Eigen/Geometry>
#include <string>

#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

// R = Rz(yaw) Ry(pitch) Rx(roll), angles [rad] about the fixed x, y, z axes (the URDF rule).
Eigen::Matrix3d RotationFromRollPitchYaw(const Eigen::Vector3d& rpy);

// A pose. 3D scenes: {xyz: [m, m, m], rpy: [rad, rad, rad]}; planar scenes: {x: m, y: m,
// theta: rad} (a rotation about z). Missing keys are zero.
Eigen::Isometry3d ReadPose(const YamlValue& value, bool planar);

// One shape {name, type, <dimensions>, pose, friction}. `default_name` is used when the
// shape has no name.
ShapeSpec ReadShape(const YamlValue& value, bool planar, const std::string& default_name);

}  // namespace quasidyn
