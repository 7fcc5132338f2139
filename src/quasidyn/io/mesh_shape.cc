#include "quasidyn/io/mesh_shape.h"

#include <stdexcept>

#include "quasidyn/io/mesh_hull.h"
#include "quasidyn/io/mesh_reader.h"

namespace quasidyn {

std::shared_ptr<const TriangleMesh> VisualMesh(const std::string& path,
                                               const Eigen::Vector3d& scale,
                                               const SourceLocation& where) {
  try {
    return std::make_shared<const TriangleMesh>(ReadTriangleMesh(path, scale));
  } catch (const std::exception& e) {  // runtime_error (the file), invalid_argument (the scale)
    ThrowAt(where, e.what());
  }
}

MeshShape ConvexMeshShape(const std::string& path, const Eigen::Vector3d& scale,
                          const SourceLocation& where) {
  MeshShape out;
  out.mesh = VisualMesh(path, scale, where);
  MeshHull hull;
  try {
    hull = ConvexHullOfMesh(*out.mesh);
  } catch (const std::runtime_error& e) {
    ThrowAt(where, e.what());
  }
  if (const std::string problem = NonConvexityProblem(hull, *out.mesh); !problem.empty())
    ThrowAt(where, problem);
  out.shape.type = ShapeType::kConvex;
  out.shape.vertices = hull.vertices;
  return out;
}

}  // namespace quasidyn
