#include "quasidyn/formulations/ecp/ecp_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "quasidyn/math/quaternion.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;

// Scenario 1 of Xie & Chakraborty (§VI-A): a 1 m, 1 kg cube sliding on a plane.
constexpr char kSlidingCube[] = R"(
name: ecp_cube_sliding
dimension: 3
gravity: [0, 0, -9.8]
time_step: 0.01
formulation: {type: ecp, e_t: 1, e_o: 1, e_r: 1}
environment:
  - {name: plane, type: half_space, friction: 0.12}
objects:
  - name: cube
    joint: floating
    body: {mass: 1, inertia: from_shapes, shapes: [{type: box, size: [1, 1, 1], friction: 0.12}]}
    initial: [0, 0, 0.5, 1, 0, 0, 0]
)";

// A box whose com is off its centre and whose inertia is not diagonal, on a plane.
constexpr char kLopsidedBox[] = R"(
name: lopsided
dimension: 3
time_step: 0.01
formulation: {type: ecp, e_t: 1, e_o: 0.7, e_r: 0.2}
environment:
  - {name: plane, type: half_space, friction: 0.4}
objects:
  - name: box
    joint: floating
    body:
      mass: 2
      com: [0.1, -0.05, 0.02]
      inertia: {matrix: [[0.1, 0.01, 0.0], [0.01, 0.15, -0.02], [0.0, -0.02, 0.2]]}
      shapes: [{type: box, size: [0.8, 0.5, 0.4], friction: 0.4}]
    initial: [0, 0, 0.2, 1, 0, 0, 0]
)";

std::shared_ptr<const Scene> Load(const char* text, const char* name) {
  return std::make_shared<const Scene>(LoadSceneFromString(text, name, "."));
}

// The lowest of the cube's corners [m].
double LowestCorner(const VectorXd& q) {
  const Eigen::Matrix3d R = RotationMatrixFromQuaternion(q.segment<4>(3));
  double lowest = 1e9;
  for (int i = 0; i < 8; ++i) {
    const Vector3d corner(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
    lowest = std::min(lowest, (q.head<3>() + R * corner).z());
  }
  return lowest;
}

TEST(EcpModel, SlidingCubeFollowsTheDiscreteAnalyticSolution) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  const EcpModel model(scene, testing::SceneProgramSettings(*scene));
  auto data = model.CreateData();
  State x{scene->q0, VectorXd::Zero(6)};
  x.v << 4, 3, 0, 0, 0, 0;
  const double mu = 0.12, g = 9.8, h = 0.01;
  const Vector3d direction(0.8, 0.6, 0.0);
  int max_iterations = 0;
  for (int k = 1; k <= 400; ++k) {
    model.Calc(x, VectorXd::Zero(6), data.get());
    ASSERT_EQ(data->result.status, SolverStatus::kSolved)
        << "step " << k << ": " << data->result.message;
    x = data->result.next;
    max_iterations = std::max(max_iterations, data->result.solver.iterations);
    // Backward Euler of pure sliding (the friction impulse μ m g h opposes the velocity):
    // |v_k| = 5 − μ g h k, q_k = Σ h v_j (Xie & Chakraborty 2016, SIMPAR, the analytic solution
    // of pure translation with patch contact, here in discrete time).
    const double speed = 5.0 - mu * g * h * k;
    const double distance = 5.0 * h * k - mu * g * h * h * k * (k + 1) / 2.0;
    ASSERT_LT((x.v.head<3>() - speed * direction).norm(), 1e-7) << "step " << k;
    ASSERT_LT(x.v.tail<3>().norm(), 1e-7) << "step " << k;  // no rotation
    ASSERT_LT((x.q.head<2>() - distance * direction.head<2>()).norm(), 1e-6) << "step " << k;
    // No interpenetration beyond the solver's tolerance, and resting on the plane.
    ASSERT_GT(LowestCorner(x.q), -1e-8) << "step " << k;
    ASSERT_LT(LowestCorner(x.q), 1e-8) << "step " << k;
    // One contact, its ECP on the bottom face ahead of the com by μ·(half height) along the
    // motion (the moment of friction about the com balanced by the normal force's).
    ASSERT_EQ(data->result.contacts.size(), 1u);
    const ContactReport& c = data->result.contacts[0];
    const Vector3d offset = c.point - x.q.head<3>();
    EXPECT_LT((offset - Vector3d(0.06 * 0.8, 0.06 * 0.6, -0.5)).norm(), 1e-6) << "step " << k;
    EXPECT_NEAR(c.normal_impulse, g * h, 1e-8);
    EXPECT_LT((c.friction_impulse + mu * g * h * direction).norm(), 1e-7);
    EXPECT_NEAR(c.torsional_impulse, 0.0, 1e-8);
  }
  EXPECT_LE(max_iterations, 10);
}

// (q⁺, v⁺) of one step from x under u, or NaN when it fails.
VectorXd StepOf(const EcpModel& model, StepData* data, const State& x, const VectorXd& u) {
  model.Calc(x, u, data);
  if (!data->result.ok()) return VectorXd::Constant(x.q.size() + x.v.size(), NAN);
  VectorXd out(x.q.size() + x.v.size());
  out << data->result.next.q, data->result.next.v;
  return out;
}

// A and B of CalcDiff against central differences of Calc along every raw coordinate of (q, v)
// (quaternions normalised by the step) and of u.
void ExpectDerivativesMatchDifferences(const EcpModel& model, const State& x, const VectorXd& u) {
  auto data = model.CreateData();
  model.Calc(x, u, data.get());
  ASSERT_TRUE(data->result.ok()) << data->result.message;
  model.CalcDiff(GradientMode::kAAndB, data.get());
  ASSERT_TRUE(data->derivatives.ok()) << data->derivatives.message;
  const Eigen::MatrixXd A = data->derivatives.A, B = data->derivatives.B;
  const int nq = x.q.size(), nx = nq + x.v.size();
  ASSERT_EQ(A.rows(), nx);
  ASSERT_EQ(A.cols(), nx);
  ASSERT_EQ(B.cols(), u.size());
  const double eps = 1e-6;
  auto fd = model.CreateData();
  for (int j = 0; j < nx + u.size(); ++j) {
    State xp = x, xm = x;
    VectorXd up = u, um = u;
    if (j < nq) {
      xp.q[j] += eps;
      xm.q[j] -= eps;
    } else if (j < nx) {
      xp.v[j - nq] += eps;
      xm.v[j - nq] -= eps;
    } else {
      up[j - nx] += eps;
      um[j - nx] -= eps;
    }
    const VectorXd column =
        (StepOf(model, fd.get(), xp, up) - StepOf(model, fd.get(), xm, um)) / (2 * eps);
    const VectorXd analytic = j < nx ? VectorXd(A.col(j)) : VectorXd(B.col(j - nx));
    const double error =
        ((column - analytic).array().abs() / (1.0 + analytic.array().abs())).maxCoeff();
    EXPECT_LT(error, 1e-5) << "column " << j << "\nfinite differences " << column.transpose()
                           << "\nanalytic           " << analytic.transpose();
  }
}

TEST(EcpModel, DerivativesMatchFiniteDifferences) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  MixedNcpSettings tight = EcpModel::DefaultSolverSettings();
  tight.tolerance = 1e-13;
  const EcpModel model(scene, testing::SceneProgramSettings(*scene), tight);
  // Sliding on its face, with an applied impulse that the contact balances.
  State sliding{scene->q0, VectorXd::Zero(6)};
  sliding.v << 4, 3, 0, 0, 0, 0;
  VectorXd u(6);
  u << 0.01, -0.02, 0.005, 0.0, 0.0, 0.003;
  ExpectDerivativesMatchDifferences(model, sliding, u);
  // Tilted by 0.3 rad about x, resting on an edge and turning: line contact.
  State edge{scene->q0, VectorXd::Zero(6)};
  const double angle = 0.3;
  edge.q.segment<4>(3) << std::cos(angle / 2), std::sin(angle / 2), 0, 0;
  edge.q[2] = 0.5 * std::cos(angle) + 0.5 * std::sin(angle);
  edge.v << 0.5, 0.2, -0.1, -0.4, 0.1, 0.2;
  ExpectDerivativesMatchDifferences(model, edge, VectorXd::Zero(6));
  // In flight (no contact within the step).
  State flying = sliding;
  flying.q[2] = 2.0;
  flying.v << 1, 0, 0, 0.5, -0.3, 2.0;
  ExpectDerivativesMatchDifferences(model, flying, u);
  // The lopsided box (com off the origin, full inertia) on an edge and in flight.
  const auto lopsided = Load(kLopsidedBox, "lopsided.yaml");
  const EcpModel box(lopsided, testing::SceneProgramSettings(*lopsided), tight);
  State tilted{lopsided->q0, VectorXd::Zero(6)};
  tilted.q.segment<4>(3) << std::cos(0.1), 0.0, std::sin(0.1), 0.0;  // 0.2 rad about y
  tilted.q[2] = 0.2 * std::cos(0.2) + 0.4 * std::sin(0.2);
  tilted.v << -0.3, 0.6, 0.0, 0.2, 0.3, -0.5;
  ExpectDerivativesMatchDifferences(box, tilted, u);
  tilted.q[2] += 1.0;
  ExpectDerivativesMatchDifferences(box, tilted, u);
}

TEST(EcpModel, CalcDoesNotAllocateAfterWarmUp) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no malloc counting here";
  const auto scene = Load(kSlidingCube, "cube.yaml");
  const EcpModel model(scene, testing::SceneProgramSettings(*scene));
  auto data = model.CreateData();
  State x{scene->q0, VectorXd::Zero(6)};
  x.v << 4, 3, 0, 0, 0, 0;
  const VectorXd u = VectorXd::Zero(6);
  for (int k = 0; k < 3; ++k) {  // warm-up: the pair enters, the buffers reach their sizes
    model.Calc(x, u, data.get());
    x = data->result.next;
  }
  for (int k = 0; k < 20; ++k) {
    const State start = x;
    long allocations = 0;
    {
      testing::MallocCounter counter;
      model.Calc(start, u, data.get());
      allocations = counter.count();
    }
    EXPECT_EQ(allocations, 0) << "step " << k;
    ASSERT_TRUE(data->result.ok());
    x = data->result.next;
  }
}

TEST(EcpModel, ScheduledCommandSumsTheImpulsesDueInTheStep) {
  const auto scene = Load(R"(
name: impulses
dimension: 3
time_step: 0.01
formulation: {type: ecp}
environment:
  - {name: plane, type: half_space, friction: 0.5}
objects:
  - name: cube
    joint: floating
    body: {mass: 1, inertia: from_shapes, shapes: [{type: box, size: [1, 1, 1], friction: 0.5}]}
    initial: [0, 0, 0.5, 1, 0, 0, 0]
    external_force: [0, 0, 0, 0, 0, 1]
    impulses:
      - {t: 1.0, p: [1, 0, 0, 0, 0, 0]}
      - {when: {wz: 0}, tolerance: 1.0e-3, p: [0, 2, 0, 0, 0, 0]}
      - {from: 0.5, to: 0.52, f: [0, 0, 10, 0, 0, 0]}
)",
                          "impulses.yaml");
  const EcpModel model(scene, testing::SceneProgramSettings(*scene));
  State spinning{scene->q0, VectorXd::Zero(6)};
  spinning.v[5] = 1.0;  // ω_z = 1: the trigger does not fire
  const auto at = [&](double t, const State& x) { return model.ScheduledCommand(t, x); };
  VectorXd expected = VectorXd::Zero(6);
  expected[5] = 0.01;  // h·external_force, every step
  EXPECT_TRUE(at(0.5, spinning).isApprox(expected));
  VectorXd timed = expected;
  timed[0] = 1.0;  // the step [1.00, 1.01)
  EXPECT_TRUE(at(1.01, spinning).isApprox(timed));
  EXPECT_TRUE(at(1.0, spinning).isApprox(expected));
  EXPECT_TRUE(at(1.02, spinning).isApprox(expected));
  VectorXd window = expected;
  window[2] = 0.1;  // h·10 N in the steps starting at 0.50 and 0.51
  EXPECT_TRUE(at(0.51, spinning).isApprox(window));
  EXPECT_TRUE(at(0.52, spinning).isApprox(window));
  EXPECT_TRUE(at(0.53, spinning).isApprox(expected));
  State still = spinning;
  still.v[5] = 5e-4;  // within the trigger's tolerance
  VectorXd triggered = expected;
  triggered[1] = 2.0;
  EXPECT_TRUE(at(0.3, still).isApprox(triggered));
  EXPECT_EQ(scene->ScheduleEnd(), 1.0);  // the last timed impulse
}

TEST(EcpModel, RefusesWhatItCannotExpressByName) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.ecp_e_t = 0.0;
  EXPECT_THROW(EcpModel(scene, settings), std::invalid_argument);
  // A capsule: the loader refuses it at its line (io/ecp_keys.h); a scene built otherwise is
  // refused by the model.
  auto capsule_scene = std::make_shared<Scene>(*scene);
  capsule_scene->geometries[1].shape.type = ShapeType::kCapsule;
  capsule_scene->geometries[1].shape.radius = 0.5;
  capsule_scene->geometries[1].shape.length = 1.0;
  try {
    EcpModel model(capsule_scene, testing::SceneProgramSettings(*capsule_scene));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("capsule"), std::string::npos) << e.what();
  }
}

TEST(EcpModel, WrongSizedStateIsAnError) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  const EcpModel model(scene, testing::SceneProgramSettings(*scene));
  auto data = model.CreateData();
  EXPECT_THROW(model.Calc(State{scene->q0, VectorXd()}, VectorXd::Zero(6), data.get()),
               std::invalid_argument);
  EXPECT_THROW(model.Calc(State{scene->q0, VectorXd::Zero(6)}, VectorXd::Zero(3), data.get()),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
