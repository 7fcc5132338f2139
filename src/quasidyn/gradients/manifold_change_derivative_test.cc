// The contact-point derivative of a pair whose manifold changes its point count under the
// difference step (issue 39: fingers of a hand side by side): two capsules that are parallel
// at q have a two-point manifold (manifold_3d.h step 4), and turning one of them about the
// normal by ±ε leaves the closest pair alone.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/gradients/pair_motion_derivative.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/moved_pair.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/random_twist.h"

namespace quasidyn {
namespace {

constexpr double kManifoldChangeStep = 6.0555e-6;  // ε [m or rad], DifferentiateStepData's

// Two capsules of radius 0.02 m and length 0.2 m along x, 0.05 m apart along y (φ = 0.01 m),
// the second shifted by 0.03 m along x: the manifold clips them to two points, the first's end
// x = 0.1 against the second's interior and the second's end x = −0.07 against the first's.
constexpr const char* kSideBySideScene = R"(
name: side_by_side
dimension: 3
time_step: 0.01
contact_tolerance: 0.03
formulation: {type: qp}
objects:
  - name: first
    joint: floating
    body: {mass: 0.1, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.02, length: 0.2, friction: 0.5}]}
    initial: [0.0, 0.0, 0.5, 0.7071067811865476, 0.0, 0.7071067811865476, 0.0]
  - name: second
    joint: floating
    body: {mass: 0.1, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.02, length: 0.2, friction: 0.5}]}
    initial: [0.03, 0.05, 0.5, 0.7071067811865476, 0.0, 0.7071067811865476, 0.0]
)";

// The smooth quantity a manifold point of two parallel segments follows wherever it exists: a
// vertex `vertex_S` of one capsule's segment (in its shape frame, fixed to it) and its
// perpendicular foot on the other's segment line (Ericson, Real-Time Collision Detection, 2005,
// §5.1.2), expanded by the radii. Written independently of rounded_pair_derivative.cc.
ContactPoint VertexFootPoint(const Eigen::Isometry3d& X_WA, const Eigen::Isometry3d& X_WB,
                             bool vertex_on_A, const Eigen::Vector3d& vertex_S, double radius) {
  const Eigen::Isometry3d& own = vertex_on_A ? X_WA : X_WB;
  const Eigen::Isometry3d& other = vertex_on_A ? X_WB : X_WA;
  const Eigen::Vector3d vertex = own * vertex_S;
  const Eigen::Vector3d e = other.linear().col(2), o = other.translation();
  const Eigen::Vector3d foot = o + (vertex - o).dot(e) * e;
  const Eigen::Vector3d a = vertex_on_A ? vertex : foot, b = vertex_on_A ? foot : vertex;
  ContactPoint point;
  point.normal = (a - b).normalized();
  point.phi = (a - b).norm() - 2.0 * radius;
  point.p_A = a - radius * point.normal;
  point.p_B = b + radius * point.normal;
  return point;
}

double PointGap(const ContactPoint& x, const ContactPointDerivative& d) {
  return std::abs(x.phi - d.phi) + (x.p_A - d.p_A).norm() + (x.p_B - d.p_B).norm() +
         (x.normal - d.normal).norm();
}

// A turn about the normal removes both clipped points at ±ε (the manifold is then the closest
// pair of two crossing segments, in the middle): the derivative is still returned, in closed
// form, and each point's derivative is the central difference of its vertex–foot quantity
// (smooth: the two segments stay apart), which is the manifold point itself wherever the
// manifold has it — checked along the motions that keep both points on both sides.
TEST(ManifoldChangeDerivative, ParallelCapsulesLosingAPointUnderATurn) {
  // Geometry 0 is `first` (body 1), geometry 1 `second` (body 2): B is the lower body index.
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadSceneFromString(kSideBySideScene, "pair.yaml", "."));
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(scene->q0, &data));
  const ContactSet& contacts = data.contacts();
  ASSERT_EQ(contacts.size(), 2);
  const std::vector<int> members{0, 1};
  const Eigen::Vector3d reference =
      0.25 * (contacts[0].p_A + contacts[0].p_B + contacts[1].p_A + contacts[1].p_B);
  const Contact& c0 = contacts[0];
  ASSERT_EQ(c0.geometry_a, 1);
  ASSERT_EQ(c0.geometry_b, 0);
  const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
  const GeometryModel& geometry = model.geometry();
  const double tolerance = scene->contact_tolerance;

  // The turn about the normal changes the point count: 2 at q, 1 at ±ε.
  const Twist turn{c0.normal, Eigen::Vector3d::Zero()};
  for (const double s : {kManifoldChangeStep, -kManifoldChangeStep}) {
    std::vector<Eigen::Isometry3d> moved = X_WB;
    moved[c0.body_a] = testing::MovedAbout(X_WB[c0.body_a], turn, s, reference);
    ManifoldPoints points;
    ASSERT_TRUE(testing::IsOk(geometry.PairManifold(1, 0, moved, tolerance, &points)));
    EXPECT_EQ(points.size(), 1u) << "s = " << s;
  }

  // Translations and the turn about the capsules' axis keep both points on both sides, and the
  // manifold is smooth along them. The turn in the capsules' plane (about `third`) keeps both
  // points too, but there the shared normal is the closest pair's, one end's on one side and the
  // other end's on the other: the manifold has a kink at q, each point following its own
  // vertex–foot quantity on the side where it is the closest pair (checked below).
  const Eigen::Vector3d axis = Eigen::Vector3d::UnitX(), n = c0.normal;
  const Eigen::Vector3d third = axis.cross(n);
  const std::vector<Twist> kept{{Eigen::Vector3d::Zero(), n},
                                {Eigen::Vector3d::Zero(), axis},
                                {Eigen::Vector3d::Zero(), third},
                                {axis, Eigen::Vector3d::Zero()}};
  const Twist in_plane{third, Eigen::Vector3d::Zero()};
  std::vector<Twist> all = kept;
  all.push_back(turn);
  all.push_back(in_plane);

  PairMotionDerivative closed, differenced;
  differenced.set_closed_forms(false);
  ASSERT_TRUE(testing::IsOk(closed.Compute(geometry, contacts, members, X_WB, tolerance, reference,
                                           all, kManifoldChangeStep)));
  EXPECT_TRUE(closed.rounded());
  EXPECT_EQ(closed.BasisSize(), 6);
  // The differences survive the lost points too (the fixed-to-A convention along the turn).
  ASSERT_TRUE(testing::IsOk(differenced.Compute(geometry, contacts, members, X_WB, tolerance,
                                                reference, all, kManifoldChangeStep)));

  // Each contact's vertex: an end (shape z = ±0.1) of the second capsule (A) or of the first.
  const Eigen::Isometry3d X_WSa = X_WB[c0.body_a] * scene->geometries[1].X_BS;
  const Eigen::Isometry3d X_WSb = X_WB[c0.body_b] * scene->geometries[0].X_BS;
  const double radius = 0.02;
  // Central differences of the smooth quantity with steps h = 1e-4 and h/2 (Richardson:
  // (4 D(h/2) − D(h))/3, error O(h⁴) ≈ (1e-4/0.02)⁴ ≈ 6e-10 relative); the closed form is exact.
  // Tolerance 1e-7: above that and the round-off ε_machine/h ≈ 1e-12, below any dropped term.
  constexpr double kSmoothTolerance = 1e-7;
  std::mt19937 random(39);
  for (int trial = 0; trial < 4; ++trial) {
    const Twist xi = trial < 1 ? turn : testing::RandomTwist(&random, false);
    std::vector<ContactPointDerivative> exact, diffs;
    closed.Derivatives(xi, Twist{}, &exact);
    differenced.Derivatives(xi, Twist{}, &diffs);
    for (int m = 0; m < 2; ++m) {
      const Contact& c = contacts[m];
      const Eigen::Vector3d a = c.p_A + radius * c.normal, b = c.p_B - radius * c.normal;
      const Eigen::Vector3d a_S = X_WSa.inverse() * a, b_S = X_WSb.inverse() * b;
      const bool vertex_on_A = std::abs(std::abs(a_S.z()) - 0.1) < 1e-12;
      ASSERT_TRUE(vertex_on_A || std::abs(std::abs(b_S.z()) - 0.1) < 1e-12);
      const Eigen::Vector3d vertex_S = vertex_on_A ? a_S : b_S;
      auto quantity = [&](double s) {
        return VertexFootPoint(testing::MovedAbout(X_WSa, xi, s, reference), X_WSb, vertex_on_A,
                               vertex_S, radius);
      };
      const ContactPoint at_q = quantity(0.0);
      ASSERT_LT((at_q.p_A - c.p_A).norm() + (at_q.p_B - c.p_B).norm(), 1e-12);
      ContactPointDerivative fd;
      for (const double h : {1e-4, 5e-5}) {
        const ContactPoint plus = quantity(h), minus = quantity(-h);
        const double w = (h == 1e-4 ? -1.0 : 4.0) / 3.0 / (2.0 * h);
        fd.phi += w * (plus.phi - minus.phi);
        fd.p_A += w * (plus.p_A - minus.p_A);
        fd.p_B += w * (plus.p_B - minus.p_B);
        fd.normal += w * (plus.normal - minus.normal);
      }
      const double scale = 1.0 + fd.p_A.norm() + fd.p_B.norm();
      ContactPoint as_point{fd.phi, fd.p_A, fd.p_B, fd.normal};
      EXPECT_LT(PointGap(as_point, exact[m]), kSmoothTolerance * scale)
          << "trial " << trial << ", contact " << m;
      EXPECT_GT(fd.p_A.norm(), 1e3 * kSmoothTolerance * scale);  // the motion moves the point
    }
  }
  // Along the motions that keep both points smoothly, the manifold's own central differences
  // (O(ε²), the tolerance of rounded_pair_derivative_test.cc) agree with the closed form.
  for (const Twist& xi : kept) {
    PairMotionDerivative along_kept;
    along_kept.set_closed_forms(false);
    ASSERT_TRUE(testing::IsOk(along_kept.Compute(geometry, contacts, members, X_WB, tolerance,
                                                 reference, {xi}, kManifoldChangeStep)));
    std::vector<ContactPointDerivative> exact, diffs;
    closed.Derivatives(xi, Twist{}, &exact);
    along_kept.Derivatives(xi, Twist{}, &diffs);
    for (int m = 0; m < 2; ++m) {
      const double scale = 1.0 + diffs[m].p_A.norm() + diffs[m].p_B.norm();
      ContactPoint as_point{diffs[m].phi, diffs[m].p_A, diffs[m].p_B, diffs[m].normal};
      EXPECT_LT(PointGap(as_point, exact[m]), kSmoothTolerance * scale)
          << "contact " << m << ", ω " << xi.angular.transpose() << ", v " << xi.linear.transpose()
          << ": φ̇ " << diffs[m].phi << " " << exact[m].phi << ", ṗ_A " << diffs[m].p_A.transpose()
          << " / " << exact[m].p_A.transpose() << ", ṅ " << diffs[m].normal.transpose() << " / "
          << exact[m].normal.transpose();
    }
  }

  // Along the turn about the normal the differences lose both points on both sides: each is
  // then fixed to A with the normal fixed to B (pair_motion_derivative.cc).
  std::vector<ContactPointDerivative> fixed;
  differenced.Derivatives(turn, Twist{}, &fixed);
  for (int m = 0; m < 2; ++m) {
    const Eigen::Vector3d p_A_dot = turn.angular.cross(contacts[m].p_A - reference);
    EXPECT_LT((fixed[m].p_A - p_A_dot).norm(), 1e-12 * (1.0 + p_A_dot.norm()));
    EXPECT_LT(std::abs(fixed[m].phi - contacts[m].normal.dot(p_A_dot)), 1e-12);
    EXPECT_LT(fixed[m].normal.norm(), 1e-12);
  }

  // The in-plane turn: each point against the manifold's one-sided difference on the side where
  // it is the closest pair (its φ falls), of second order, (−3 x(0) + 4 x(s) − x(2s)) / (2s)
  // with |s| = 1e-5: truncation ≈ (s/ρ)² ≈ 3e-7 relative for the radius ρ = 0.02 m (both
  // points stay on that side's smooth piece), round-off ε_machine/s ≈ 2e-11; tolerance 1e-6.
  std::vector<ContactPointDerivative> exact;
  closed.Derivatives(in_plane, Twist{}, &exact);
  for (int m = 0; m < 2; ++m) {
    const double s = exact[m].phi < 0.0 ? 1e-5 : -1e-5;
    ContactPoint x[3];
    for (int k = 0; k < 3; ++k) {
      std::vector<Eigen::Isometry3d> moved = X_WB;
      moved[c0.body_a] = testing::MovedAbout(X_WB[c0.body_a], in_plane, k * s, reference);
      ManifoldPoints points;
      ASSERT_TRUE(testing::IsOk(geometry.PairManifold(1, 0, moved, tolerance, &points)));
      ASSERT_EQ(points.size(), 2u);
      const double d0 = (points[0].p_A - contacts[m].p_A).norm();
      const double d1 = (points[1].p_A - contacts[m].p_A).norm();
      x[k] = d0 < d1 ? points[0] : points[1];
    }
    const double w = 1.0 / (2.0 * s);
    const ContactPoint one_sided{w * (-3.0 * x[0].phi + 4.0 * x[1].phi - x[2].phi),
                                 w * (-3.0 * x[0].p_A + 4.0 * x[1].p_A - x[2].p_A),
                                 w * (-3.0 * x[0].p_B + 4.0 * x[1].p_B - x[2].p_B),
                                 w * (-3.0 * x[0].normal + 4.0 * x[1].normal - x[2].normal)};
    const double scale = 1.0 + one_sided.p_A.norm() + one_sided.p_B.norm();
    EXPECT_LT(PointGap(one_sided, exact[m]), 1e-6 * scale) << "contact " << m;
    EXPECT_GT(std::abs(exact[m].phi), 1e3 * 1e-6 * scale);  // the turn moves the ends apart
  }
}

// The second capsule turned in the plane z = 0.5 so that its far end lies 1e-7 m inside the
// contact tolerance: a turn about z by ε moves that end by ≈ ε·0.1 m = 6e-7 m, so the point
// leaves the manifold on one side (φ > tolerance) and stays on the other. The differences
// (closed forms off) return the one-sided difference for it, which agrees with the closed form
// of its vertex–foot quantity to O(ε): the one-sided difference's error is ε/2 times the second
// derivative, at most of order ε/ρ ≈ 3e-4 relative for the radius ρ = 0.02 m (the tolerance).
TEST(ManifoldChangeDerivative, APointThatLeavesOnOneSideGetsItsOneSidedDerivative) {
  std::string yaml = kSideBySideScene;
  yaml.replace(yaml.find("length: 0.2"), 11, "length: 0.3");  // the first: ends at x = ±0.15
  const ScenePtr scene = std::make_shared<const Scene>(LoadSceneFromString(yaml, "pair.yaml", "."));
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  // The second's ends at y = 0.05 and 0.07 − 1e-7 (φ = 0.01 and 0.03 − 1e-7), centred at x = 0.
  const double near_y = 0.05, far_y = 0.07 - 1e-7;
  const double theta = std::asin((far_y - near_y) / 0.2);
  const Eigen::Quaterniond q_second = Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()) *
                                      Eigen::AngleAxisd(0.5 * M_PI, Eigen::Vector3d::UnitY());
  Eigen::VectorXd q = scene->q0;
  q.segment<7>(7) << 0.0, 0.5 * (near_y + far_y), 0.5, q_second.w(), q_second.x(), q_second.y(),
      q_second.z();
  ASSERT_TRUE(model.Compute(q, &data));
  const ContactSet& contacts = data.contacts();
  ASSERT_EQ(contacts.size(), 2);
  const int far = contacts[0].phi > contacts[1].phi ? 0 : 1;
  ASSERT_GT(contacts[far].phi, scene->contact_tolerance - 2e-7);
  const std::vector<int> members{0, 1};
  const Eigen::Vector3d reference =
      0.25 * (contacts[0].p_A + contacts[0].p_B + contacts[1].p_A + contacts[1].p_B);
  const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
  const GeometryModel& geometry = model.geometry();
  const double tolerance = scene->contact_tolerance;
  const Twist turn{Eigen::Vector3d::UnitZ(), Eigen::Vector3d::Zero()};
  int sides = 0;  // how many of ±ε keep the far point
  for (const double s : {kManifoldChangeStep, -kManifoldChangeStep}) {
    std::vector<Eigen::Isometry3d> moved = X_WB;
    moved[contacts[0].body_a] = testing::MovedAbout(X_WB[contacts[0].body_a], turn, s, reference);
    ManifoldPoints points;
    ASSERT_TRUE(testing::IsOk(geometry.PairManifold(1, 0, moved, tolerance, &points)));
    sides += static_cast<int>(points.size()) - 1;
  }
  ASSERT_EQ(sides, 1);

  PairMotionDerivative closed, differenced;
  differenced.set_closed_forms(false);
  for (PairMotionDerivative* motion : {&closed, &differenced})
    ASSERT_TRUE(testing::IsOk(motion->Compute(geometry, contacts, members, X_WB, tolerance,
                                              reference, {turn}, kManifoldChangeStep)));
  EXPECT_TRUE(closed.rounded());
  std::vector<ContactPointDerivative> exact, one_sided;
  closed.Derivatives(turn, Twist{}, &exact);
  differenced.Derivatives(turn, Twist{}, &one_sided);
  const ContactPointDerivative &e = exact[far], &d = one_sided[far];
  const double scale = 1.0 + e.p_A.norm() + e.p_B.norm();
  const ContactPoint as_point{d.phi, d.p_A, d.p_B, d.normal};
  EXPECT_LT(PointGap(as_point, e), 3e-4 * scale) << "φ̇ " << d.phi << " / " << e.phi << ", ṗ_A "
                                                 << d.p_A.transpose() << " / " << e.p_A.transpose();
  EXPECT_GT(std::abs(e.phi), 0.05);  // the far end's lever ≈ 0.1 m: φ̇ ≈ 0.1 cos θ
}

}  // namespace
}  // namespace quasidyn
