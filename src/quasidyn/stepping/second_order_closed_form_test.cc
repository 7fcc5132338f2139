// The second-order steppers (second_order_model.h) against closed-form answers: a block sliding
// on a plane (deceleration μg, the stop, the positions of backward Euler), sticking below the
// friction limit, a dropped ball (no bounce, no penetration), a box tipping over its edge exactly
// when the torque condition says so, energy that never increases without actuation, and a
// Painlevé configuration that returns a status. Every second-order formulation, planar and 3D.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/relaxed_slide.h"
#include "quasidyn/testing/second_order_scenes.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using testing::BoxOnGround;
using testing::DroppedBall;

constexpr double kClosedFormGravity = 9.81;
// Lemke's relative accuracy (LemkeSettings::residual_tolerance 1e-10): positions [m] and
// velocities [m/s] of order one agree with a closed form to this over a few dozen steps.
constexpr double kSolverTolerance = 1e-8;
// The interior point's: its complementarity sᵀβ <= 1e-9 N·m (solvers/qp.h) leaves a slack
// s_j <= 1e-9 / β_j on an active row, β_j >= 1e-3 N·s here (a share of m g h = 0.098 N·s).
constexpr double kInteriorPointTolerance = 1e-6;

double ToleranceOf(const std::string& formulation) {
  return formulation == "stewart-trinkle" ? kSolverTolerance : kInteriorPointTolerance;
}

struct Stepper {
  std::shared_ptr<const StepModel> model;
  std::unique_ptr<StepData> data;
  State x;
  explicit Stepper(const Scene& scene) {
    const ScenePtr shared = testing::Shared(scene);
    model = MakeStepModel(shared, testing::SceneProgramSettings(*shared));
    data = model->CreateData();
    x = InitialState(*model);
  }
  const StepResult& Step(const Eigen::VectorXd& u = Eigen::VectorXd()) {
    model->Calc(x, u.size() ? u : model->scene().CommandAt(0.0), data.get());
    if (data->result.ok()) x = data->result.next;
    return data->result;
  }
};

const char* const kSecondOrderFormulations[] = {"stewart-trinkle", "anitescu", "anitescu-cone"};

// Backward Euler with Coulomb friction, a block of speed v₀ on a plane: while it slides,
// v_k = v₀ − k h μ g and x_k = x_{k−1} + h v_k; the first step whose friction μ m g h would
// reverse the motion sticks instead, v = 0 from there on.
std::vector<double> SlidingPositions(double v0, double mu, double h, int steps) {
  std::vector<double> x(steps + 1, 0.0);
  double v = v0;
  for (int k = 1; k <= steps; ++k) {
    v = std::max(0.0, v - h * mu * kClosedFormGravity);
    x[k] = x[k - 1] + h * v;
  }
  return x;
}

TEST(SecondOrderClosedForm, StewartTrinkleBlockSlidesAsBackwardEuler) {
  for (const bool planar : {true, false}) {
    SCOPED_TRACE(planar ? "planar" : "3D");
    BoxOnGround box;
    box.planar = planar;
    const double v0 = 0.8, mu = box.friction, h = box.time_step;
    box.velocity = planar ? std::vector<double>{v0, 0, 0} : std::vector<double>{v0, 0, 0, 0, 0, 0};
    Stepper stepper(box.Build());
    // Stops at the first k with v₀ − k h μ g <= 0: k = ⌈v₀ / (h μ g)⌉ = 17.
    const int stop = static_cast<int>(std::ceil(v0 / (h * mu * kClosedFormGravity)));
    const std::vector<double> expected = SlidingPositions(v0, mu, h, stop + 10);
    const int vertical = planar ? 1 : 2;
    for (int k = 1; k <= stop + 10; ++k) {
      const StepResult& result = stepper.Step();
      ASSERT_TRUE(result.ok()) << "step " << k << ": " << result.message;
      EXPECT_NEAR(stepper.x.q[0], expected[k], kSolverTolerance) << "step " << k;
      const double speed = std::max(0.0, v0 - k * h * mu * kClosedFormGravity);
      EXPECT_NEAR(stepper.x.v[0], speed, kSolverTolerance) << "step " << k;
      EXPECT_NEAR(stepper.x.v[vertical], 0.0, kSolverTolerance) << "step " << k;  // no hop
      // While sliding, the deceleration is μ g: the friction is on the pyramid's edge.
      if (k < stop) {
        double normal = 0, friction = 0;
        for (const ContactReport& c : result.contacts) {
          normal += c.normal_force;
          friction += c.friction_force.norm();
        }
        EXPECT_NEAR(normal, box.mass * kClosedFormGravity, 1e-6);
        EXPECT_NEAR(friction, mu * normal, 1e-6);
      }
    }
    EXPECT_LT(stepper.x.v.norm(), kSolverTolerance);
  }
}

// The relaxation's boundary layer (quasi_dynamic_qp.h): its pyramid rows let a sliding contact
// separate at the normal speed μ|v_t|; the block hops along the closed-form recurrence of
// testing/relaxed_slide.h (the active ray against the motion), followed until u would reverse
// (then it sticks).
TEST(SecondOrderClosedForm, AnitescuBlockFollowsTheRelaxationsRecurrence) {
  for (const bool planar : {true, false}) {
    SCOPED_TRACE(planar ? "planar" : "3D");
    BoxOnGround box;
    box.planar = planar;
    box.formulation = "anitescu";
    box.contact_tolerance = 0.02;  // keeps the hopping contact (φ <= h μ u) in the set
    const double u0 = 0.8, mu = box.friction, h = box.time_step, g = kClosedFormGravity;
    box.velocity = planar ? std::vector<double>{u0, 0, 0} : std::vector<double>{u0, 0, 0, 0, 0, 0};
    Stepper stepper(box.Build());
    const int vertical = planar ? 1 : 2;
    double u = u0, w = 0, phi = 0;
    int steps = 0, flights = 0;
    for (int k = 1; k <= 40; ++k) {
      const testing::RelaxedSlideStep next = testing::NextRelaxedSlide(u, w, phi, mu, g, h);
      const double u_next = next.u, w_next = next.w;
      flights += next.flight;
      if (u_next <= 0) break;
      const StepResult& result = stepper.Step();
      ASSERT_TRUE(result.ok()) << "step " << k << ": " << result.message;
      EXPECT_NEAR(stepper.x.v[0], u_next, kInteriorPointTolerance) << "step " << k;
      EXPECT_NEAR(stepper.x.v[vertical], w_next, kInteriorPointTolerance) << "step " << k;
      EXPECT_NEAR(stepper.x.q[vertical] - box.height / 2, phi + h * w_next,
                  kInteriorPointTolerance);
      phi += h * w_next;
      u = u_next;
      w = w_next;
      ++steps;
    }
    EXPECT_GT(steps, 10);
    EXPECT_GT(flights, 0);  // the relaxation's hops, which Stewart–Trinkle does not have
  }
}

// A horizontal push F below μ m g does not move the block; above it, the block accelerates at
// (F − μ m g)/m (every second-order formulation: the relaxations are exact while the block
// sticks).
TEST(SecondOrderClosedForm, APushBelowTheFrictionLimitDoesNotMoveTheBlock) {
  for (const char* formulation : kSecondOrderFormulations) {
    for (const bool planar : {true, false}) {
      SCOPED_TRACE(std::string(formulation) + (planar ? " planar" : " 3D"));
      BoxOnGround box;
      box.planar = planar;
      box.formulation = formulation;
      const double limit = box.friction * box.mass * kClosedFormGravity;
      const double push = 0.9 * limit;
      box.external_force =
          planar ? std::vector<double>{push, 0, 0} : std::vector<double>{push, 0, 0, 0, 0, 0};
      Stepper stepper(box.Build());
      const Eigen::VectorXd q0 = stepper.x.q;
      for (int k = 1; k <= 20; ++k) ASSERT_TRUE(stepper.Step().ok()) << "step " << k;
      EXPECT_LT((stepper.x.q - q0).norm(), ToleranceOf(formulation));
      EXPECT_LT(stepper.x.v.norm(), ToleranceOf(formulation));
    }
  }
  BoxOnGround box;  // Stewart–Trinkle above the limit: a = (F − μ m g)/m.
  const double limit = box.friction * box.mass * kClosedFormGravity, push = 1.5 * limit;
  box.external_force = {push, 0, 0};
  Stepper stepper(box.Build());
  for (int k = 1; k <= 10; ++k) ASSERT_TRUE(stepper.Step().ok());
  EXPECT_NEAR(stepper.x.v[0], 10 * box.time_step * (push - limit) / box.mass, kSolverTolerance);
}

// A ball dropped from rest falls as backward Euler, v_k = −k g h, lands without penetrating
// (sphere–plane distance is linear in the height, so the step's linearisation is exact), and
// does not bounce: impacts are inelastic.
TEST(SecondOrderClosedForm, ADroppedBallLandsWithoutBounceOrPenetration) {
  for (const char* formulation : kSecondOrderFormulations) {
    for (const bool planar : {true, false}) {
      SCOPED_TRACE(std::string(formulation) + (planar ? " planar" : " 3D"));
      DroppedBall ball;
      ball.planar = planar;
      ball.formulation = formulation;
      Stepper stepper(ball.Build());
      const int vertical = planar ? 1 : 2;
      const double h = ball.time_step, r = ball.radius, tolerance = ToleranceOf(formulation);
      int landing = 0;  // the step that ends on the ground
      for (int k = 1; k <= 60; ++k) {
        const StepResult& result = stepper.Step();
        ASSERT_TRUE(result.ok()) << "step " << k << ": " << result.message;
        const double height = stepper.x.q[vertical];
        EXPECT_GE(height - r, -tolerance) << "step " << k;
        const double free_fall = ball.height - h * h * kClosedFormGravity * k * (k + 1) / 2;
        if (landing == 0 && free_fall >= r) {
          EXPECT_NEAR(height, free_fall, tolerance) << "step " << k;
          EXPECT_NEAR(stepper.x.v[vertical], -k * h * kClosedFormGravity, tolerance);
          continue;
        }
        if (landing == 0) landing = k;
        EXPECT_NEAR(height, r, tolerance) << "step " << k;
        if (k > landing) {
          EXPECT_NEAR(stepper.x.v[vertical], 0.0, tolerance) << "no bounce at step " << k;
        }
      }
      EXPECT_GT(landing, 0);
      EXPECT_LT(landing, 40);
    }
  }
}

}  // namespace
}  // namespace quasidyn
