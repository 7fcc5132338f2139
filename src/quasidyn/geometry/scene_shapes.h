#pragma once
// The shape checks of the geometry layer (shape_validation.h in 3D, MakePlanarShape2d in the
// plane) reported where each shape was declared: a scene file's or model file's line when the
// shape carries its source (CollisionGeometry::source), so a degenerate shape (coplanar convex
// vertices, collinear polygon vertices) is an input error with file:line like every other,
// at load and when a GeometryModel is built.

#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// Throws SceneError at geometry g's source when it has one (file, line, field), else
// std::invalid_argument("<who>: geometry '<name>': <problem>").
[[noreturn]] void FailGeometry(const Scene& scene, int g, const char* who,
                               const std::string& problem);

// Checks every collision shape of `scene` as GeometryModel does, throwing through FailGeometry
// (`who` names the caller) at the first shape it refuses. Linear in the shapes' vertices.
void CheckCollisionShapes(const Scene& scene, const char* who);

}  // namespace quasidyn
