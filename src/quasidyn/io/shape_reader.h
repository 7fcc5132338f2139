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
// shape has no name. A `mesh` shape's file is relative to base_directory (the scene file's
// folder; empty: the working folder) and becomes the convex shape of its hull (io/
// mesh_shape.h).
ShapeSpec ReadShape(const YamlValue& value, bool planar, const std::string& default_name,
                    const std::string& base_directory);

// `path` relative to base_directory (unless absolute or base_directory is empty), normalised.
std::string ResolveScenePath(const std::string& path, const std::string& base_directory);

// A mesh scale: one number s (> 0) for (s, s, s) or [sx, sy, sz], each > 0.
Eigen::Vector3d ReadMeshScale(const YamlValue& value);

}  // namespace quasidyn
