#pragma once
// One convex quadric inequality of a body (geometry/convex_quadrics.h, in the body's centre-of-
// mass frame: ξ = Rᵀ(x − c) for the body's pose (c, R), c its centre of mass [m] in the world)
// evaluated at a world point x, with the derivatives the ECP step needs (dynamics/ecp/):
//
//   f(x)      = q(ξ),            ∇f = R ∇q(ξ),           ∇²f = R A Rᵀ,
//   ∂f/∂x     = ∇fᵀ,             ∂f/∂c = −∇fᵀ,           ∂f/∂θ = (∇f × r)ᵀ,
//   ∂∇f/∂x    = ∇²f,             ∂∇f/∂c = −∇²f,          ∂∇f/∂θ = −[∇f]× + ∇²f [r]×,
//
// r = x − c, θ the world (left) rotation perturbation R → exp([δθ]×) R. (With δξ = Rᵀ(δx − δc
// + [r]× δθ) and δ(R g) = [δθ]× R g + R A δξ.) A fixed body (the world, a fixed object) has
// c = 0, R = I and no pose derivatives.

#include <Eigen/Core>

#include "quasidyn/geometry/convex_quadrics.h"

namespace quasidyn {

struct PosedQuadric {
  double value = 0.0;                                  // f(x) [m]
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();  // ∇f(x) [-]
  Eigen::Matrix3d hessian = Eigen::Matrix3d::Zero();   // ∇²f(x) [1/m]
  Eigen::Vector3d lever = Eigen::Vector3d::Zero();     // r = x − c [m]
  bool flat = false;  // A = 0 (a plane): ∇²f = 0, and the terms with it are skipped

  // ∂f/∂θ (as a column) and ∂∇f/∂θ of the formulas above.
  Eigen::Vector3d ValueRotationDerivative() const { return gradient.cross(lever); }
  Eigen::Matrix3d GradientRotationDerivative() const;
};

// `quadric` of a body at pose (c, R), evaluated at the world point x.
PosedQuadric EvaluatePosedQuadric(const Quadric& quadric, const Eigen::Vector3d& c,
                                  const Eigen::Matrix3d& R, const Eigen::Vector3d& x);

}  // namespace quasidyn
