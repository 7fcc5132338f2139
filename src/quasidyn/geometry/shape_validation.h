#pragma once
// The checks a 3D collision shape passes before any query reads it (model/shape.h): every
// radius, length and box side finite and > 0 [m]; a convex shape with at least 4 finite
// vertices that span a volume. Run once per shape by geometry_model.h, and by the validating
// free functions of narrow_phase_3d.h on every call. (Planar sections are checked by
// MakePlanarShape2d, planar_shape_2d.h.)

#include <string>

#include "quasidyn/model/shape.h"

namespace quasidyn {

// What is wrong with `shape`, e.g. "box size x must be finite and > 0, got -1", or the
// empty string when nothing is. A half-space has nothing to check. A convex vertex set is
// flat when its farthest point from the plane through its three most spread vertices is
// within 1e-9 × its size.
std::string ShapeProblem3d(const Shape& shape);

}  // namespace quasidyn
