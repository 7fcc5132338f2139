#include "quasidyn/geometry/polytope_facets.h"

#include <cmath>

namespace quasidyn {

Outcome ConvexHullFacets(const std::vector<Eigen::Vector3d>& vertices,
                         std::vector<PolytopeFacet>* out) {
  out->clear();
  std::vector<PolytopeFacet>& facets = *out;
  const int n = static_cast<int>(vertices.size());
  if (n < 4) {
    return Outcome::Failure("a convex polytope needs at least 4 vertices, got " +
                            std::to_string(n));
  }
  if (n > kMaxPolytopeFacetVertices) {
    return Outcome::Failure("convex polytopes have at most " +
                            std::to_string(kMaxPolytopeFacetVertices) + " vertices here, got " +
                            std::to_string(n));
  }
  double size = 0.0;
  for (const Eigen::Vector3d& v : vertices) {
    if (!v.allFinite()) {
      return Outcome::Failure("a convex vertex is not finite");
    }
    for (const Eigen::Vector3d& w : vertices) size = std::max(size, (v - w).norm());
  }
  const double band = 1e-9 * size;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        Eigen::Vector3d normal = (vertices[j] - vertices[i]).cross(vertices[k] - vertices[i]);
        if (normal.norm() <= 1e-9 * size * size) continue;  // (nearly) collinear
        normal.normalize();
        double offset = normal.dot(vertices[i]);
        int above = 0, below = 0;
        for (const Eigen::Vector3d& v : vertices) {
          const double side = normal.dot(v) - offset;
          above += side > band;
          below += side < -band;
        }
        if (above > 0 && below > 0) continue;  // cuts through the hull
        if (above > 0) {                       // every vertex on the other side: flip
          normal = -normal;
          offset = -offset;
        }
        bool known = false;
        for (const PolytopeFacet& f : facets) {
          known =
              known || ((f.normal - normal).norm() <= 1e-9 && std::abs(f.offset - offset) <= band);
        }
        if (!known) facets.push_back({normal, offset});
      }
    }
  }
  if (facets.size() < 4) {
    facets.clear();
    return Outcome::Failure("the convex vertices span no volume");
  }
  return Outcome::Ok();
}

}  // namespace quasidyn
