#include "quasidyn/geometry/scene_shapes.h"

#include <stdexcept>

#include "quasidyn/geometry/planar_shape_2d.h"
#include "quasidyn/geometry/shape_validation.h"

namespace quasidyn {

void FailGeometry(const Scene& scene, int g, const char* who, const std::string& problem) {
  const CollisionGeometry& geometry = scene.geometries.at(g);
  const std::string what = "geometry '" + geometry.name + "': " + problem;
  if (!geometry.source.file.empty()) FailAt(geometry.source, what);
  throw std::invalid_argument(std::string(who) + ": " + what);
}

void CheckCollisionShapes(const Scene& scene, const char* who) {
  for (int g = 0; g < static_cast<int>(scene.geometries.size()); ++g) {
    const Shape& shape = scene.geometries[g].shape;
    if (scene.planar) {
      try {
        MakePlanarShape2d(shape);
      } catch (const std::invalid_argument& error) {
        FailGeometry(scene, g, who, error.what());
      }
    } else if (const std::string problem = ShapeProblem3d(shape); !problem.empty()) {
      FailGeometry(scene, g, who, problem);
    }
  }
}

}  // namespace quasidyn
