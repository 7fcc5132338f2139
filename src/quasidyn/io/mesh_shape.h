#pragma once
// Shapes made from mesh files, shared by every model reader (scene YAML `type: mesh`, URDF,
// SDF and MJCF <mesh> geometry): a collision mesh becomes the `convex` shape of its hull
// (io/mesh_hull.h; rejected when the mesh is not convex) and keeps the mesh for the viewer; a
// visual mesh is only read.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/io/scene_builder.h"
#include "quasidyn/model/triangle_mesh.h"

namespace quasidyn {

struct MeshShape {
  Shape shape;                               // kConvex, the hull's vertices [m]
  std::shared_ptr<const TriangleMesh> mesh;  // the mesh as read (scaled)
};

// Reads `path` (io/mesh_reader.h) scaled by `scale` (> 0 per axis) and hulls it. A missing or
// unreadable file, a flat mesh or a non-convex one is a SceneError at `where` whose message
// names the file.
MeshShape ConvexMeshShape(const std::string& path, const Eigen::Vector3d& scale,
                          const SourceLocation& where);

// The mesh of a visual element (no hull, no convexity test); a SceneError at `where` when the
// file cannot be read.
std::shared_ptr<const TriangleMesh> VisualMesh(const std::string& path,
                                               const Eigen::Vector3d& scale,
                                               const SourceLocation& where);

}  // namespace quasidyn
