// The narrow phase's GJK/EPA on shapes anywhere within the scene loader's limits
// (io/loader_limits.h: dimensions in [1e-5, 1e3] m, aspect ratio <= 1e5), and on the pairs
// where FCL 0.7 aborted the process or ran for seconds to minutes (reproducers found by
// running FCL on such random pairs, each query in a child process with a CPU-time limit, then
// rounding the numbers and dropping convex vertices while FCL kept failing).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/geometry/convex_distance_3d.h"
#include "quasidyn/geometry/epa_3d.h"
#include "quasidyn/geometry/gjk_3d.h"
#include "quasidyn/geometry/gjk_simplex_3d.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/io/loader_limits.h"

namespace quasidyn {
namespace {

using Eigen::Isometry3d;
using Eigen::Vector3d;

constexpr double kEps = std::numeric_limits<double>::epsilon();

double LogUniform(std::mt19937_64* random, double low, double high) {
  return std::exp(std::uniform_real_distribution<double>(std::log(low), std::log(high))(*random));
}

// `count` dimensions log-uniform in the loader's range, redrawn until within its aspect ratio.
std::vector<double> Dimensions(std::mt19937_64* random, int count) {
  for (;;) {
    std::vector<double> d;
    for (int i = 0; i < count; ++i) d.push_back(LogUniform(random, kMinShapeSize, kMaxShapeSize));
    const auto [low, high] = std::minmax_element(d.begin(), d.end());
    if (*high <= kMaxShapeAspectRatio * *low) return d;
  }
}

// A shape of `kind` (the pairs that go through GJK/EPA: 0 cylinder, 1 box, 2 convex,
// 3 capsule, 4 sphere) with dimensions anywhere the loader accepts.
Shape ConvexDistance3dStressRandomShape(std::mt19937_64* random, int kind) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Shape s;
  switch (kind) {
    case 0: {
      const std::vector<double> d = Dimensions(random, 2);
      s.type = ShapeType::kCylinder;
      s.radius = d[0];
      s.length = d[1];
      break;
    }
    case 1: {
      const std::vector<double> d = Dimensions(random, 3);
      s.type = ShapeType::kBox;
      s.size = {d[0], d[1], d[2]};
      break;
    }
    case 2: {
      const std::vector<double> d = Dimensions(random, 3);
      s.type = ShapeType::kConvex;
      const int count = 4 + static_cast<int>((*random)() % 17);
      for (int i = 0; i < count; ++i) {
        s.vertices.push_back(
            0.5 * Vector3d(d[0] * unit(*random), d[1] * unit(*random), d[2] * unit(*random)));
      }
      break;
    }
    case 3: {
      const std::vector<double> d = Dimensions(random, 2);
      s.type = ShapeType::kCapsule;
      s.radius = d[0];
      s.length = d[1];
      break;
    }
    default:
      s.type = ShapeType::kSphere;
      s.radius = LogUniform(random, kMinShapeSize, kMaxShapeSize);
      break;
  }
  return s;
}

// The shape pairs that have no closed form (narrow_phase_3d.h), as kinds of
// ConvexDistance3dStressRandomShape.
constexpr int kConvexDistance3dStressGjkPairs[][2] = {{0, 1}, {0, 3}, {0, 0}, {2, 0},
                                                      {2, 1}, {2, 2}, {2, 3}, {2, 4}};

Isometry3d RandomRotation(std::mt19937_64* random) {
  std::normal_distribution<double> normal;
  Isometry3d X = Isometry3d::Identity();
  X.linear() =
      Eigen::Quaterniond(normal(*random), normal(*random), normal(*random), normal(*random))
          .normalized()
          .toRotationMatrix();
  return X;
}

TEST(ConvexDistanceStress, EveryPairWithinTheLoaderLimitsGetsABoundedFiniteAnswer) {
  // Shapes of any accepted size (a 10 µm cube against a 1 km capsule), placed from deep
  // overlap to well apart: every query ends within the iteration caps, with a finite answer
  // whose status says how exact it is, and the narrow phase accepts it.
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int converged = 0;
  int usable = 0;
  int overlapping = 0;
  int max_gjk = 0;
  int max_epa = 0;
  double worst_bound = 0.0;
  const int trials = 4000;
  for (int trial = 0; trial < trials; ++trial) {
    const auto& kinds = kConvexDistance3dStressGjkPairs[trial % 8];
    const Shape a = ConvexDistance3dStressRandomShape(&random, kinds[0]);
    const Shape b = ConvexDistance3dStressRandomShape(&random, kinds[1]);
    const ConvexCore3d core_a = MakeConvexCore3d(a);
    const ConvexCore3d core_b = MakeConvexCore3d(b);
    Isometry3d X_WA = RandomRotation(&random);
    Isometry3d X_WB = RandomRotation(&random);
    const double big = std::max(core_a.bounding_radius, core_b.bounding_radius);
    const double small = std::min(core_a.bounding_radius, core_b.bounding_radius);
    // Offsets from within the larger shape to beyond both.
    const Vector3d direction = Vector3d(unit(random), unit(random), unit(random)).normalized();
    const double offset = trial % 3 == 0   ? (big + small) * 1.2 * std::abs(unit(random))
                          : trial % 3 == 1 ? big * std::abs(unit(random)) + small * unit(random)
                                           : small * LogUniform(&random, 1e-3, 10);
    X_WA.translation() = offset * direction;
    X_WB.translation() = small * Vector3d(unit(random), unit(random), unit(random));

    const ConvexDistanceResult r = ConvexSignedDistance3d(core_a, X_WA, core_b, X_WB);
    const ContactPoint& c = r.point;
    ASSERT_TRUE(std::isfinite(c.phi) && c.p_A.allFinite() && c.p_B.allFinite() &&
                c.normal.allFinite())
        << "trial " << trial;
    EXPECT_NEAR(c.normal.norm(), 1.0, 16 * kEps) << "trial " << trial;
    EXPECT_LT((c.p_A - c.p_B - c.phi * c.normal).norm(), 1e-9 * r.scale) << "trial " << trial;
    EXPECT_LE(r.gjk_iterations, kGjkMaxIterations);
    EXPECT_LE(r.epa_iterations, kEpaMaxVertices - 4);
    EXPECT_GE(r.error_bound, 0.0);
    EXPECT_TRUE(r.Usable()) << "trial " << trial << ": " << ConvexDistanceFailure(r);
    converged += r.status == ConvexDistanceStatus::kConverged;
    usable += r.Usable();
    overlapping += c.phi < 0;
    max_gjk = std::max(max_gjk, r.gjk_iterations);
    max_epa = std::max(max_epa, r.epa_iterations);
    if (r.status != ConvexDistanceStatus::kConverged) {
      worst_bound = std::max(worst_bound, r.error_bound / r.scale);
    }
  }
  EXPECT_GT(overlapping, trials / 4);
  EXPECT_LT(overlapping, trials * 3 / 4);
  // Most queries meet their tolerance; the rest are bounded (deep overlaps of large
  // cylinders fill EPA's polytope, curved GJK stalls on round-off).
  EXPECT_GT(converged, trials * 95 / 100);
  std::printf(
      "%d pairs within the loader limits: %d converged, %d usable, %d overlapping; at most %d "
      "GJK and %d EPA iterations; worst relative error bound when not converged %.2e\n",
      trials, converged, usable, overlapping, max_gjk, max_epa, worst_bound);
}

// A pair of shapes at poses, as found (shape sizes and poses rounded while FCL kept failing).
struct Reproducer {
  const char* name;
  const char* what_fcl_did;
  Shape a;
  Isometry3d X_WA;
  Shape b;
  Isometry3d X_WB;
};

Shape Cylinder(double r, double l) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = r;
  s.length = l;
  return s;
}
Shape Capsule(double r, double l) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = r;
  s.length = l;
  return s;
}
Shape Sphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}
Shape Convex(std::vector<Vector3d> vertices) {
  Shape s;
  s.type = ShapeType::kConvex;
  s.vertices = std::move(vertices);
  return s;
}
// Translation t and the rotation of the quaternion (w, x, y, z), normalised.
Isometry3d Pose(const Vector3d& t, double w = 1, double x = 0, double y = 0, double z = 0) {
  Isometry3d X = Isometry3d::Identity();
  X.linear() = Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
  X.translation() = t;
  return X;
}

std::vector<Reproducer> FclReproducers() {
  return {
      {"cylinder-capsule 0.1 mm", "aborts: gjk_libccd-inl.h EPA assertion", Cylinder(1e-4, 1e-4),
       Pose({1.1e-4, -7e-5, -6e-5}), Capsule(1e-4, 1e-5),
       Pose({2e-5, 4e-6, 4e-5}, -0.04, 0.7, -0.2, 0.7)},
      {"convex-sphere 0.3 mm", "aborts: gjk_libccd-inl.h EPA assertion",
       Convex(
           {{8e-6, -7e-5, 3e-5}, {7e-6, 1.5e-4, -9e-7}, {-4e-6, 3e-4, 3e-5}, {1e-6, 2e-4, -4e-6}}),
       Pose({8e-5, -2e-5, 6e-5}, 1.0, -0.2, -0.08, 0.2), Sphere(3e-4),
       Pose({1.1e-4, -4e-5, -2e-4})},
      {"cylinder 4 cm in a capsule of radius 90 m",
       "runs without an answer for 5 minutes of CPU (GJKSignedDistance)", Cylinder(0.04, 0.02),
       Pose({7e-4, -7e-4, 2e-4}), Capsule(90, 0.01), Pose({0.01, -0.05, -0.04})},
      {"1 mm tetrahedron in a sphere of radius 0.5 m", "takes 8 s of CPU (GJKSignedDistance)",
       Convex({{3e-4, 3e-5, -4e-5}, {1e-4, 3e-6, 2e-5}, {1e-3, 3e-5, -1e-5}, {1e-3, -3e-5, -4e-5}}),
       Pose({9e-5, -9e-5, 5e-5}, 0.7, -0.4, 0.1, -0.5), Sphere(0.5), Pose({6e-5, 1e-3, 3e-4})},
      {"2 m needle in a capsule of radius 100 m", "takes 13 s of CPU (GJKSignedDistance)",
       Convex({{-8e-4, -1, -6e-4}, {5e-5, -0.4, 1e-3}, {9e-4, -2, -2e-3}, {8e-4, -1, -1e-3}}),
       Pose({-0.04, 0.03, -0.05}, 0.7, 0.4, 0.4, -0.4), Capsule(100, 0.3),
       Pose({-0.1, -0.2, -0.4})},
  };
}

// The signed distance of the origin from the hull of `points` by brute force: when outside,
// the least distance to a triangle of any three of the points (the simplex sub-algorithm,
// itself checked against brute force in gjk_simplex_3d_test.cc); when inside (some four of
// them enclose it), minus the least offset of the hull's face planes (triples with every
// point on one side).
double HullSignedDistanceOfOrigin(const std::vector<Vector3d>& points) {
  const int n = static_cast<int>(points.size());
  double size = 0.0;
  for (const Vector3d& p : points) size = std::max(size, p.norm());
  bool inside = false;
  double distance = std::numeric_limits<double>::infinity();
  double depth = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        const Vector3d triangle[3] = {points[i], points[j], points[k]};
        distance = std::min(distance, ClosestPointOfSimplex3d(triangle, 3).closest.norm());
        const Vector3d normal = (points[j] - points[i]).cross(points[k] - points[i]);
        if (normal.norm() <= 1e-12 * size * size) continue;
        const Vector3d unit = normal.normalized();
        double low = 0.0;
        double high = 0.0;
        for (const Vector3d& p : points) {
          low = std::min(low, unit.dot(p - points[i]));
          high = std::max(high, unit.dot(p - points[i]));
        }
        // A face plane: every point on one side (to round-off); its offset from the origin.
        if (high <= 1e-12 * size) depth = std::min(depth, unit.dot(points[i]));
        if (low >= -1e-12 * size) depth = std::min(depth, -unit.dot(points[i]));
        for (int l = k + 1; l < n; ++l) {
          const Vector3d tetrahedron[4] = {points[i], points[j], points[k], points[l]};
          inside = inside || ClosestPointOfSimplex3d(tetrahedron, 4).contains_origin;
        }
      }
    }
  }
  return inside ? -depth : distance;
}

// The Minkowski difference of the world points of two cores.
std::vector<Vector3d> Difference(const std::vector<Vector3d>& a, const std::vector<Vector3d>& b) {
  std::vector<Vector3d> difference;
  for (const Vector3d& p : a) {
    for (const Vector3d& q : b) difference.push_back(p - q);
  }
  return difference;
}

TEST(ConvexDistanceStress, PairsThatBrokeFclGetExactAnswers) {
  for (const Reproducer& pair : FclReproducers()) {
    SCOPED_TRACE(std::string(pair.name) + " (FCL 0.7 " + pair.what_fcl_did + ")");
    const ContactPoint closest = SignedDistance3d(pair.a, pair.X_WA, pair.b, pair.X_WB);
    const ConvexDistanceResult r = ConvexSignedDistance3d(MakeConvexCore3d(pair.a), pair.X_WA,
                                                          MakeConvexCore3d(pair.b), pair.X_WB);
    EXPECT_EQ(r.status, ConvexDistanceStatus::kConverged);
    EXPECT_EQ(closest.phi, r.point.phi);  // the narrow phase is this query
    EXPECT_TRUE(std::isfinite(closest.phi));
    const std::vector<ContactPoint> manifold =
        ContactManifold3d(pair.a, pair.X_WA, pair.b, pair.X_WB, 1e-3);
    EXPECT_FALSE(manifold.empty());
    for (const ContactPoint& c : manifold) EXPECT_TRUE(std::isfinite(c.phi));
  }
}

TEST(ConvexDistanceStress, ReproducersMatchIndependentValues) {
  const std::vector<Reproducer> pairs = FclReproducers();
  // 1. Cylinder–capsule of 0.1 mm: bracketed by the cylinder's inscribed and circumscribed
  //    prisms (polytope cores, exact), 4096 sides: 2.9e-7 r apart.
  {
    const Reproducer& pair = pairs[0];
    const double r = pair.a.radius;
    const double l = pair.a.length;
    auto prism = [&](bool circumscribed) {
      std::vector<Vector3d> vertices;
      const int sides = 4096;
      const double radius = circumscribed ? r / std::cos(std::numbers::pi / sides) : r;
      for (int k = 0; k < sides; ++k) {
        const double angle = 2 * std::numbers::pi * k / sides;
        for (double z : {-0.5 * l, 0.5 * l}) {
          vertices.emplace_back(radius * std::cos(angle), radius * std::sin(angle), z);
        }
      }
      return Convex(vertices);
    };
    const double phi = SignedDistance3d(pair.a, pair.X_WA, pair.b, pair.X_WB).phi;
    const double inner = SignedDistance3d(prism(false), pair.X_WA, pair.b, pair.X_WB).phi;
    const double outer = SignedDistance3d(prism(true), pair.X_WA, pair.b, pair.X_WB).phi;
    EXPECT_LT(outer - 1e-18, phi);
    EXPECT_LT(phi, inner + 1e-18);
    EXPECT_LT(inner - outer, 3e-7 * r);
    EXPECT_LT(phi, 0.0);
  }
  // 2, 4, 5. A tetrahedron against a sphere or a capsule: the cores (the tetrahedron, the
  //    sphere's centre or the capsule's segment) by brute force over their Minkowski
  //    difference, minus the radius.
  for (int index : {1, 3, 4}) {
    const Reproducer& pair = pairs[index];
    SCOPED_TRACE(pair.name);
    std::vector<Vector3d> tetrahedron;
    for (const Vector3d& v : pair.a.vertices) tetrahedron.push_back(pair.X_WA * v);
    std::vector<Vector3d> core = {pair.X_WB.translation()};
    if (pair.b.type == ShapeType::kCapsule) {
      const Vector3d half = pair.X_WB.linear() * Vector3d(0, 0, 0.5 * pair.b.length);
      core = {pair.X_WB.translation() - half, pair.X_WB.translation() + half};
    }
    const double expected =
        HullSignedDistanceOfOrigin(Difference(tetrahedron, core)) - pair.b.radius;
    const ConvexDistanceResult r = ConvexSignedDistance3d(MakeConvexCore3d(pair.a), pair.X_WA,
                                                          MakeConvexCore3d(pair.b), pair.X_WB);
    EXPECT_NEAR(SignedDistance3d(pair.a, pair.X_WA, pair.b, pair.X_WB).phi, expected,
                256 * kEps * r.scale);
  }
  // 3. A disc (cylinder r 0.04, l 0.02, axis z) beside and above the core segment of a
  //    capsule (radius 90, core 0.01 long along z, axes parallel): the cores' distance is
  //    hypot(horizontal gap, vertical gap), φ that minus 90.
  {
    const Reproducer& pair = pairs[2];
    const Vector3d c = pair.X_WA.translation();
    const Vector3d s = pair.X_WB.translation();
    const double horizontal = std::hypot(c.x() - s.x(), c.y() - s.y()) - pair.a.radius;
    const double vertical = (c.z() - 0.5 * pair.a.length) - (s.z() + 0.5 * pair.b.length);
    ASSERT_GT(horizontal, 0.0);
    ASSERT_GT(vertical, 0.0);
    EXPECT_NEAR(SignedDistance3d(pair.a, pair.X_WA, pair.b, pair.X_WB).phi,
                std::hypot(horizontal, vertical) - pair.b.radius, 256 * kEps * 90);
  }
}

}  // namespace
}  // namespace quasidyn
