// GJK/EPA signed distance (convex_distance_3d.h): hand-computed pairs, the closed forms on
// thousands of random pairs, cylinders bracketed by inscribed and circumscribed prisms, and
// the properties the header promises (symmetry, invariance, exact scaling, determinism, no
// heap allocation, a status for every outcome).
#include "quasidyn/geometry/convex_distance_3d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "quasidyn/geometry/box_box_3d.h"
#include "quasidyn/geometry/capsule_box_3d.h"
#include "quasidyn/geometry/closed_form_3d.h"
#include "quasidyn/geometry/convex_distance_fault_for_testing.h"
#include "quasidyn/geometry/epa_3d.h"
#include "quasidyn/geometry/gjk_3d.h"
#include "quasidyn/geometry/support_3d.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

using Eigen::Isometry3d;
using Eigen::Vector3d;

constexpr double kConvexDistance3dEps = std::numeric_limits<double>::epsilon();
// Round-off of an answer on polytope cores, relative to the pair's scale: a few hundred ulps
// (the closed forms carry their own rounding too).
constexpr double kRoundOff = 256 * kConvexDistance3dEps;

Shape MakeSphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}
Shape MakeBox(const Vector3d& size) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = size;
  return s;
}
Shape MakeCapsule(double r, double l) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = r;
  s.length = l;
  return s;
}
Shape MakeCylinder(double r, double l) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = r;
  s.length = l;
  return s;
}
// A box given as a convex vertex set.
Shape MakeConvexBox(const Vector3d& size) {
  Shape s;
  s.type = ShapeType::kConvex;
  s.vertices = BoxCorners(size);
  return s;
}
// A prism of `sides` sides about the z axis whose side faces are tangent to (circumscribed)
// or whose edges lie on (inscribed) the cylinder (r, l).
Shape MakePrism(double r, double l, int sides, bool circumscribed) {
  Shape s;
  s.type = ShapeType::kConvex;
  const double radius = circumscribed ? r / std::cos(std::numbers::pi / sides) : r;
  for (int k = 0; k < sides; ++k) {
    const double angle = 2 * std::numbers::pi * k / sides;
    for (double z : {-0.5 * l, 0.5 * l}) {
      s.vertices.emplace_back(radius * std::cos(angle), radius * std::sin(angle), z);
    }
  }
  return s;
}

Isometry3d Pose(double x, double y, double z, double angle = 0.0,
                const Vector3d& axis = Vector3d::UnitZ()) {
  Isometry3d X = Isometry3d::Identity();
  X.translation() = Vector3d(x, y, z);
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

Isometry3d RandomPose(std::mt19937* random, double spread) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> coordinate(-spread, spread);
  Isometry3d X = Isometry3d::Identity();
  X.linear() =
      Eigen::Quaterniond(normal(*random), normal(*random), normal(*random), normal(*random))
          .normalized()
          .toRotationMatrix();
  X.translation() = Vector3d(coordinate(*random), coordinate(*random), coordinate(*random));
  return X;
}

ConvexDistanceResult Ours(const Shape& a, const Isometry3d& X_WA, const Shape& b,
                          const Isometry3d& X_WB) {
  const ConvexCore3d core_a = MakeConvexCore3d(a);
  const ConvexCore3d core_b = MakeConvexCore3d(b);
  return ConvexSignedDistance3d(core_a, X_WA, core_b, X_WB);
}

double Scale(const Shape& a, const Shape& b) {
  return MakeConvexCore3d(a).bounding_radius + MakeConvexCore3d(b).bounding_radius;
}

// What every answer satisfies, to `tolerance` [m]: a unit normal, p_A − p_B = φ n, and each
// witness point extreme on its shape along the normal (p_A supports A along −n, p_B supports
// B along +n: the contact planes of both the separated and the penetrating answer).
void ExpectWitnessesOnSupportPlanes(const ContactPoint& c, const Shape& a, const Isometry3d& X_WA,
                                    const Shape& b, const Isometry3d& X_WB, double tolerance) {
  ASSERT_TRUE(std::isfinite(c.phi) && c.p_A.allFinite() && c.p_B.allFinite());
  EXPECT_NEAR(c.normal.norm(), 1.0, 16 * kConvexDistance3dEps);
  EXPECT_LT((c.p_A - c.p_B - c.phi * c.normal).norm(), tolerance);
  const Vector3d support_A = SupportPoint3d(a, X_WA, -c.normal);
  const Vector3d support_B = SupportPoint3d(b, X_WB, c.normal);
  EXPECT_NEAR(c.normal.dot(c.p_A), c.normal.dot(support_A), tolerance);
  EXPECT_NEAR(c.normal.dot(c.p_B), c.normal.dot(support_B), tolerance);
}

TEST(ConvexDistance3d, HandComputedPairs) {
  const Isometry3d I = Isometry3d::Identity();
  const Shape cube = MakeBox({1, 1, 1});
  const double tol = kRoundOff * 4;
  // Cylinder r 0.5, l 1 standing 0.2 above a unit cube / penetrating 0.1: its flat end is a
  // face of the Minkowski difference, exact.
  ConvexDistanceResult r = Ours(MakeCylinder(0.5, 1), Pose(0.1, 0, 1.2), cube, I);
  EXPECT_EQ(r.status, ConvexDistanceStatus::kConverged);
  EXPECT_NEAR(r.point.phi, 0.2, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  r = Ours(MakeCylinder(0.5, 1), Pose(0.1, 0, 0.9), cube, I);
  EXPECT_NEAR(r.point.phi, -0.1, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  EXPECT_GT(r.epa_iterations, 0);
  // Capsule r 0.2, l 1 upright, its bottom 0.4 into the cube's top face z = 0.5.
  r = Ours(MakeCapsule(0.2, 1), Pose(0.1, 0, 0.8), cube, I);
  EXPECT_NEAR(r.point.phi, -0.4, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  // Two cylinders side by side, axes parallel to z, 1.3 apart: φ = 1.3 − 1, normal +x (GJK
  // on curved cores: to its tolerance).
  r = Ours(MakeCylinder(0.5, 1), Pose(1.3, 0, 0.2), MakeCylinder(0.5, 2), I);
  EXPECT_NEAR(r.point.phi, 0.3, kGjkRelativeTolerance * (r.scale + 0.3) + tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitX()).norm(), 1e-12);
  // Cylinder–capsule end to end along z: gap 1.75 − 0.5 − 1.3.
  r = Ours(MakeCylinder(0.5, 1), Pose(0, 0, 1.75), MakeCapsule(0.3, 2), I);
  EXPECT_NEAR(r.point.phi, 1.75 - 0.5 - 1.3, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  // A cube given as a convex vertex set behaves as the box; a sphere on it.
  r = Ours(MakeConvexBox({1, 1, 1}), Pose(0.3, 0.2, 0.9), cube, I);
  EXPECT_NEAR(r.point.phi, -0.1, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  r = Ours(MakeSphere(0.5), Pose(0, 0, 1.5), MakeConvexBox({1, 1, 1}), I);
  EXPECT_NEAR(r.point.phi, 0.5, tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), tol);
  EXPECT_LT((r.point.p_A - Vector3d(0, 0, 1)).norm(), tol);
  EXPECT_LT((r.point.p_B - Vector3d(0, 0, 0.5)).norm(), tol);
  // Cylinder lying across a box edge-on: axis along y at height 0.5 + 0.5 − 0.05 above the
  // cube's centre, so its side sinks 0.05 into the top face; the depth is exact on the flat
  // direction of the side (a ruled surface), the normal +z.
  r = Ours(MakeCylinder(0.5, 2), Pose(0.2, 0, 0.95, std::numbers::pi / 2, {1, 0, 0}), cube, I);
  EXPECT_NEAR(r.point.phi, -0.05, kEpaRelativeTolerance * r.scale + tol);
  EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), 1e-4);
}

TEST(ConvexDistance3d, TouchingShapesGetTheFaceNormal) {
  // Exactly touching: GJK's v vanishes, EPA gives the face normal and φ = 0.
  const Isometry3d I = Isometry3d::Identity();
  for (const Shape& top : {MakeBox({1, 1, 1}), MakeCylinder(0.4, 1), MakeConvexBox({1, 1, 1})}) {
    const ConvexDistanceResult r = Ours(top, Pose(0.2, 0.1, 1.0), MakeBox({1, 1, 1}), I);
    EXPECT_EQ(r.status, ConvexDistanceStatus::kConverged);
    EXPECT_NEAR(r.point.phi, 0.0, 4 * kRoundOff);
    EXPECT_LT((r.point.normal - Vector3d::UnitZ()).norm(), 1e-12) << r.point.normal.transpose();
  }
}

TEST(ConvexDistance3d, CoresWithoutVolumeAreExact) {
  // Concentric spheres (two point cores), capsules whose axes cross (two segments in a
  // plane), collinear overlapping capsules: the Minkowski difference of the cores is flat
  // and the depth is the sum of the radii, along a normal of its hull.
  const Isometry3d I = Isometry3d::Identity();
  ConvexDistanceResult r = Ours(MakeSphere(0.3), I, MakeSphere(0.2), I);
  EXPECT_EQ(r.status, ConvexDistanceStatus::kConverged);
  EXPECT_NEAR(r.point.phi, -0.5, kRoundOff);
  EXPECT_NEAR(r.point.normal.norm(), 1.0, kRoundOff);
  r = Ours(MakeCapsule(0.1, 1), Pose(0, 0, 0, std::numbers::pi / 2, {1, 0, 0}), MakeCapsule(0.2, 1),
           Pose(0, 0, 0, std::numbers::pi / 2, {0, 1, 0}));
  EXPECT_NEAR(r.point.phi, -0.3, kRoundOff);
  EXPECT_NEAR(std::abs(r.point.normal.z()), 1.0, kRoundOff);  // normal to both axes: ±z
  r = Ours(MakeCapsule(0.1, 1), Pose(0, 0, 0.3), MakeCapsule(0.2, 1), I);
  EXPECT_NEAR(r.point.phi, -0.3, kRoundOff);
  EXPECT_NEAR(r.point.normal.z(), 0.0, kRoundOff);  // any normal to the common axis
  ExpectWitnessesOnSupportPlanes(r.point, MakeCapsule(0.1, 1), Pose(0, 0, 0.3), MakeCapsule(0.2, 1),
                                 I, kRoundOff);
}

// One family of pairs with a closed form: the shapes and the reference.
struct ClosedFormCase {
  const char* name;
  Shape (*make_a)(std::mt19937*);
  Shape (*make_b)(std::mt19937*);
  ContactPoint (*exact)(const Shape&, const Isometry3d&, const Shape&, const Isometry3d&);
  bool polytope_cores;  // exact to round-off (else a cylinder: to its tolerance)
};

double Uniform(std::mt19937* random, double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(*random);
}
Vector3d RandomSize(std::mt19937* random) {
  return {Uniform(random, 0.2, 2), Uniform(random, 0.2, 2), Uniform(random, 0.2, 2)};
}

const ClosedFormCase kClosedForms[] = {
    {"box-box", [](std::mt19937* r) { return MakeBox(RandomSize(r)); },
     [](std::mt19937* r) { return MakeBox(RandomSize(r)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return BoxBoxDistance3d(a.size, X_A, b.size, X_B);
     },
     true},
    {"convex box-box", [](std::mt19937* r) { return MakeConvexBox(RandomSize(r)); },
     [](std::mt19937* r) { return MakeBox(RandomSize(r)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       Vector3d size = Vector3d::Zero();
       for (const Vector3d& v : a.vertices) size = size.cwiseMax(2 * v.cwiseAbs());
       return BoxBoxDistance3d(size, X_A, b.size, X_B);
     },
     true},
    {"sphere-box", [](std::mt19937* r) { return MakeSphere(Uniform(r, 0.1, 1)); },
     [](std::mt19937* r) { return MakeBox(RandomSize(r)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return SphereBoxDistance3d(X_A.translation(), a.radius, b.size, X_B);
     },
     true},
    {"capsule-box",
     [](std::mt19937* r) { return MakeCapsule(Uniform(r, 0.1, 1), Uniform(r, 0.2, 2)); },
     [](std::mt19937* r) { return MakeBox(RandomSize(r)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return CapsuleBoxDistance3d(a.radius, a.length, X_A, b.size, X_B);
     },
     true},
    {"capsule-capsule",
     [](std::mt19937* r) { return MakeCapsule(Uniform(r, 0.1, 1), Uniform(r, 0.2, 2)); },
     [](std::mt19937* r) { return MakeCapsule(Uniform(r, 0.1, 1), Uniform(r, 0.2, 2)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return CapsuleCapsuleDistance3d(a.radius, a.length, X_A, b.radius, b.length, X_B);
     },
     true},
    {"sphere-capsule", [](std::mt19937* r) { return MakeSphere(Uniform(r, 0.1, 1)); },
     [](std::mt19937* r) { return MakeCapsule(Uniform(r, 0.1, 1), Uniform(r, 0.2, 2)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return SphereCapsuleDistance3d(X_A.translation(), a.radius, b.radius, b.length, X_B);
     },
     true},
    {"sphere-sphere", [](std::mt19937* r) { return MakeSphere(Uniform(r, 0.1, 1)); },
     [](std::mt19937* r) { return MakeSphere(Uniform(r, 0.1, 1)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return SphereSphereDistance3d(X_A.translation(), a.radius, X_B.translation(), b.radius);
     },
     true},
    {"sphere-cylinder", [](std::mt19937* r) { return MakeSphere(Uniform(r, 0.1, 1)); },
     [](std::mt19937* r) { return MakeCylinder(Uniform(r, 0.1, 1), Uniform(r, 0.2, 2)); },
     [](const Shape& a, const Isometry3d& X_A, const Shape& b, const Isometry3d& X_B) {
       return SphereCylinderDistance3d(X_A.translation(), a.radius, b.radius, b.length, X_B);
     },
     false},
};

class ConvexDistanceClosedForm : public ::testing::TestWithParam<ClosedFormCase> {};

TEST_P(ConvexDistanceClosedForm, AgreesAtRandomPoses) {
  const ClosedFormCase& family = GetParam();
  std::mt19937 random(7);
  int penetrating = 0;
  double worst_phi = 0.0;
  double worst_normal = 0.0;
  const int trials = 2000;
  for (int trial = 0; trial < trials; ++trial) {
    const Shape a = family.make_a(&random);
    const Shape b = family.make_b(&random);
    const Isometry3d X_WA = RandomPose(&random, 1.5);
    const Isometry3d X_WB = RandomPose(&random, 0.2);
    const ContactPoint exact = family.exact(a, X_WA, b, X_WB);
    const ConvexDistanceResult ours = Ours(a, X_WA, b, X_WB);
    ASSERT_TRUE(ours.Usable()) << ConvexDistanceFailure(ours);
    const double scale = Scale(a, b);
    // Polytope cores: round-off. A cylinder: GJK's and EPA's tolerances and what they
    // proved (error_bound), plus round-off.
    const double phi_tol =
        family.polytope_cores
            ? kRoundOff * scale
            : std::max(ours.error_bound,
                       std::max(kGjkRelativeTolerance, kEpaRelativeTolerance) * scale) +
                  kRoundOff * scale;
    EXPECT_NEAR(ours.point.phi, exact.phi, phi_tol) << family.name << " trial " << trial;
    worst_phi = std::max(worst_phi, std::abs(ours.point.phi - exact.phi) / scale);
    // The normal's error is the witness error over |φ| (direction of p_A − p_B); on a curved
    // core, a φ error δ tilts it by up to √(2δ/r) (r >= 0.1 here, the smallest radius). An
    // overlap of a curved core can have a nearly flat depth over directions (a sphere's
    // centre near a cylinder's axis), where the normal is ill-conditioned: there the check
    // of the witnesses on the support planes below is the test.
    // EPA's normal is that of a face of the Minkowski difference, a cross product of edges
    // at least the smallest dimension of these shapes long (0.1 m): its round-off is
    // kRoundOff · scale / 0.1.
    if (std::abs(exact.phi) > 1e-3 && (exact.phi > 0 || family.polytope_cores)) {
      const double lever = exact.phi > 0 ? exact.phi : 0.1;
      const double normal_tol = family.polytope_cores
                                    ? kRoundOff * scale / lever
                                    : std::sqrt(2 * phi_tol / 0.1) + kRoundOff * scale / lever;
      EXPECT_LT((ours.point.normal - exact.normal).norm(), normal_tol)
          << family.name << " trial " << trial << " phi " << exact.phi << " scale " << scale
          << " ours " << ours.point.normal.transpose() << " exact " << exact.normal.transpose();
      worst_normal = std::max(worst_normal, (ours.point.normal - exact.normal).norm());
    }
    ExpectWitnessesOnSupportPlanes(ours.point, a, X_WA, b, X_WB, phi_tol + kRoundOff * scale);
    if (exact.phi < 0) ++penetrating;
  }
  EXPECT_GT(penetrating, trials / 10);  // both GJK and EPA are exercised
  EXPECT_LT(penetrating, trials * 9 / 10);
  std::printf("%s: %d pairs (%d penetrating), |dphi| / scale max %.2e, |dn| max %.2e\n",
              family.name, trials, penetrating, worst_phi, worst_normal);
}

INSTANTIATE_TEST_SUITE_P(Families, ConvexDistanceClosedForm, ::testing::ValuesIn(kClosedForms),
                         [](const auto& param_info) {
                           std::string name = param_info.param.name;
                           for (char& c : name) {
                             if (c == '-' || c == ' ') c = '_';
                           }
                           return name;
                         });

TEST(ConvexDistance3d, CylinderLiesBetweenItsInscribedAndCircumscribedPrisms) {
  // P_in ⊂ cylinder ⊂ P_out, and the signed distance only grows when a shape shrinks:
  // φ(P_out, B) <= φ(cylinder, B) <= φ(P_in, B). The prisms (1024 sides) are polytopes,
  // exact to round-off; the bracket is r (1/cos(π/1024) − 1) = 4.7e-6 r wide.
  std::mt19937 random(13);
  const int sides = 1024;
  int below_width = 0;
  const int trials = 300;
  for (int trial = 0; trial < trials; ++trial) {
    const double r = Uniform(&random, 0.1, 1);
    const double l = Uniform(&random, 0.2, 2);
    const Shape cylinder = MakeCylinder(r, l);
    Shape other;
    switch (trial % 4) {
      case 0:
        other = MakeBox(RandomSize(&random));
        break;
      case 1:
        other = MakeCapsule(Uniform(&random, 0.1, 1), Uniform(&random, 0.2, 2));
        break;
      case 2:
        other = MakePrism(0.3, 0.5, 5, false);  // a pentagonal prism, convex
        break;
      default:
        other = MakeCylinder(Uniform(&random, 0.1, 1), Uniform(&random, 0.2, 2));
        break;
    }
    const Isometry3d X_WA = RandomPose(&random, 1.2);
    const Isometry3d X_WB = RandomPose(&random, 0.2);
    const ConvexDistanceResult middle = Ours(cylinder, X_WA, other, X_WB);
    const ConvexDistanceResult inner = Ours(MakePrism(r, l, sides, false), X_WA, other, X_WB);
    const ConvexDistanceResult outer = Ours(MakePrism(r, l, sides, true), X_WA, other, X_WB);
    ASSERT_TRUE(middle.Usable() && inner.Usable() && outer.Usable());
    // Each answer is the upper end of what it proved (error_bound below it); the other
    // shape may be a cylinder too.
    const double slack = kRoundOff * middle.scale + inner.error_bound + outer.error_bound;
    EXPECT_LE(outer.point.phi - slack - middle.error_bound, middle.point.phi) << "trial " << trial;
    EXPECT_LE(middle.point.phi - middle.error_bound, inner.point.phi + slack) << "trial " << trial;
    if (inner.point.phi - outer.point.phi <= 4.8e-6 * r + slack) ++below_width;
  }
  EXPECT_EQ(below_width, trials);  // the prisms themselves are as close as planned
}

TEST(ConvexDistance3d, SwappingTheShapesSwapsTheAnswer) {
  std::mt19937 random(17);
  const Shape shapes[] = {MakeCylinder(0.3, 0.8), MakeConvexBox({0.5, 0.2, 0.7}),
                          MakeCapsule(0.2, 0.6), MakeBox({0.4, 0.4, 0.9}), MakeSphere(0.3)};
  for (int trial = 0; trial < 500; ++trial) {
    const Shape& a = shapes[trial % 5];
    const Shape& b = shapes[(trial / 5) % 5];
    const Isometry3d X_WA = RandomPose(&random, 0.6);
    const Isometry3d X_WB = RandomPose(&random, 0.6);
    const ConvexDistanceResult ab = Ours(a, X_WA, b, X_WB);
    const ConvexDistanceResult ba = Ours(b, X_WB, a, X_WA);
    const double tol = std::max(ab.error_bound, ba.error_bound) +
                       std::max(kGjkRelativeTolerance, kEpaRelativeTolerance) * ab.scale +
                       kRoundOff * ab.scale;
    EXPECT_NEAR(ab.point.phi, ba.point.phi, tol) << "trial " << trial;
    // The normal of an overlap may be ill-conditioned (nearly equal depths over directions);
    // that of a separation is unique.
    if (ab.point.phi > 1e-2) {
      EXPECT_LT((ab.point.normal + ba.point.normal).norm(), 1e-4) << "trial " << trial;
    }
  }
}

TEST(ConvexDistance3d, RigidMotionOfBothShapesMovesTheAnswerRigidly) {
  // The answer depends only on the relative pose: far from the world origin (1e4 m) too,
  // since GJK/EPA work in B's frame.
  std::mt19937 random(19);
  for (int trial = 0; trial < 300; ++trial) {
    const Shape a = trial % 2 ? MakeCylinder(0.3, 0.8) : MakeConvexBox({0.5, 0.2, 0.7});
    const Shape b = MakeBox({0.4, 0.6, 0.3});
    const Isometry3d X_WA = RandomPose(&random, 0.6);
    const Isometry3d X_WB = RandomPose(&random, 0.3);
    Isometry3d motion = RandomPose(&random, 1.0);
    motion.translation() += Vector3d(1e4, -2e4, 5e3);
    const ConvexDistanceResult here = Ours(a, X_WA, b, X_WB);
    const ConvexDistanceResult there = Ours(a, motion * X_WA, b, motion * X_WB);
    // The poses themselves are rounded at 2.5e4 m: ε · 2.5e4 per coordinate.
    const double tol = here.error_bound + there.error_bound + kRoundOff * here.scale +
                       64 * kConvexDistance3dEps * 2.5e4;
    EXPECT_NEAR(here.point.phi, there.point.phi, tol) << "trial " << trial;
    // Witness points along a tie (parallel edges, a face) are not unique: each answer's
    // points lie on its support planes, and a separation's normal moves with the shapes.
    ExpectWitnessesOnSupportPlanes(there.point, a, motion * X_WA, b, motion * X_WB, 1e-9);
    if (here.point.phi > 1e-2) {
      EXPECT_LT((motion.linear() * here.point.normal - there.point.normal).norm(), 1e-5);
    }
  }
}

TEST(ConvexDistance3d, ScalingByAPowerOfTwoScalesTheAnswerBitForBit) {
  // Every tolerance is relative to the pair's size and every operation commutes with a
  // power-of-two scaling, so a scene scaled by 2^k answers exactly 2^k times: the same
  // bits from 0.1 mm to 1 km.
  std::mt19937 random(23);
  for (int trial = 0; trial < 200; ++trial) {
    const Shape shapes[] = {MakeCylinder(0.3, 0.8), MakeConvexBox({0.5, 0.2, 0.7}),
                            MakeCapsule(0.2, 0.6), MakeBox({0.4, 0.4, 0.9})};
    const Shape& a = shapes[trial % 4];
    const Shape& b = shapes[(trial / 4) % 4];
    const Isometry3d X_WA = RandomPose(&random, 0.6);
    const Isometry3d X_WB = RandomPose(&random, 0.6);
    const ConvexDistanceResult unit = Ours(a, X_WA, b, X_WB);
    for (int k : {-13, 10}) {
      const double s = std::ldexp(1.0, k);
      auto scaled = [s](Shape shape) {
        shape.radius *= s;
        shape.length *= s;
        shape.size *= s;
        for (Vector3d& v : shape.vertices) v *= s;
        return shape;
      };
      Isometry3d X_WA_s = X_WA;
      Isometry3d X_WB_s = X_WB;
      X_WA_s.translation() *= s;
      X_WB_s.translation() *= s;
      const ConvexDistanceResult big = Ours(scaled(a), X_WA_s, scaled(b), X_WB_s);
      EXPECT_EQ(big.point.phi, s * unit.point.phi) << "trial " << trial << " k " << k;
      EXPECT_EQ(big.point.normal, unit.point.normal) << "trial " << trial << " k " << k;
      EXPECT_EQ(big.point.p_A, s * unit.point.p_A) << "trial " << trial << " k " << k;
      EXPECT_EQ(big.status, unit.status);
    }
  }
}

TEST(ConvexDistance3d, SameInputGivesTheSameBitsInEveryThread) {
  // Nothing depends on addresses, heap state or thread: a query repeated after heap churn
  // and in other threads gives the same bits.
  std::mt19937 random(29);
  std::vector<std::pair<Isometry3d, Isometry3d>> poses;
  for (int i = 0; i < 200; ++i)
    poses.emplace_back(RandomPose(&random, 0.5), RandomPose(&random, 0.5));
  const Shape a = MakeCylinder(0.3, 0.8);
  const Shape b = MakeConvexBox({0.5, 0.2, 0.7});
  auto run = [&](std::vector<ContactPoint>* out) {
    for (const auto& [X_WA, X_WB] : poses) out->push_back(Ours(a, X_WA, b, X_WB).point);
  };
  std::vector<ContactPoint> first;
  run(&first);
  std::vector<std::vector<double>> churn;
  for (int i = 0; i < 100; ++i) churn.emplace_back(static_cast<std::size_t>(i * 37 + 1), 1.0);
  std::vector<ContactPoint> again;
  run(&again);
  std::vector<ContactPoint> threaded[2];
  std::thread one([&] { run(&threaded[0]); });
  std::thread two([&] { run(&threaded[1]); });
  one.join();
  two.join();
  for (const std::vector<ContactPoint>* other : {&again, &threaded[0], &threaded[1]}) {
    ASSERT_EQ(other->size(), first.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ((*other)[i].phi, first[i].phi);
      EXPECT_EQ((*other)[i].p_A, first[i].p_A);
      EXPECT_EQ((*other)[i].p_B, first[i].p_B);
      EXPECT_EQ((*other)[i].normal, first[i].normal);
    }
  }
}

TEST(ConvexDistance3d, QueriesMakeNoHeapAllocation) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  std::mt19937 random(31);
  const Shape shapes[] = {MakeCylinder(0.3, 0.8), MakeConvexBox({0.5, 0.2, 0.7}),
                          MakeCapsule(0.2, 0.6),  MakeBox({0.4, 0.4, 0.9}),
                          MakeSphere(0.3),        MakePrism(0.3, 0.5, 64, false)};
  std::vector<ConvexCore3d> cores;
  for (const Shape& shape : shapes) cores.push_back(MakeConvexCore3d(shape));
  int epa = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Isometry3d X_WA = RandomPose(&random, 0.5);
    const Isometry3d X_WB = RandomPose(&random, 0.5);
    const ConvexCore3d& a = cores[trial % cores.size()];
    const ConvexCore3d& b = cores[(trial / cores.size()) % cores.size()];
    long count = 0;
    ConvexDistanceResult result;
    {
      testing::MallocCounter counter;
      result = ConvexSignedDistance3d(a, X_WA, b, X_WB);
      count = counter.count();
    }
    EXPECT_EQ(count, 0) << "trial " << trial;
    if (result.epa_iterations > 0) ++epa;
  }
  EXPECT_GT(epa, 100);  // EPA's polytope is exercised too
}

TEST(ConvexDistance3d, TheFaultSwitchMakesAnswersUnusable) {
  const Shape a = MakeCylinder(0.3, 0.8);
  const Shape b = MakeBox({1, 1, 1});
  EXPECT_TRUE(Ours(a, Pose(0, 0, 0.8), b, Isometry3d::Identity()).Usable());
  {
    ScopedConvexDistanceFaultForTesting fault;
    const ConvexDistanceResult r = Ours(a, Pose(0, 0, 0.8), b, Isometry3d::Identity());
    EXPECT_FALSE(r.Usable());
    EXPECT_EQ(ConvexDistanceFailure(r).rfind(
                  "GJK/EPA signed distance not usable: stopped by round-off after ", 0),
              0u)
        << ConvexDistanceFailure(r);
  }
  EXPECT_TRUE(Ours(a, Pose(0, 0, 0.8), b, Isometry3d::Identity()).Usable());
}

TEST(ConvexDistance3d, UsableAcceptsOnlyBoundedAnswers) {
  ConvexDistanceResult r;
  r.scale = 2.0;
  r.point.phi = -1.0;
  r.status = ConvexDistanceStatus::kIterationLimit;
  r.error_bound = kConvexDistanceAcceptance * 2.0;
  EXPECT_TRUE(r.Usable());
  r.error_bound = kConvexDistanceDeepAcceptance * 1.0;  // 1 % of a 1 m overlap
  EXPECT_TRUE(r.Usable());
  r.error_bound *= 1.01;
  EXPECT_FALSE(r.Usable());
  r.point.phi = 0.5;  // separated: only the scale clause
  r.error_bound = 10 * kConvexDistanceAcceptance;
  EXPECT_FALSE(r.Usable());
  r.status = ConvexDistanceStatus::kConverged;
  EXPECT_TRUE(r.Usable());
}

}  // namespace
}  // namespace quasidyn
