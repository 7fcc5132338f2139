#include "quasidyn/geometry/narrow_phase_3d.h"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/geometry/box_box_3d.h"
#include "quasidyn/geometry/capsule_box_3d.h"
#include "quasidyn/geometry/closed_form_3d.h"
#include "quasidyn/geometry/convex_distance_3d.h"
#include "quasidyn/geometry/manifold_3d.h"
#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/geometry/shape_validation.h"

namespace quasidyn {
namespace {

void CheckShape(const Shape& shape) {
  const std::string problem = ShapeProblem3d(shape);
  if (!problem.empty()) throw std::invalid_argument("3D narrow phase: " + problem);
}

void CheckPose(const Eigen::Isometry3d& X, const char* which) {
  if (!X.matrix().allFinite()) {
    throw std::invalid_argument(std::string("3D narrow phase: pose ") + which + " not finite");
  }
}

ContactPoint NarrowPhase3dFlipped(ContactPoint c) {
  std::swap(c.p_A, c.p_B);
  c.normal = -c.normal;
  return c;
}

// GJK/EPA on the shapes' cores; a failure with a message when the answer is not usable.
Outcome Gjk(const CompiledShape3d& a, const Eigen::Isometry3d& X_WA, const CompiledShape3d& b,
            const Eigen::Isometry3d& X_WB, ContactPoint* out) {
  const ConvexDistanceResult result = ConvexSignedDistance3d(a.core, X_WA, b.core, X_WB);
  if (!result.Usable()) return Outcome::Failure(ConvexDistanceFailure(result));
  *out = result.point;
  return Outcome::Ok();
}

Outcome Distance(const CompiledShape3d& ca, const Eigen::Isometry3d& X_WA,
                 const CompiledShape3d& cb, const Eigen::Isometry3d& X_WB, ContactPoint* out);

// Distance(b, a), flipped back to (a, b).
Outcome FlippedDistance(const CompiledShape3d& ca, const Eigen::Isometry3d& X_WA,
                        const CompiledShape3d& cb, const Eigen::Isometry3d& X_WB,
                        ContactPoint* out) {
  Outcome outcome = Distance(cb, X_WB, ca, X_WA, out);
  if (outcome) *out = NarrowPhase3dFlipped(*out);
  return outcome;
}

// Dispatch on the pair of types (shapes already checked, not two half-spaces).
Outcome Distance(const CompiledShape3d& ca, const Eigen::Isometry3d& X_WA,
                 const CompiledShape3d& cb, const Eigen::Isometry3d& X_WB, ContactPoint* out) {
  const Shape& a = *ca.shape;
  const Shape& b = *cb.shape;
  if (b.type == ShapeType::kHalfSpace) {
    *out = ShapeHalfSpaceDistance3d(a, X_WA, X_WB);
    return Outcome::Ok();
  }
  if (a.type == ShapeType::kHalfSpace) return FlippedDistance(ca, X_WA, cb, X_WB, out);
  if (a.type == ShapeType::kSphere) {
    const Eigen::Vector3d center = X_WA.translation();
    switch (b.type) {
      case ShapeType::kSphere:
        *out = SphereSphereDistance3d(center, a.radius, X_WB.translation(), b.radius);
        return Outcome::Ok();
      case ShapeType::kBox:
        *out = SphereBoxDistance3d(center, a.radius, b.size, X_WB);
        return Outcome::Ok();
      case ShapeType::kCapsule:
        *out = SphereCapsuleDistance3d(center, a.radius, b.radius, b.length, X_WB);
        return Outcome::Ok();
      case ShapeType::kCylinder:
        *out = SphereCylinderDistance3d(center, a.radius, b.radius, b.length, X_WB);
        return Outcome::Ok();
      default:
        return Gjk(ca, X_WA, cb, X_WB, out);
    }
  }
  if (b.type == ShapeType::kSphere && a.type != ShapeType::kConvex) {
    return FlippedDistance(ca, X_WA, cb, X_WB, out);
  }
  if (a.type == ShapeType::kCapsule && b.type == ShapeType::kCapsule) {
    *out = CapsuleCapsuleDistance3d(a.radius, a.length, X_WA, b.radius, b.length, X_WB);
    return Outcome::Ok();
  }
  if (a.type == ShapeType::kBox && b.type == ShapeType::kBox) {
    *out = BoxBoxDistance3d(a.size, X_WA, b.size, X_WB);
    return Outcome::Ok();
  }
  if (a.type == ShapeType::kCapsule && b.type == ShapeType::kBox) {
    *out = CapsuleBoxDistance3d(a.radius, a.length, X_WA, b.size, X_WB);
    return Outcome::Ok();
  }
  if (a.type == ShapeType::kBox && b.type == ShapeType::kCapsule) {
    return FlippedDistance(ca, X_WA, cb, X_WB, out);
  }
  return Gjk(ca, X_WA, cb, X_WB, out);
}

}  // namespace

CompiledShape3d CompileShape3d(const Shape& shape) {
  CompiledShape3d compiled;
  compiled.shape = &shape;
  if (shape.type != ShapeType::kHalfSpace) compiled.core = MakeConvexCore3d(shape);
  return compiled;
}

bool PairUsesGjk3d(ShapeType a, ShapeType b) {
  if (a == ShapeType::kHalfSpace || b == ShapeType::kHalfSpace) return false;
  if (a == ShapeType::kSphere && b != ShapeType::kConvex) return false;
  if (b == ShapeType::kSphere && a != ShapeType::kConvex) return false;
  const auto is = [&](ShapeType x, ShapeType y) {
    return (a == x && b == y) || (a == y && b == x);
  };
  return !(is(ShapeType::kCapsule, ShapeType::kCapsule) || is(ShapeType::kBox, ShapeType::kBox) ||
           is(ShapeType::kCapsule, ShapeType::kBox));
}

ContactPoint SignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB) {
  CheckShape(a);
  CheckShape(b);
  CheckPose(X_WA, "X_WA");
  CheckPose(X_WB, "X_WB");
  if (a.type == ShapeType::kHalfSpace && b.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument("3D narrow phase: two half_spaces have no closest pair");
  }
  ContactPoint closest;
  if (Outcome outcome = Distance(CompileShape3d(a), X_WA, CompileShape3d(b), X_WB, &closest);
      !outcome) {
    throw std::runtime_error(outcome.TakeMessage());
  }
  return closest;
}

std::vector<ContactPoint> ContactManifold3d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("3D contact manifold: tolerance must be finite and >= 0, got " +
                                std::to_string(tolerance));
  }
  const ContactPoint closest = SignedDistance3d(a, X_WA, b, X_WB);
  if (closest.phi > tolerance) return {};
  return ContactManifoldFromClosest3d(a, X_WA, b, X_WB, closest, tolerance);
}

Outcome SignedDistance3d(const CompiledShape3d& a, const Eigen::Isometry3d& X_WA,
                         const CompiledShape3d& b, const Eigen::Isometry3d& X_WB,
                         ContactPoint* out) {
  return Distance(a, X_WA, b, X_WB, out);
}

Outcome ContactManifold3d(const CompiledShape3d& a, const Eigen::Isometry3d& X_WA,
                          const CompiledShape3d& b, const Eigen::Isometry3d& X_WB, double tolerance,
                          Manifold3dScratch* scratch, ManifoldPoints* out) {
  out->clear();
  ContactPoint closest;
  if (Outcome outcome = Distance(a, X_WA, b, X_WB, &closest); !outcome || closest.phi > tolerance)
    return outcome;
  ContactManifoldFromClosest3d(*a.shape, X_WA, *b.shape, X_WB, closest, tolerance, scratch, out);
  return Outcome::Ok();
}

}  // namespace quasidyn
