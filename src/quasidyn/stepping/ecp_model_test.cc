#include "quasidyn/stepping/ecp_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "quasidyn/io/scene_loader.h"
#include "quasidyn/math/quaternion.h"

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
  const EcpModel model(scene, SettingsFromScene(*scene));
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

TEST(EcpModel, RefusesWhatItCannotExpressByName) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  FormulationSettings settings = SettingsFromScene(*scene);
  settings.ecp_e_t = 0.0;
  EXPECT_THROW(EcpModel(scene, settings), std::invalid_argument);
  std::string capsule = kSlidingCube;
  capsule.replace(capsule.find("{type: box, size: [1, 1, 1]"), 27,
                  "{type: capsule, radius: 0.5, length: 1");
  const auto capsule_scene = Load(capsule.c_str(), "capsule.yaml");
  try {
    EcpModel model(capsule_scene, SettingsFromScene(*capsule_scene));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("capsule"), std::string::npos) << e.what();
  }
}

TEST(EcpModel, WrongSizedStateIsAnError) {
  const auto scene = Load(kSlidingCube, "cube.yaml");
  const EcpModel model(scene, SettingsFromScene(*scene));
  auto data = model.CreateData();
  EXPECT_THROW(model.Calc(State{scene->q0, VectorXd()}, VectorXd::Zero(6), data.get()),
               std::invalid_argument);
  EXPECT_THROW(model.Calc(State{scene->q0, VectorXd::Zero(6)}, VectorXd::Zero(3), data.get()),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
