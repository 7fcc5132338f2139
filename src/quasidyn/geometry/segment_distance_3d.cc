#include "quasidyn/geometry/segment_distance_3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace quasidyn {
namespace {

double Clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

// Relative threshold under which a squared length counts as zero or two directions as
// parallel: a few ulps above machine epsilon.
constexpr double kRelativeZero = 64.0 * std::numeric_limits<double>::epsilon();

}  // namespace

SegmentClosestPoints ClosestPointsOfSegments(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                                             const Eigen::Vector3d& q0, const Eigen::Vector3d& q1) {
  // Notation of Ericson §5.1.9: d1 = p1 − p0, d2 = q1 − q0, r = p0 − q0,
  // a = d1·d1, e = d2·d2, f = d2·r, b = d1·d2, c = d1·r.
  const Eigen::Vector3d d1 = p1 - p0;
  const Eigen::Vector3d d2 = q1 - q0;
  const Eigen::Vector3d r = p0 - q0;
  const double a = d1.squaredNorm();
  const double e = d2.squaredNorm();
  const double f = d2.dot(r);
  const double scale = std::max({a, e, r.squaredNorm(), 1e-300});
  SegmentClosestPoints out;
  double s = 0.0;
  double t = 0.0;
  if (a <= kRelativeZero * scale && e <= kRelativeZero * scale) {
    s = t = 0.0;  // both segments are points
  } else if (a <= kRelativeZero * scale) {
    s = 0.0;  // P is a point: project it onto Q
    t = Clamp01(f / e);
  } else {
    const double c = d1.dot(r);
    if (e <= kRelativeZero * scale) {
      t = 0.0;  // Q is a point: project it onto P
      s = Clamp01(-c / a);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;  // = |d1 × d2|², >= 0
      if (denom > kRelativeZero * a * e) {
        // Not parallel: closest points of the infinite lines, s clamped to P, then t
        // recomputed for that s and clamped, then s recomputed for the clamped t.
        s = Clamp01((b * f - c * e) / denom);
        t = (b * s + f) / e;
        if (t < 0.0) {
          t = 0.0;
          s = Clamp01(-c / a);
        } else if (t > 1.0) {
          t = 1.0;
          s = Clamp01((b - c) / a);
        }
      } else {
        // Parallel: the parameters on P of Q's end points are s(q0) = −c/a and
        // s(q1) = (b − c)/a. Take the middle of their overlap with [0, 1]; if they do
        // not overlap, the P end nearest to Q.
        const double s_q0 = -c / a;
        const double s_q1 = (b - c) / a;
        const double lo = std::max(0.0, std::min(s_q0, s_q1));
        const double hi = std::min(1.0, std::max(s_q0, s_q1));
        if (lo <= hi) {
          s = 0.5 * (lo + hi);
        } else {
          s = std::min(s_q0, s_q1) > 1.0 ? 1.0 : 0.0;
        }
        t = Clamp01((b * s + f) / e);
        s = Clamp01((b * t - c) / a);
      }
    }
  }
  out.s = s;
  out.t = t;
  out.on_p = p0 + s * d1;
  out.on_q = q0 + t * d2;
  return out;
}

}  // namespace quasidyn
