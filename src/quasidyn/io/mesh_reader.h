#pragma once
// Reads a mesh file into a TriangleMesh (model/triangle_mesh.h) with Assimp (Debian
// libassimp-dev; docs/dependencies.md): OBJ, STL (ASCII and binary), Collada DAE, PLY and the
// other formats Assimp reads. Every mesh of the file is merged into one (node transforms
// applied), faces are triangulated, points and lines are dropped, vertices at the same position
// are welded into one, coordinates are multiplied by `scale` (per axis, > 0: STL files are often
// in millimetres, scale 0.001). A DAE file's <up_axis> is ignored: coordinates are taken as
// written, as URDF and SDF tools take them. Assimp reads coordinates in single precision, so
// a mesh's vertices carry a relative rounding of about 6e-8.

#include <Eigen/Core>
#include <string>

#include "quasidyn/model/triangle_mesh.h"

namespace quasidyn {

// Throws std::runtime_error whose message names the file when it is missing, larger than
// kMaxMeshFileBytes, unreadable by Assimp, has no triangle, more than kMaxMeshTriangles, or a
// non-finite coordinate (io/loader_limits.h); std::invalid_argument for a scale that is not
// finite and > 0.
TriangleMesh ReadTriangleMesh(const std::string& path,
                              const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

// The volume enclosed by a closed, consistently oriented mesh [m³] (divergence theorem: Σ of
// the signed tetrahedra (0, a, b, c) / 6, positive for outward-facing triangles); meaningless
// for an open mesh (IsClosedMesh).
double EnclosedVolume(const TriangleMesh& mesh);

// True when every undirected edge is shared by exactly two triangles (a closed surface).
bool IsClosedMesh(const TriangleMesh& mesh);

}  // namespace quasidyn
