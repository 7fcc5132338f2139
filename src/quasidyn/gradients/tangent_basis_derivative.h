#pragma once
// The directional derivative of the contact frame's tangents (contact/friction_cone.h
// TangentBasis) along a change dn of the normal n, in closed form:
//
//   planar: t1 = w/|w| with w = ẑ × n = (−n_y, n_x, 0), dt1 = (dw − t1 (t1·dw))/|w| with
//           dw = ẑ × dn; t2 = ẑ, dt2 = 0;
//   3D (Duff et al. 2017, Listing 3, on the same branch s = ±1 as TangentBasis, n_z >= −1/2):
//           a = −1/(s + n_z), b = n_x n_y a, da = a² dn_z, db = (dn_x n_y + n_x dn_y) a + n_x n_y
//           da, t1 = (1 + s n_x² a, s b, −s n_x), dt1 = (s (2 n_x dn_x a + n_x² da), s db, −s
//           dn_x), t2 = (b, s + n_y² a, −n_y),       dt2 = (db, 2 n_y dn_y a + n_y² da, −dn_y).
//
// n [1] as TangentBasis takes it (a unit normal; the formulas are those of TangentBasis as a
// function of n, so they are its derivative for any n off the branch switch n_z = −1/2 and,
// planar, off n_xy = 0); dn [1 per unit ε].

#include <Eigen/Core>

#include "quasidyn/model/scene.h"

namespace quasidyn {

void TangentBasisDerivative(const Eigen::Vector3d& n, const Eigen::Vector3d& dn, bool planar,
                            Eigen::Vector3d* dt1, Eigen::Vector3d* dt2);

// The same for qsim's frame (contact/friction_cone.h, QsimTangentBasis) with reference axis i
// (QsimReferenceAxis, constant where n's smallest component keeps its index): with m, r as
// there, dm = −r n_i dn_i, dr = −r² dm,
//   dt1_j = −(dr n_k + r dn_k),  dt1_k = dr n_j + r dn_j,  dt1_i = 0,
//   dt2_i = dm,  dt2_j = −(d(r n_i) n_j + r n_i dn_j),  dt2_k likewise with k.
void QsimTangentBasisDerivative(const Eigen::Vector3d& n, const Eigen::Vector3d& dn, int axis,
                                Eigen::Vector3d* dt1, Eigen::Vector3d* dt2);

// The derivative of contact/friction_cone.h's ContactTangentBasis(scene, n): the scene's frame.
void ContactTangentBasisDerivative(const Scene& scene, const Eigen::Vector3d& n,
                                   const Eigen::Vector3d& dn, Eigen::Vector3d* dt1,
                                   Eigen::Vector3d* dt2);

}  // namespace quasidyn
