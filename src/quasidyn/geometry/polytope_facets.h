#pragma once
// The facets of the convex hull of a 3D point set, as half-spaces n·ξ <= d: the inequalities of
// a convex polytope (model/shape.h `convex`) for the equivalent-contact-point formulation
// (convex_quadrics.h). Brute force over vertex triples (a plane through three vertices is a
// facet's when every vertex lies on its inner side), O(n⁴) for n vertices: for the small hulls
// of contact shapes only, at most kMaxPolytopeFacetVertices.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

inline constexpr int kMaxPolytopeFacetVertices = kMaxEcpPolytopeVertices;

struct PolytopeFacet {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, outward
  double offset = 0.0;                                // d [m]: n·ξ <= d inside
};

// The distinct facet planes of conv(vertices) (coplanar triangles merged) into *out, or an
// empty list and a failure saying why (common/outcome.h) when the vertices are fewer than 4,
// more than kMaxPolytopeFacetVertices, not finite, or span no volume. A vertex counts as on a
// plane within 1e-9 × the hull's size.
Outcome ConvexHullFacets(const std::vector<Eigen::Vector3d>& vertices,
                         std::vector<PolytopeFacet>* out);

}  // namespace quasidyn
