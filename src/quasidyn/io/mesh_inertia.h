#pragma once
// Mass properties of a closed triangle mesh as a uniform-density solid, for `inertia:
// from_shapes` of a body whose first shape is a mesh (docs/scene-format.md).
//
// By the divergence theorem the solid is the signed sum of the tetrahedra (0, a, b, c) over
// the triangles (a, b, c); a tetrahedron's volume is det[a b c]/6 and its second moment about
// the origin (covariance) C = det[a b c]/120 · A S Aᵀ with A = [a b c] and S = [[2,1,1],
// [1,2,1],[1,1,2]] (Blow & Binstock, "How to find the inertia tensor (or other mass
// properties) of a 3D solid body represented by a triangle mesh", 2004; Tonon, J. Math.
// Stat. 1(1), 2004). With density ρ = m/V: com c = Σ V_t (a + b + c)/4 / V, covariance about
// the com C_c = ρ Σ C_t − m c cᵀ, inertia I = tr(C_c) I₃ − C_c.

#include <Eigen/Core>

#include "quasidyn/model/triangle_mesh.h"

namespace quasidyn {

struct MeshSolid {
  double volume = 0.0;                                // [m³], > 0
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // [m], in the mesh frame
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // [kg·m²] about the com, mesh frame
};

// mass [kg] > 0; the mesh must be closed (io/mesh_reader.h IsClosedMesh) with a non-zero
// volume: std::invalid_argument naming mesh.file otherwise. The triangles' orientation may be
// inward or outward throughout (the sign of the volume is divided out).
MeshSolid MeshSolidProperties(const TriangleMesh& mesh, double mass);

}  // namespace quasidyn
