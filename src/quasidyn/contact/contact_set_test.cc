// Contact Jacobians against central finite differences of φ on every example scene:
// φ(q ⊕ δv) − φ(q ⊖ δv) ≈ 2δ·J_n v for random v.
#include "quasidyn/contact/contact_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ExampleScenes() {
  std::vector<std::string> paths;
  for (const auto& entry : fs::directory_iterator(fs::path(QUASIDYN_SOURCE_DIR) / "examples"))
    if (fs::exists(entry.path() / "scene.yaml"))
      paths.push_back((entry.path() / "scene.yaml").string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

// φ at q of the contact that continues `reference` through the geometry: the same shape
// pair and, among that pair's manifold points, the one whose point on A is the same material
// point (closest in A's body frame). Used where φ is a smooth function of q: single-point
// contacts, and manifolds against the static world (whose reference face cannot flip).
std::optional<double> GeometricPhi(const ScenePtr& scene, const Contact& reference,
                                   const Eigen::Isometry3d& X_WA_reference,
                                   const Eigen::VectorXd& q) {
  Kinematics kinematics(scene);
  kinematics.Update(q);
  const GeometryModel geometry(scene);
  GeometryData data = geometry.CreateData();
  // The reference contact has φ <= ε; a δ perturbation moves it by O(δ). A band of ε + 1 mm
  // keeps every such point but no farther face: a wider one (1 m) would take in the far side
  // of a polytope with more than 8 vertices (a hexagonal prism) and the manifold's 8-point
  // cap (manifold_3d.h) would then drop points of the face in contact.
  const double band = scene->contact_tolerance + 1e-3;  // [m]
  if (!geometry.Query(kinematics.BodyPoses(), band, &data)) return std::nullopt;
  const Eigen::Vector3d p_A_body = X_WA_reference.inverse() * reference.p_A;
  std::optional<double> best_phi;
  double best_distance = 1e-4;  // [m]: material points move O(δ) ≪ this
  for (const ContactCandidate& c : data.candidates()) {
    if (c.geometry_a != reference.geometry_a || c.geometry_b != reference.geometry_b) continue;
    const Eigen::Vector3d p = kinematics.BodyPose(reference.body_a).inverse() * c.point.p_A;
    const double distance = (p - p_A_body).norm();
    if (distance < best_distance) {
      best_distance = distance;
      best_phi = c.point.phi;
    }
  }
  return best_phi;
}

// φ at q of the contact's material points: p_A fixed in A, p_B and the normal fixed in B,
// φ = (p_A − p_B)·n. Its derivative at the reference configuration is exactly J_n v for
// every contact (the rotation of n adds φ nᵀ(ω_B × n) = 0), so this checks the assembly
// J_n = nᵀ(J_A(p_A) − J_B(p_B)) when both bodies move, whatever the manifold does.
double MaterialPhi(const ScenePtr& scene, const Contact& reference, const Kinematics& at_reference,
                   const Eigen::VectorXd& q) {
  Kinematics kinematics(scene);
  kinematics.Update(q);
  const Eigen::Isometry3d A_move =
      kinematics.BodyPose(reference.body_a) * at_reference.BodyPose(reference.body_a).inverse();
  const Eigen::Isometry3d B_move =
      kinematics.BodyPose(reference.body_b) * at_reference.BodyPose(reference.body_b).inverse();
  return (A_move * reference.p_A - B_move * reference.p_B).dot(B_move.linear() * reference.normal);
}

// Whether both bodies of the contact are links of robots (a hand's neighbouring fingers). Their
// closest points sit where two links are hinged near each other, at a segment's end: there the
// pair's signed distance has a kink (turned one way the closest pair stays at the ends, the
// other way it moves into a segment's interior; gradients/rounded_pair_derivative.h), so the
// measured central difference is not J_n v; the material check above still covers J_n's
// assembly for these contacts.
bool RobotSelfContact(const Scene& scene, const Contact& c) {
  const auto robot = [&](int body) {
    const int instance = scene.bodies[body].instance;
    return instance >= 0 && scene.instances[instance].actuated;
  };
  return robot(c.body_a) && robot(c.body_b);
}

int ManifoldSize(const ContactSet& contacts, const Contact& c) {
  int count = 0;
  for (const Contact& other : contacts)
    count += other.geometry_a == c.geometry_a && other.geometry_b == c.geometry_b;
  return count;
}

// Central differences with step δ = ∛ε balance truncation O(δ² φ‴) and rounding O(ε/δ)
// at about ε^(2/3) ≈ 4e-11 per unit of curvature and length; the tolerance allows a factor
// 1e4·(1 + |J_n v|) for curvatures up to 1/(1 cm) and lever arms ~1 m.
const double kDelta = std::cbrt(std::numeric_limits<double>::epsilon());
double Tolerance(double predicted) { return 1e-6 * (1 + std::abs(predicted)); }

TEST(ContactSet, NormalJacobianPredictsSignedDistanceChangeOnEveryExample) {
  const std::vector<std::string> scenes = ExampleScenes();
  ASSERT_GE(scenes.size(), 4u);
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss;
  for (const std::string& path : scenes) {
    SCOPED_TRACE(path);
    const ScenePtr scene_ptr = testing::Shared(LoadScene(path));
    const Scene& scene = *scene_ptr;
    const ContactModel model(scene_ptr);
    ContactData data = model.CreateData();
    ASSERT_TRUE(model.Compute(scene.q0, &data)) << data.failure_message();
    const ContactSet& contacts = data.contacts();
    // Every example but the MPC's point robot (the 2D contact notes start it at rest in free
    // space, 0.55 m from the nearest wall, beyond the contact tolerance 0.5 m) starts with some
    // contact candidate.
    if (std::filesystem::path(path).parent_path().filename() == "point_robot_walls") {
      EXPECT_EQ(contacts.size(), 0);
      continue;
    }
    EXPECT_GT(contacts.size(), 0) << "every example starts with some contact candidate";
    int geometric_checks = 0, cylinder_faces = 0;
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd v(scene.nv);
      for (int k = 0; k < scene.nv; ++k) v[k] = gauss(rng);
      const Eigen::VectorXd q_plus = IntegrateConfiguration(scene, scene.q0, v, kDelta);
      const Eigen::VectorXd q_minus = IntegrateConfiguration(scene, scene.q0, v, -kDelta);
      for (int i = 0; i < contacts.size(); ++i) {
        const Contact& c = contacts[i];
        const std::string pair =
            scene.geometries[c.geometry_a].name + " / " + scene.geometries[c.geometry_b].name;
        const double predicted = contacts.NormalVelocity(i, v);
        const double material = (MaterialPhi(scene_ptr, c, data.kinematics(), q_plus) -
                                 MaterialPhi(scene_ptr, c, data.kinematics(), q_minus)) /
                                (2 * kDelta);
        EXPECT_NEAR(material, predicted, Tolerance(predicted)) << pair << " (material points)";
        // A manifold's points on a half-space (B the world) are material points of A that a δ
        // perturbation keeps (a box's corners), except on a cylinder's end disc: its points
        // are the exact support point, which moves along the rim with the tilt, and rim
        // samples thinned by the 8-point cap from that point (support_3d.h, manifold_3d.h),
        // so the perturbed manifold need not contain the reference point; the material check
        // above covers it.
        const bool cylinder_face =
            ManifoldSize(contacts, c) > 2 &&  // (2 points: a side line, which holds)
            scene.geometries[c.geometry_a].shape.type == ShapeType::kCylinder;
        const bool smooth = (ManifoldSize(contacts, c) == 1 || (c.body_b == 0 && !cylinder_face)) &&
                            !RobotSelfContact(scene, c);
        cylinder_faces += cylinder_face;
        if (!smooth) continue;
        const auto& X_WA = data.kinematics().BodyPose(c.body_a);
        const auto phi_plus = GeometricPhi(scene_ptr, c, X_WA, q_plus);
        const auto phi_minus = GeometricPhi(scene_ptr, c, X_WA, q_minus);
        ASSERT_TRUE(phi_plus && phi_minus) << pair << ": contact lost under a δ perturbation";
        const double measured = (*phi_plus - *phi_minus) / (2 * kDelta);
        EXPECT_NEAR(measured, predicted, Tolerance(predicted)) << pair << " (geometry)";
        ++geometric_checks;
      }
    }
    // (ecp_cylinder_manipulation starts with its cylinder standing on its end disc only.)
    EXPECT_TRUE(geometric_checks > 0 || cylinder_faces > 0)
        << "no contact of this example was checked against geometry";
  }
}

TEST(ContactSet, TangentAndRayJacobiansAreProjectionsOfTheSameRelativeJacobian) {
  for (const std::string& path : ExampleScenes()) {
    SCOPED_TRACE(path);
    const ContactModel model(testing::Shared(LoadScene(path)));
    const Scene& scene = model.scene();
    ContactData data = model.CreateData();
    ASSERT_TRUE(model.Compute(scene.q0, &data)) << data.failure_message();
    const ContactSet& contacts = data.contacts();
    for (int i = 0; i < contacts.size(); ++i) {
      const Contact& c = contacts[i];
      const Eigen::RowVectorXd J_n = contacts.DenseNormalJacobian(i);
      const Eigen::MatrixXd J_t = contacts.DenseTangentJacobian(i);
      const Eigen::MatrixXd J_d = contacts.DenseRayJacobian(i);
      const Eigen::Matrix3Xd rays = contacts.Rays(i);
      ASSERT_EQ(J_n.cols(), scene.nv);
      ASSERT_EQ(J_d.rows(), scene.planar ? 2 : scene.friction_rays);
      ASSERT_EQ(J_t.rows(), scene.planar ? 1 : 2);
      // Ray j is cos·t1 + sin·t2, so J_d,j = cos·J_t1 + sin·J_t2 (planar: ±J_t1).
      const double scale = 1 + J_t.norm();
      for (int j = 0; j < J_d.rows(); ++j) {
        Eigen::RowVectorXd expected = rays.col(j).dot(c.tangent1) * J_t.row(0);
        if (!scene.planar) expected += rays.col(j).dot(c.tangent2) * J_t.row(1);
        EXPECT_LT((J_d.row(j) - expected).norm(),
                  1e3 * std::numeric_limits<double>::epsilon() * scale);
      }
      EXPECT_GE(c.friction, 0.0);
      EXPECT_LE(c.phi, scene.contact_tolerance);
    }
  }
}

// The compact rows hold J_i = J_A(p_A) − J_B(p_B) on the union of the two bodies' chain columns
// exactly: equal, bit for bit, to nᵀ, tᵀ and Dᵀ times the n_v-wide Jacobians of
// Kinematics::PointJacobian, and zero elsewhere.
TEST(ContactSet, CompactRowsAreTheNonZeroColumnsOfTheDenseProducts) {
  for (const std::string& path : ExampleScenes()) {
    SCOPED_TRACE(path);
    const ContactModel model(testing::Shared(LoadScene(path)));
    const Scene& scene = model.scene();
    ContactData data = model.CreateData();
    ASSERT_TRUE(model.Compute(scene.q0, &data)) << data.failure_message();
    const ContactSet& contacts = data.contacts();
    Eigen::MatrixXd J_A, J_B;
    for (int i = 0; i < contacts.size(); ++i) {
      const Contact& c = contacts[i];
      data.kinematics().PointJacobian(c.body_a, c.p_A, &J_A);
      data.kinematics().PointJacobian(c.body_b, c.p_B, &J_B);
      const Eigen::MatrixXd J = J_A - J_B;
      Eigen::RowVectorXd J_n;
      J_n.noalias() = c.normal.transpose() * J;
      Eigen::MatrixXd J_d;
      J_d.noalias() = contacts.Rays(i).transpose() * J;
      const Eigen::RowVectorXd compact_n = contacts.DenseNormalJacobian(i);
      const Eigen::MatrixXd compact_d = contacts.DenseRayJacobian(i);
      for (int k = 0; k < scene.nv; ++k) {
        EXPECT_EQ(compact_n[k], J_n[k]) << "contact " << i << " column " << k;
        for (int j = 0; j < J_d.rows(); ++j) EXPECT_EQ(compact_d(j, k), J_d(j, k));
      }
    }
  }
}

TEST(ContactModel, DataOfAnotherModelAndBadConfigurationsThrow) {
  const ScenePtr scene = testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_hand/scene.yaml"));
  const ContactModel model(scene), other(scene);
  ContactData others = other.CreateData();
  EXPECT_THROW(model.Compute(scene->q0, &others), std::invalid_argument);
  ContactData data = model.CreateData();
  EXPECT_THROW(model.Compute(scene->q0.head(2), &data), std::invalid_argument);
  Eigen::VectorXd q = scene->q0;
  q[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(model.Compute(q, &data), std::invalid_argument);
}

// A second query at the same configuration reuses every buffer: no heap allocation, on every
// example, planar or 3D.
TEST(ContactModel, RepeatedQueryDoesNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  for (const std::string& path : ExampleScenes()) {
    SCOPED_TRACE(path);
    const ContactModel model(testing::Shared(LoadScene(path)));
    ContactData data = model.CreateData();
    ASSERT_TRUE(model.Compute(model.scene().q0, &data));
    testing::MallocCounter counter;
    model.Compute(model.scene().q0, &data);
    EXPECT_EQ(counter.count(), 0);
  }
}

}  // namespace
}  // namespace quasidyn
