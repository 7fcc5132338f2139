#include "quasidyn/geometry/convex_distance_3d.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "quasidyn/geometry/convex_distance_fault_for_testing.h"
#include "quasidyn/geometry/epa_3d.h"
#include "quasidyn/geometry/gjk_3d.h"

namespace quasidyn {

const char* ConvexDistanceStatusName(ConvexDistanceStatus status) {
  switch (status) {
    case ConvexDistanceStatus::kConverged:
      return "converged";
    case ConvexDistanceStatus::kIterationLimit:
      return "iteration limit";
    case ConvexDistanceStatus::kDegenerate:
      return "stopped by round-off";
  }
  return "unknown";
}

bool ConvexDistanceResult::Usable() const {
  return status == ConvexDistanceStatus::kConverged ||
         error_bound <= kConvexDistanceAcceptance * scale ||
         (point.phi < 0.0 && error_bound <= kConvexDistanceDeepAcceptance * -point.phi);
}

std::string ConvexDistanceFailure(const ConvexDistanceResult& result) {
  char text[256];
  std::snprintf(text, sizeof(text),
                "GJK/EPA signed distance not usable: %s after %d GJK and %d EPA iterations (error "
                "bound %.3g m for a pair of size %.3g m)",
                ConvexDistanceStatusName(result.status), result.gjk_iterations,
                result.epa_iterations, result.error_bound, result.scale);
  return text;
}

ConvexDistanceResult ConvexSignedDistance3d(const ConvexCore3d& a, const Eigen::Isometry3d& X_WA,
                                            const ConvexCore3d& b, const Eigen::Isometry3d& X_WB) {
  const CorePair3d pair(a, X_WA, b, X_WB);
  ConvexDistanceResult result;
  result.scale = pair.scale();
  // The cores' answer in B's frame: φ_core, the normal from B to A, the witness points.
  double phi_core = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();
  const GjkResult gjk = Gjk3d(pair);
  result.gjk_iterations = gjk.iterations;
  if (gjk.outcome != GjkOutcome::kOverlap) {
    phi_core = gjk.distance;
    normal = gjk.closest / gjk.distance;  // |v| > touch tolerance > 0 here
    p_A = gjk.witness_a;
    p_B = gjk.witness_b;
    result.error_bound = gjk.distance - gjk.lower_bound;
    result.status = gjk.outcome == GjkOutcome::kSeparated ? ConvexDistanceStatus::kConverged
                    : gjk.outcome == GjkOutcome::kStalled ? ConvexDistanceStatus::kDegenerate
                                                          : ConvexDistanceStatus::kIterationLimit;
  } else {
    const EpaResult epa = Epa3d(pair, gjk);
    result.epa_iterations = epa.iterations;
    phi_core = -epa.depth;
    normal = -epa.normal;
    p_A = epa.witness_a;
    p_B = epa.witness_b;
    result.error_bound = std::max(0.0, epa.upper_bound - epa.depth);
    switch (epa.outcome) {
      case EpaOutcome::kConverged:
      case EpaOutcome::kFlat:
        result.status = ConvexDistanceStatus::kConverged;
        break;
      case EpaOutcome::kVertexLimit:
        result.status = ConvexDistanceStatus::kIterationLimit;
        break;
      case EpaOutcome::kDegenerate:
        result.status = ConvexDistanceStatus::kDegenerate;
        break;
    }
  }
  // The margins: each shape is its core grown by its margin along the normal.
  p_A -= a.margin * normal;
  p_B += b.margin * normal;
  const Eigen::Matrix3d& R_WB = X_WB.linear();
  ContactPoint& c = result.point;
  c.phi = phi_core - a.margin - b.margin;
  c.normal = R_WB * normal;
  c.p_A = R_WB * p_A + X_WB.translation();
  c.p_B = R_WB * p_B + X_WB.translation();
  if (ConvexDistanceFaultActiveForTesting()) {
    result.status = ConvexDistanceStatus::kDegenerate;
    result.error_bound = std::numeric_limits<double>::infinity();
  }
  return result;
}

}  // namespace quasidyn
