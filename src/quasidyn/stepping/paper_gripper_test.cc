// Pang & Tedrake 2021, §V-A (Fig. 5 and 6): the planar gripper squeezes the sphere, pulls it
// down, first sticking then sliding from t = 0.13 s, and stops at t = 0.24 s. Scene:
// examples/planar_gripper/scene.yaml (h = 0.01 s, K = 1000 N/m, μ = 0.5, sphere r = 0.1 m,
// weight 10 N; fingers 0.02 m wide, 0.006 m from the sphere; commands at 0.2 m/s).
//
// Expected values are derived by hand from the geometry, the schedule and the force balance
// (9a)-(9b) / (6b)-(6c):
//   touch:    the left finger's inner face reaches the sphere at x_l = −r − 0.01 = −0.11 m.
//   squeeze:  c_n1 = K·(x̄_l − x_l) with x_l = −0.11 m (finger force balance, eq. (3)).
//   stick:    the hand's y-balance K(ȳ − y) + 2 c_f = 0 gives |c_f1| = K·(y − ȳ)/2.
//   slide:    |c_f1| = μ c_n1; under the QP eq. (8b) is active: φ_1⁺ = φ_1 + h v_n = h μ |v_d|.
// Tolerances come from the QP's stopping tolerances (solvers/qp.h): the complementarity gap
// ε_gap = absolute + relative tolerance (|objective| < 1 N·m here). At a contact that is just
// touching, both the slack and the impulse are O(√ε_gap) on the central path, so positions are
// trusted to δφ = 10·h·√ε_gap [m] and forces to K·δφ [N]. Lemke's pivots (LCP) are exact up to
// rounding, well inside the same bounds.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

constexpr double kStiffness = 1000.0;  // K [N/m], every actuated joint
constexpr double kFriction = 0.5;      // μ
constexpr double kRadius = 0.1;        // sphere [m]
constexpr double kTouchX = -0.11;      // x_l at touch: −r − finger half width [m]
constexpr double kPullSpeed = 0.2;     // |dȳ/dt| from 0.08 s to 0.24 s [m/s]

// One row per step, the state at t = (k+1)·h.
struct GripperSample {
  double t = 0, x_l_commanded = 0, x_l = 0, y_commanded = 0, y = 0;
  double c_n1 = 0, c_f1 = 0, phi_1 = 0;  // c_f1: vertical friction force on the sphere [N]
  double sliding_speed = 0;              // |v_d| of contact 1, finger relative to sphere [m/s]
};

int JointIndex(const Scene& scene, const std::string& name) {
  for (size_t j = 0; j < scene.joints.size(); ++j)
    if (scene.joints[j].name == name) return static_cast<int>(j);
  ADD_FAILURE() << "no joint " << name;
  return 0;
}

class PaperGripperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scene_ = LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml");
    const QpSettings qp = ContactQpSettings();
    const double gap = qp.absolute_tolerance + qp.relative_tolerance;
    phi_tolerance_ = 10.0 * scene_.time_step * std::sqrt(gap);
    force_tolerance_ = kStiffness * phi_tolerance_;
  }

  std::vector<GripperSample> Simulate(std::string type, double end_time) {
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene_);
    settings.type = type;
    testing::Stepper stepper(scene_, settings);
    const double h = settings.time_step;
    const Joint& x_left = scene_.joints[JointIndex(scene_, "gripper/x_left")];
    const Joint& hand_y = scene_.joints[JointIndex(scene_, "gripper/y")];
    const Joint& sphere = scene_.joints[JointIndex(scene_, "sphere/root_joint")];
    const int finger_body = scene_.BodyIndex("gripper/left_finger");
    const int sphere_body = scene_.BodyIndex("sphere");
    std::vector<GripperSample> samples;
    Eigen::VectorXd q = scene_.q0;
    const int steps = static_cast<int>(std::lround(end_time / h));
    for (int k = 0; k < steps; ++k) {
      GripperSample s;
      s.t = (k + 1) * h;
      const Eigen::VectorXd u = scene_.CommandAt(s.t);
      const StepResult& r = stepper.Step(q, u);
      if (!r.ok()) {
        ADD_FAILURE() << std::string(type) << " step to t = " << s.t << ": " << r.message;
        return samples;
      }
      q = r.next.q;
      s.x_l_commanded = u[x_left.q_start - scene_.nq_u];
      s.y_commanded = u[hand_y.q_start - scene_.nq_u];
      s.x_l = q[x_left.q_start];
      s.y = q[hand_y.q_start];
      // Finger point minus sphere point (at (−r, 0) from its centre: ω ẑ × (−r x̂) = −r ω ŷ).
      s.sliding_speed = std::abs(r.velocity[hand_y.v_start] - r.velocity[sphere.v_start + 1] +
                                 kRadius * r.velocity[sphere.v_start + 2]);
      bool found = false;
      for (const ContactReport& c : r.contacts) {
        const bool a_is_sphere = c.body_a == sphere_body && c.body_b == finger_body;
        const bool b_is_sphere = c.body_b == sphere_body && c.body_a == finger_body;
        if (!a_is_sphere && !b_is_sphere) continue;
        found = true;
        s.c_n1 = c.normal_force;
        s.c_f1 = (a_is_sphere ? 1.0 : -1.0) * c.friction_force.y();
        s.phi_1 = c.phi_end;
      }
      EXPECT_TRUE(found) << "contact 1 missing at t = " << s.t;  // ε = 0.02 m > 0.006 m
      samples.push_back(s);
    }
    return samples;
  }

  // The sample at time t (a multiple of h).
  static const GripperSample& At(const std::vector<GripperSample>& samples, double t) {
    const double h = samples.front().t;
    return samples.at(static_cast<size_t>(std::lround(t / h)) - 1);
  }

  Scene scene_;
  double phi_tolerance_ = 0, force_tolerance_ = 0;
};

// Common to Fig. 6(a) and 6(b): approach, touch at 0.03 s, squeeze to 10 N by 0.08 s, stick.
void ExpectApproachSqueezeAndStick(const std::vector<GripperSample>& run, double phi_tol,
                                   double force_tol) {
  ASSERT_GE(run.size(), 24u);
  for (const GripperSample& s : run) {
    if (s.t > 0.125) break;
    SCOPED_TRACE("t = " + std::to_string(s.t));
    if (s.t < 0.035) {
      // Free motion: the finger follows its command, φ_1 = x_touch − x̄_l = 0.006 − 0.2 t.
      EXPECT_NEAR(s.x_l, s.x_l_commanded, phi_tol);
      EXPECT_NEAR(s.phi_1, kTouchX - s.x_l_commanded, phi_tol);
      EXPECT_NEAR(s.c_n1, 0.0, force_tol);
      continue;
    }
    // In contact: the finger stays at the sphere's surface and the spring sets the force.
    EXPECT_NEAR(s.x_l, kTouchX, phi_tol);
    EXPECT_NEAR(s.phi_1, 0.0, phi_tol);
    EXPECT_NEAR(s.c_n1, kStiffness * (s.x_l_commanded - kTouchX), force_tol);
    if (s.t > 0.085) {
      // Sticking while pulled down: the hand has not moved, friction takes the spring force.
      EXPECT_NEAR(s.c_n1, 10.0, force_tol);
      EXPECT_NEAR(s.y, 0.1, phi_tol);
      const double expected_friction = kStiffness * (0.1 - s.y_commanded) / 2.0;
      EXPECT_NEAR(-s.c_f1, expected_friction, force_tol);
      EXPECT_LT(std::abs(s.c_f1), kFriction * s.c_n1);
    }
  }
}

TEST_F(PaperGripperTest, LcpSqueezesSlidesAndSticksWithoutBoundaryLayer) {
  const std::vector<GripperSample> run = Simulate("lcp", 0.35);
  ExpectApproachSqueezeAndStick(run, phi_tolerance_, force_tolerance_);
  for (const GripperSample& s : run) {
    SCOPED_TRACE("t = " + std::to_string(s.t));
    if (s.t > 0.025) {
      EXPECT_NEAR(s.phi_1, 0.0, phi_tolerance_);  // no boundary layer, ever
    }
    if (s.t > 0.135) {
      // Sliding and after: c_n1 stays at 10 N and friction on the cone's edge (Fig. 6a).
      EXPECT_NEAR(s.c_n1, 10.0, force_tolerance_);
      EXPECT_NEAR(std::abs(s.c_f1), kFriction * s.c_n1, force_tolerance_);
    }
    if (s.t > 0.135 && s.t < 0.245) {
      // The hand lags the command by μ(c_n1 + c_n2)/K = 0.01 m and slides at 0.2 m/s.
      EXPECT_NEAR(s.y - s.y_commanded, 0.01, phi_tolerance_);
      EXPECT_NEAR(s.sliding_speed, kPullSpeed, phi_tolerance_ / scene_.time_step);
    }
    if (s.t > 0.245) {
      EXPECT_NEAR(s.sliding_speed, 0.0, phi_tolerance_ / scene_.time_step);
    }
  }
}

// Under the QP the sliding contact opens a boundary layer (§IV-A.2). With δ = 0.01 m the
// commanded squeeze, the finger balance gives c_n1 = K(δ + φ), the hand's balance a lag
// L = 2μ c_n1 / K, and the slide per step s_k = Δȳ − (L_{k+1} − L_k). With φ_{k+1} = μ s_k
// (eq. (8b)): φ_{k+1} = (μΔȳ + 2μ²φ_k)/(1 + 2μ²), so φ → μΔȳ = h μ v = 0.001 m while pulled
// at v = 0.2 m/s, and φ_{k+1} = r φ_k with r = 2μ²/(1 + 2μ²) = 1/3 once the command stops.
TEST_F(PaperGripperTest, QpOpensBoundaryLayerWhileSlidingAndClosesItAfter) {
  const std::vector<GripperSample> run = Simulate("qp", 0.35);
  ExpectApproachSqueezeAndStick(run, phi_tolerance_, force_tolerance_);
  const double h = scene_.time_step;
  const double r = 2 * kFriction * kFriction / (1 + 2 * kFriction * kFriction);
  for (const GripperSample& s : run) {
    if (s.t < 0.135) continue;
    SCOPED_TRACE("t = " + std::to_string(s.t));
    // Finger force balance with the layer, and sliding friction on the pyramid's edge.
    EXPECT_NEAR(s.c_n1, kStiffness * (0.01 + s.phi_1), force_tolerance_);
    if (s.sliding_speed > 1e-3) {
      EXPECT_NEAR(std::abs(s.c_f1), kFriction * s.c_n1, force_tolerance_);
      EXPECT_NEAR(s.phi_1, h * kFriction * s.sliding_speed, phi_tolerance_);  // eq. (8b)
    }
  }
  // The layer at the end of the pull: h μ v up to the transient r^11 (11 sliding steps).
  const double layer = h * kFriction * kPullSpeed;
  EXPECT_NEAR(At(run, 0.24).phi_1, layer, layer * std::pow(r, 10) + phi_tolerance_);
  EXPECT_GT(At(run, 0.15).phi_1, 0.5 * layer);
  // After the stop the layer decays geometrically by r per step and dissipates.
  EXPECT_NEAR(At(run, 0.25).phi_1, r * At(run, 0.24).phi_1, phi_tolerance_);
  EXPECT_NEAR(At(run, 0.26).phi_1, r * At(run, 0.25).phi_1, phi_tolerance_);
  for (double t = 0.25; t < 0.345; t += h) EXPECT_LE(At(run, t + h).phi_1, At(run, t).phi_1);
  EXPECT_LT(At(run, 0.35).phi_1, 0.01 * layer);
}

}  // namespace
}  // namespace quasidyn
