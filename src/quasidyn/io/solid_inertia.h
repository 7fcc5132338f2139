#pragma once
// Rotational inertia of uniform-density solids, about their centre of mass and in the
// shape frame S of model/shape.h. Used by the scene loader's `inertia: from_shapes`.

#include <Eigen/Core>

#include "quasidyn/model/shape.h"

namespace quasidyn {

// Inertia [kg·m²] of the solid `shape` of total mass `mass` [kg] (> 0), uniform density,
// about its centre, in S. Formulas (any table of moments of inertia, e.g. Meriam & Kraige,
// Engineering Mechanics: Dynamics, Appendix B):
//   sphere   I = 2/5 m r² on each axis.
//   box      I_xx = m (sy² + sz²)/12, I_yy = m (sx² + sz²)/12, I_zz = m (sx² + sy²)/12.
//   cylinder axis along z: I_zz = m r²/2, I_xx = I_yy = m (3r² + l²)/12.
//   capsule  axis along `capsule_axis` (2 = z in 3D scenes, 0 = x in planar scenes): a
//            cylinder of mass m_c and two hemispheres of total mass m_s, split by volume
//            (V_c = π r² l, V_s = 4/3 π r³). Axial: m_c r²/2 + 2/5 m_s r². Transverse:
//            m_c (3r² + l²)/12 + m_s (2/5 r² + l²/4 + 3 l r/8) (parallel-axis theorem with
//            each hemisphere's centroid 3r/8 from its flat face).
// Throws std::invalid_argument for half_space and convex shapes (no finite solid / not
// supported) and for a non-positive mass or dimension.
Eigen::Matrix3d SolidInertia(const Shape& shape, double mass, int capsule_axis = 2);

}  // namespace quasidyn
