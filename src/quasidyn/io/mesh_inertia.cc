#include "quasidyn/io/mesh_inertia.h"

#include <Eigen/LU>
#include <cmath>
#include <stdexcept>

#include "quasidyn/io/mesh_reader.h"

namespace quasidyn {

MeshSolid MeshSolidProperties(const TriangleMesh& mesh, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw std::invalid_argument("mesh " + mesh.file + ": mass must be finite and > 0");
  if (!IsClosedMesh(mesh))
    throw std::invalid_argument("mesh " + mesh.file +
                                " is not a closed surface, so it has no solid inertia; give "
                                "`inertia` ({principal: ...} or {matrix: ...}) instead");
  Eigen::Matrix3d S;
  S << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  double volume = 0.0;
  Eigen::Vector3d first_moment = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second_moment = Eigen::Matrix3d::Zero();
  for (const Eigen::Vector3i& t : mesh.triangles) {
    Eigen::Matrix3d A;
    A << mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]];
    const double det = A.determinant();
    volume += det / 6.0;
    first_moment += det / 6.0 * A.rowwise().sum() / 4.0;
    second_moment += det / 120.0 * A * S * A.transpose();
  }
  if (!(std::abs(volume) > 0.0))
    throw std::invalid_argument("mesh " + mesh.file + " encloses no volume");
  MeshSolid solid;
  solid.volume = std::abs(volume);
  solid.com = first_moment / volume;
  const double density = mass / volume;  // signed: undoes an inward orientation
  const Eigen::Matrix3d C = density * second_moment - mass * solid.com * solid.com.transpose();
  solid.inertia = C.trace() * Eigen::Matrix3d::Identity() - C;
  return solid;
}

}  // namespace quasidyn
