#pragma once
// The plane of an object's planar joint in a 3D scene (docs/scene-format.md, "Planar objects in
// 3D scenes"). A planar joint moves its child along the x and y axes of its joint frame J and
// rotates it about J's z (model/scene.h), so a plane is the frame X_WJ whose z axis is the
// plane's unit normal n and whose origin is a point of the plane:
//
//   z_J = n / |n|,
//   x_J = the world x axis projected onto the plane and normalised (the world y axis instead
//         when |n̂ · x̂| > 0.99, the plane being then nearly the y-z plane),
//   y_J = z_J × x_J,
//
// and q = (x, y, θ) are the coordinates along x_J, y_J [m] and the rotation about z_J [rad].
// The default normal (0, −1, 0) gives the x-z plane with x_J = x̂, y_J = ẑ: q = (x, z, θ), θ
// the rotation from x toward z (about −y), so (x, z, θ) is right-handed as a planar scene's
// (x, y, θ) is.

#include <Eigen/Geometry>

#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

inline const Eigen::Vector3d kDefaultPlaneNormal(0.0, -1.0, 0.0);

// X_WJ of the plane above; normal finite and non-zero (std::invalid_argument otherwise).
Eigen::Isometry3d PlaneFrame(const Eigen::Vector3d& normal, const Eigen::Vector3d& origin);

// {normal: [nx, ny, nz], origin: [x, y, z] [m]}, both optional (defaults (0, −1, 0) and 0).
// Fails at the field for a zero normal.
Eigen::Isometry3d ReadPlane(const YamlValue& value);

}  // namespace quasidyn
