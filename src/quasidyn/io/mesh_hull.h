#pragma once
// The convex hull of a mesh, by Qhull (Barber, Dobkin & Huhdanpaa, "The Quickhull algorithm for
// convex hulls", ACM TOMS 22(4), 1996; Debian libqhull-dev, the reentrant libqhull_r), and the
// check that the mesh is convex enough to collide as its hull (docs/model-files.md, "Meshes"):
//
//   closed mesh (every edge shared by two triangles): V_hull <= kMaxHullVolumeRatio · |V_mesh|
//     (io/loader_limits.h, 1.05): a hull that adds more than 5 % of the mesh's volume fills
//     a cavity, a notch or a hole of the mesh, which then could not be touched;
//   every mesh (open ones too): each vertex lies on the hull's boundary within 1e-3 of the
//     hull's bounding-box diagonal (a vertex deeper inside is a concave part of the surface).
//
// A mesh that fails is a clear error; split it into convex parts (one shape each) instead.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/model/triangle_mesh.h"

namespace quasidyn {

struct MeshHull {
  std::vector<Eigen::Vector3d> vertices;  // the hull's vertices [m], in the mesh's frame
  double hull_volume = 0.0;               // [m³]
  double mesh_volume = 0.0;               // |enclosed volume| of a closed mesh [m³]; 0 if open
  bool closed = false;                    // the mesh is a closed surface
  double deepest_vertex = 0.0;            // largest distance of a mesh vertex inside the hull [m]
};

// The hull of the mesh's vertices (std::runtime_error naming mesh.file when Qhull fails, e.g.
// for a flat mesh, whose points all lie in one plane).
MeshHull ConvexHullOfMesh(const TriangleMesh& mesh);

// Empty when the mesh passes both tests above; otherwise why not, naming mesh.file and the
// measured ratio or depth.
std::string NonConvexityProblem(const MeshHull& hull, const TriangleMesh& mesh);

}  // namespace quasidyn
