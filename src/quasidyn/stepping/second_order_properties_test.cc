// Properties of the second-order steppers (second_order_model.h) through the StepModel
// interface: their state and the caller's mistakes, a failed step that keeps (q, v) and names the
// contact, the warm start, the Stewart–Trinkle LCP against Siconos' Lemke, the two formulations'
// agreement where the relaxation is exact, energy that never increases without actuation, a box
// that tips over its edge exactly when the torque condition says so, and a Painlevé rod that
// returns a status.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "quasidyn/formulations/programs/quasistatic_lcp.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/second_order/second_order_model.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/second_order_scenes.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/siconos_lcp.h"

namespace quasidyn {
namespace {

using testing::BoxOnGround;

constexpr double kGravity = 9.81;
const char* const kBothFormulations[] = {"stewart-trinkle", "anitescu"};
// ... and the relaxation on the exact cone, for the properties every second-order step has.
const char* const kEverySecondOrderFormulation[] = {"stewart-trinkle", "anitescu", "anitescu-cone"};

std::string MessageOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

ScenePtr WithType(const Scene& scene, const std::string& formulation) {
  return testing::Shared(WithFormulation(scene, formulation, {}, "test"));
}

TEST(SecondOrderModel, StateHasVelocitiesAndTheCallersMistakesThrow) {
  BoxOnGround box;
  box.velocity = {0.3, 0, 0};
  const ScenePtr scene = testing::Shared(box.Build());
  const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
  EXPECT_EQ(model->state_v_size(), scene->nv);
  const State x = InitialState(*model);
  EXPECT_EQ(x.v, scene->v0);
  EXPECT_EQ(InitialState(*scene).v, scene->v0);  // the scene's own type is second order
  // A quasi-dynamic model of the same scene has no velocity, whatever v0 says.
  testing::ProgramSettings qp = testing::SceneProgramSettings(*scene);
  qp.type = "qp";
  EXPECT_EQ(InitialState(*MakeStepModel(scene, qp)).v.size(), 0);
  // Without v0 the state starts at rest.
  BoxOnGround still;
  const ScenePtr resting = testing::Shared(still.Build());
  EXPECT_EQ(InitialState(*MakeStepModel(resting, testing::SceneProgramSettings(*resting))).v,
            Eigen::VectorXd::Zero(resting->nv));

  const auto data = model->CreateData();
  const Eigen::VectorXd u = scene->CommandAt(0.0);
  EXPECT_NE(MessageOf([&] {
              model->Calc(State{x.q, {}}, u, data.get());
            }).find("x.v has size 0, expected n_v = 3"),
            std::string::npos);
  State bad = x;
  bad.v[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(MessageOf([&] { model->Calc(bad, u, data.get()); }).find("x.v[1] is not finite"),
            std::string::npos);
  EXPECT_NE(MessageOf([&] {
              model->CalcDiff(GradientMode::kAAndB, data.get());
            }).find("call Calc on this data first"),
            std::string::npos);
  // The registrations declare what the model does: a velocity state, a derivative of its own,
  // no log-barrier smoothing, the robots' positions as the command.
  for (const char* name : {"stewart-trinkle", "anitescu"}) {
    const FormulationCapabilities& can = FormulationRegistry::Global().Get(name).info.capabilities;
    EXPECT_EQ(can.state, StateKind::kConfigurationAndVelocity) << name;
    EXPECT_EQ(can.command, CommandKind::kRobotPositions) << name;
    EXPECT_TRUE(can.differentiable()) << name;
    EXPECT_EQ(can.exact_linearization, name);
  }
  LinearizationOptions barrier;
  barrier.method = LinearizationMethod::kLogBarrier;
  EXPECT_NE(MessageOf([&] {
              Linearizer(scene, FormulationChoice("anitescu"), barrier);
            }).find("anitescu has no log-barrier smoothing"),
            std::string::npos);
}

// A ball wedged between two fixed blocks, overlapping both (tests/cli/fixtures/
// overlapping_blocks.yaml): no velocity removes both penetrations, so both programs fail;
// the step keeps (q, v), names the contact, and its derivative is a status.
TEST(SecondOrderModel, AFailedStepKeepsTheStateAndNamesTheContact) {
  const Scene overlapping =
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/tests/cli/fixtures/overlapping_blocks.yaml");
  for (const char* formulation : kBothFormulations) {
    SCOPED_TRACE(formulation);
    const ScenePtr scene = WithType(overlapping, formulation);
    const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
    const auto data = model->CreateData();
    State x = InitialState(*model);
    x.v << 0.5, -0.25, 1.0;
    model->Calc(x, scene->CommandAt(0.0), data.get());
    ASSERT_FALSE(data->result.ok());
    EXPECT_EQ(data->result.next.q, x.q);
    EXPECT_EQ(data->result.next.v, x.v);
    EXPECT_NE(data->result.message.find("ball/disk"), std::string::npos) << data->result.message;
    model->CalcDiff(GradientMode::kAAndB, data.get());
    EXPECT_FALSE(data->derivatives.ok());
    EXPECT_NE(data->derivatives.message.find("the step failed"), std::string::npos);
  }
}

// Stewart–Trinkle's Lemke is warm-started from the previous basis: a block sliding in the same
// mode step after step needs no pivot after the first step, gives the cold answer, and
// ClearWarmStart makes the next step a function of (x, u) alone. (A planar block: its two
// corners' loads are unique. A 3D box flat on the ground has four corners on three velocities,
// loads that are not unique, and a basis guessed from the values can be singular there; Lemke
// then runs as without a warm start.)
TEST(SecondOrderModel, WarmStartedLemkeGivesTheColdAnswerWithoutPivots) {
  BoxOnGround box;
  box.velocity = {0.8, 0, 0};
  const ScenePtr scene = testing::Shared(box.Build());
  const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
  const auto warm = model->CreateData();
  const auto cold = model->CreateData();
  State x = InitialState(*model);
  const Eigen::VectorXd u = scene->CommandAt(0.0);
  for (int k = 1; k <= 8; ++k) {
    model->Calc(x, u, warm.get());
    ASSERT_TRUE(warm->result.ok()) << warm->result.message;
    model->ClearWarmStart(cold.get());
    model->Calc(x, u, cold.get());
    EXPECT_GT(cold->result.solver.iterations, 0);
    if (k > 1) {
      EXPECT_EQ(warm->result.solver.iterations, 0) << "step " << k;
    }
    EXPECT_TRUE(testing::MatricesNear(warm->result.next.v, cold->result.next.v, 1e-12));
    x = warm->result.next;
  }
  model->ClearWarmStart(warm.get());
  model->ClearWarmStart(cold.get());
  model->Calc(x, u, warm.get());
  model->Calc(x, u, cold.get());
  EXPECT_GT(warm->result.solver.iterations, 0);
  EXPECT_EQ(warm->result.next.v, cold->result.next.v);
}

// The Stewart–Trinkle LCPs of a planar block and a 3D ball sliding and spinning, and of the
// planar gripper squeezing its sphere, solved by Siconos' lexicographic Lemke: both answers
// complementary to Lemke's tolerance, and the same velocity (unique: the impulses' freedom
// lies in the null space of Jᵀ, which does not move v). Not on LCPs with redundant contacts (a
// 3D box flat on the ground, the arm's cubes): there Siconos reports success (info 0) with a
// pair that violates w >= 0 by up to 20 % of the data's scale, as halm_posa_lcp_test.cc found
// on its LCPs; ours stays complementary (checked on the arm's cubes below).
double Violation(const LcpView& lcp, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = lcp.M * z + lcp.q;
  const double scale = lcp.q.lpNorm<Eigen::Infinity>() +
                       lcp.M.lpNorm<Eigen::Infinity>() * z.lpNorm<Eigen::Infinity>();
  const double violation = std::max(
      {-w.minCoeff(), -z.minCoeff(),
       z.cwiseProduct(w).cwiseAbs().maxCoeff() / std::max(1e-300, z.lpNorm<Eigen::Infinity>())});
  return violation / scale;
}

TEST(SecondOrderModel, StewartTrinkleLcpMatchesSiconos) {
  BoxOnGround box;
  box.velocity = {0.6, 0, 1.0};
  testing::DroppedBall ball;
  ball.height = ball.radius;
  const Scene ball_scene = ball.Build();
  Scene rolling = ball_scene;
  rolling.v0 = Eigen::VectorXd(6);
  rolling.v0 << 0.6, -0.3, 0, 4.0, 1.0, 2.0;
  const std::vector<std::tuple<ScenePtr, int, bool>> cases = {
      {testing::Shared(box.Build()), 2, true},
      {testing::Shared(rolling), 2, true},
      {WithType(*testing::LoadExample("planar_gripper"), "stewart-trinkle"), 8, true},
      {WithType(*testing::LoadExample("arm_cubes"), "stewart-trinkle"), 5, false}};
  for (const auto& [scene, steps, compare] : cases) {
    SCOPED_TRACE(scene->name);
    const auto model = MakeStepModel(scene);
    const auto data = model->CreateData();
    State x = InitialState(*model);
    for (int k = 1; k <= steps; ++k) {
      model->ClearWarmStart(data.get());
      model->Calc(x, model->ScheduledCommand(k * model->time_step(), x), data.get());
      ASSERT_TRUE(data->result.ok()) << data->result.message;
      if (k < steps) x = data->result.next;
    }
    const auto& second_order = static_cast<const SecondOrderData&>(*data);
    const auto& workspace = static_cast<const QuasistaticLcpWorkspace&>(second_order.workspace());
    const LcpView lcp = workspace.built.lcp();
    ASSERT_GT(lcp.q.size(), 0);
    EXPECT_LE(Violation(lcp, workspace.z), 1e-10);  // Lemke's final check (solvers/lemke.h)
    if (!compare) continue;
    const testing::SiconosSolution reference = testing::SolveWithSiconos(lcp);
    ASSERT_EQ(reference.info, 0);
    EXPECT_LE(Violation(lcp, reference.z), 1e-9);
    const Eigen::VectorXd v_siconos =
        workspace.built.velocity_offset + workspace.built.velocity_map * reference.z;
    EXPECT_TRUE(
        testing::MatricesNear(data->result.velocity, v_siconos, 1e-9 * (1 + v_siconos.norm())));
  }
}

// Where the relaxation is exact (sticking contacts, or contacts at φ > 0 that stay open), the
// Anitescu QP and the Stewart–Trinkle LCP take the same step: a block resting and pushed below
// its friction limit, a ball flying past the ground within the contact tolerance, and the
// planar gripper squeezing its sphere.
TEST(SecondOrderModel, TheFormulationsAgreeWhereTheRelaxationIsExact) {
  BoxOnGround pushed;
  pushed.external_force = {2.0, 0, 0};  // < μ m g = 4.9 N
  testing::DroppedBall ball;
  ball.height = 0.07;            // 2 cm above the ground, within ε = 5 cm
  ball.vertical_velocity = 0.5;  // rising: the contact stays open
  ball.planar = true;
  const std::vector<std::pair<Scene, int>> cases = {
      {pushed.Build(), 10}, {ball.Build(), 3}, {*testing::LoadExample("planar_gripper"), 8}};
  for (const auto& [base, steps] : cases) {
    SCOPED_TRACE(base.name);
    State x[2];
    for (int f = 0; f < 2; ++f) {
      const ScenePtr scene = WithType(base, kBothFormulations[f]);
      const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
      const auto data = model->CreateData();
      x[f] = InitialState(*model);
      for (int k = 1; k <= steps; ++k) {
        model->Calc(x[f], model->ScheduledCommand(k * model->time_step(), x[f]), data.get());
        ASSERT_TRUE(data->result.ok()) << data->result.message;
        x[f] = data->result.next;
      }
    }
    // To the interior point's accuracy (second_order_closed_form_test.cc).
    EXPECT_TRUE(testing::MatricesNear(x[0].q, x[1].q, 1e-6));
    EXPECT_TRUE(testing::MatricesNear(x[0].v, x[1].v, 1e-6));
  }
}

// A pile of spheres (3D) and of disks (planar) of random sizes, masses and velocities, falling
// and colliding without actuation: E = ½ vᵀ M v − Σ m gᵀ p_com never increases. Per step, the
// stationarity of either program gives E⁺ − E = λᵀ J v⁺ − ½ |v⁺ − v|²_M with λᵀ J v⁺ =
// −Σ λ_n φ/h <= 0 (Stewart–Trinkle: complementarity of each row; Anitescu: of each pyramid row,
// up to the interior point's gap), and the spheres' distance is convex in their positions, so
// the linearised gap never lets them penetrate (φ >= 0 at every step).
std::string PileScene(bool planar, const std::string& formulation, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << testing::SceneHead("pile", planar, formulation, 0.01, 0.05);
  yaml << "environment:\n  - {name: ground, type: half_space, friction: 0.6}\nobjects:\n";
  int i = 0;
  for (int layer = 0; layer < 3; ++layer) {
    for (int column = 0; column < 3; ++column, ++i) {
      const double radius = 0.04 + 0.02 * uniform(random);
      const double mass = 0.2 + 0.8 * uniform(random);
      const double x = 0.13 * column + 0.01 * uniform(random);
      const double z = 0.07 + 0.13 * layer + 0.02 * uniform(random);
      std::vector<double> v;
      for (int k = 0; k < (planar ? 3 : 6); ++k) v.push_back(2.0 * uniform(random) - 1.0);
      yaml << "  - name: s" << i << "\n    joint: " << (planar ? "planar" : "floating")
           << "\n    body: {mass: " << mass << ", inertia: from_shapes, shapes: [{type: sphere, "
           << "radius: " << radius << ", friction: 0.6}]}\n";
      const double y = 0.01 * uniform(random);
      yaml << "    initial: "
           << (planar ? testing::YamlList({x, z, 0.0}) : testing::YamlList({x, y, z, 1, 0, 0, 0}))
           << "\n    initial_velocity: " << testing::YamlList(v) << "\n";
    }
  }
  return yaml.str();
}

double Energy(const Scene& scene, const State& x) {
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(x.q);
  double potential = 0;
  for (size_t b = 1; b < scene.bodies.size(); ++b) {
    const Body& body = scene.bodies[b];
    potential -= body.mass * scene.gravity.dot(kinematics.BodyPose(static_cast<int>(b)) * body.com);
  }
  return 0.5 * x.v.dot(kinematics.MassMatrix() * x.v) + potential;
}

TEST(SecondOrderModel, EnergyNeverIncreasesWithoutActuation) {
  for (const char* formulation : kEverySecondOrderFormulation) {
    for (const bool planar : {true, false}) {
      for (const unsigned seed : {1u, 2u}) {
        SCOPED_TRACE(std::string(formulation) + (planar ? " planar" : " 3D") + " seed " +
                     std::to_string(seed));
        const ScenePtr scene =
            testing::Shared(LoadSceneFromString(PileScene(planar, formulation, seed), "pile", ""));
        const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
        const auto data = model->CreateData();
        State x = InitialState(*model);
        double energy = Energy(*scene, x);
        const double start = energy;
        int contacts = 0;
        for (int k = 1; k <= 80; ++k) {
          model->Calc(x, scene->CommandAt(0.0), data.get());
          ASSERT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
          x = data->result.next;
          contacts += static_cast<int>(data->result.contacts.size());
          const double next = Energy(*scene, x);
          // Lemke's 1e-10 and the interior point's 1e-9 (its gap, in J) relative to the
          // energy's scale, with a margin of 10.
          EXPECT_LE(next, energy + 1e-8 * (1 + std::abs(start))) << "step " << k;
          energy = next;
        }
        EXPECT_GT(contacts, 80);         // the spheres did collide and rest
        EXPECT_LT(energy, start - 0.1);  // and lost energy doing so
      }
    }
  }
}

// A tall box (0.1 m wide, 0.3 m high, 1 kg, μ = 1) pushed at its centre of mass by F: about the
// front edge the push's torque F·H/2 beats the weight's m g W/2 when F > m g W / H = 3.27 N (the
// friction limit μ m g = 9.81 N is far). Below it the box stays put; above it the box tips,
// pivoting on its front edge without sliding.
TEST(SecondOrderModel, ABoxTipsOverItsEdgeExactlyWhenTheTorqueConditionSaysSo) {
  for (const char* formulation : kEverySecondOrderFormulation) {
    for (const bool planar : {true, false}) {
      for (const double ratio : {0.95, 1.05}) {
        SCOPED_TRACE(std::string(formulation) + (planar ? " planar" : " 3D") + " F/F_tip " +
                     std::to_string(ratio));
        BoxOnGround box;
        box.planar = planar;
        box.formulation = formulation;
        box.height = 0.3;
        box.friction = 1.0;
        const double tip = box.mass * kGravity * box.width / box.height;
        const double push = ratio * tip;
        box.external_force =
            planar ? std::vector<double>{push, 0, 0} : std::vector<double>{push, 0, 0, 0, 0, 0};
        const ScenePtr scene = testing::Shared(box.Build());
        const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
        const auto data = model->CreateData();
        State x = InitialState(*model);
        for (int k = 1; k <= 40; ++k) {
          model->Calc(x, scene->CommandAt(0.0), data.get());
          ASSERT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
          x = data->result.next;
        }
        // The tilt toward +x: planar −θ (about z), 3D the rotation about y of the quaternion.
        const double tilt = planar ? -x.q[2] : 2 * std::atan2(x.q[5], x.q[3]);
        // The front edge, (W/2, −H/2) in the box, stays at x = W/2: pivoting, not sliding.
        const double c = std::cos(tilt), s = std::sin(tilt);
        const double edge = x.q[0] + 0.5 * box.width * c - 0.5 * box.height * s;
        if (ratio < 1) {
          EXPECT_LT(std::abs(tilt), 1e-6);
          EXPECT_LT(x.v.norm(), 1e-6);
        } else {
          EXPECT_GT(tilt, 0.01);
          EXPECT_NEAR(edge, 0.5 * box.width, 1e-3 * box.width);
        }
      }
    }
  }
}

// Painlevé's rod (a 1 m, 1 kg thin box, μ = 1.5 above the critical 4/3 of a uniform rod)
// inclined at 30° on its lower end, sliding either way: the acceleration-level problem has no
// solution or two (Stewart 2000, SIAM Review 42, §5), the velocity-level LCP of the time step is
// solvable (Anitescu & Potra 1997) by an impulse. Every step returns a status, never an exception
// or a crash; a failed one would keep (q, v) and name the contact; here every step solves, and
// the end never goes through the ground.
TEST(SecondOrderModel, APainleveRodReturnsAStatus) {
  const double angle = M_PI / 6, length = 1.0;
  for (const char* formulation : kBothFormulations) {
    for (const double speed : {-3.0, 3.0}) {
      SCOPED_TRACE(std::string(formulation) + " sliding at " + std::to_string(speed));
      std::ostringstream yaml;
      yaml.precision(17);
      yaml << testing::SceneHead("painleve", true, formulation, 0.01, 0.02);
      yaml << "environment:\n  - {name: ground, type: half_space, friction: 1.5}\n"
           << "objects:\n  - name: rod\n    joint: planar\n"
           << "    body: {mass: 1, inertia: from_shapes, shapes: [{type: box, size: [" << length
           << ", 0.01, 0.01], friction: 1.5}]}\n"
           << "    initial: "
           << testing::YamlList(
                  {0.0, 0.5 * length * std::sin(angle) + 0.005 * std::cos(angle), angle})
           << "\n    initial_velocity: " << testing::YamlList({speed, 0, 0}) << "\n";
      const ScenePtr scene = testing::Shared(LoadSceneFromString(yaml.str(), "painleve", ""));
      const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
      const auto data = model->CreateData();
      State x = InitialState(*model);
      for (int k = 1; k <= 30; ++k) {
        ASSERT_NO_THROW(model->Calc(x, scene->CommandAt(0.0), data.get()));
        if (!data->result.ok()) {
          EXPECT_EQ(data->result.next.q, x.q);
          EXPECT_EQ(data->result.next.v, x.v);
          EXPECT_NE(data->result.message.find("contact"), std::string::npos)
              << data->result.message;
        }
        ASSERT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
        if (k == 1) {
          EXPECT_FALSE(data->result.contacts.empty());  // it slides on its end
        }
        for (const ContactReport& c : data->result.contacts) EXPECT_GE(c.phi_end, -1e-9);
        x = data->result.next;
      }
    }
  }
}

}  // namespace
}  // namespace quasidyn
