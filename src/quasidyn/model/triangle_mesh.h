#pragma once
// A triangle mesh as read from a mesh file (OBJ, STL, ...: io/mesh_reader.h), in its own frame,
// scaled to metres: what the viewer draws for a shape or visual made from a mesh file. Contact
// never uses it directly: a mesh collides through its convex hull (a `convex` shape, io/
// mesh_hull.h).

#include <Eigen/Core>
#include <string>
#include <vector>

namespace quasidyn {

struct TriangleMesh {
  std::string file;                        // the file it was read from, as resolved
  std::vector<Eigen::Vector3d> vertices;   // [m]
  std::vector<Eigen::Vector3i> triangles;  // vertex indices, counter-clockwise seen from outside
};

}  // namespace quasidyn
