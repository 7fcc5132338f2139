// The four scenarios of Xie & Chakraborty, "Rigid Body Dynamic Simulation with Line and Surface
// Contact" (§VI), as the example scenes examples/ecp_*/scene.yaml, each checked for its
// properties at every step: no interpenetration beyond the solver's tolerance, every loaded
// contact's ECP in the contact patch (on both shapes' boundaries), and the scenario's own
// behaviour (docs/ecp.md).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "quasidyn/formulations/ecp/ecp_model.h"
#include "quasidyn/formulations/ecp/posed_quadric.h"
#include "quasidyn/formulations/scene_loading.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;

// The solver stops at 1e-9 on rows in metres; the geometry model's GJK/EPA distances
// (box–cylinder) are exact to about 1e-10 m: a penetration or a patch offset beyond 1e-6 m is a
// defect, not round-off.
constexpr double kGeometryTolerance = 1e-6;
// A pair "pushes" when its normal impulse is above the NCP's residual tolerance (1e-10,
// mixed_ncp_newton.h) relative to the scene's impulse scale, the heaviest body's weight over
// one step m·g·h (7.4 N·s for the 75 kg cylinder): below that, p_n is the solver's round-off
// (1.06e-9 N·s was met at a 2.5 cm gap) and the pair exerts nothing.
constexpr double kPushingRelative = 1e-8;

std::shared_ptr<const Scene> Example(const std::string& name) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

// Runs a scene's schedule under the ecp model and checks every step; `each` sees the data.
class EcpRun {
 public:
  explicit EcpRun(std::shared_ptr<const Scene> scene)
      : scene_(std::move(scene)),
        model_(scene_, testing::SceneProgramSettings(*scene_)),
        data_(model_.CreateData()),
        geometry_(scene_),
        kinematics_(scene_),
        x_(InitialState(model_)) {
    double heaviest = 0.0;
    for (const Body& body : scene_->bodies) heaviest = std::max(heaviest, body.mass);
    pushing_impulse_ = kPushingRelative * heaviest * scene_->gravity.norm() * model_.time_step();
  }

  template <typename Each>
  void Run(int steps, Each each) {
    for (int k = 1; k <= steps; ++k) {
      const VectorXd u = model_.ScheduledCommand(k * model_.time_step(), x_);
      model_.Calc(x_, u, data_.get());
      ASSERT_TRUE(data_->result.ok()) << "step " << k << ": " << data_->result.message;
      x_ = data_->result.next;
      CheckNoPenetration(k);
      CheckEcpInPatch(k);
      each(k, x_, static_cast<const EcpData&>(*data_));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  const EcpModel& model() const { return model_; }

  // How many of F's inequalities of pair k carry a multiplier (the paper's N, §VI-C).
  int ActiveFacets(int k) const {
    const EcpData& data = static_cast<const EcpData&>(*data_);
    const EcpPair& pair = model_.system().pairs()[k];
    int n = 0;
    for (int i = 0; i < pair.m_f; ++i) n += data.solution().z[pair.lf() + i] > 1e-6;
    return n;
  }

 private:
  // Every pair of shapes, at the end of the step, apart or touching within the tolerance.
  void CheckNoPenetration(int k) {
    kinematics_.Update(x_.q);
    const EcpSystem& system = model_.system();
    for (const EcpPair& pair : system.pairs()) {
      ContactPoint closest;
      const int a = system.shapes()[pair.shape_f].geometry;
      const int b = system.shapes()[pair.shape_g].geometry;
      ASSERT_TRUE(geometry_.Distance(a, b, kinematics_.BodyPoses(), &closest));
      ASSERT_GT(closest.phi, -kGeometryTolerance)
          << "step " << k << ": " << scene_->geometries[a].name << " penetrates "
          << scene_->geometries[b].name;
    }
  }

  // Every pair that pushes: its ECP on both shapes' boundaries at the end of the step (the
  // contact patch is where they meet), and F's and G's points together.
  void CheckEcpInPatch(int k) {
    const EcpData& data = static_cast<const EcpData&>(*data_);
    const EcpSystem& system = model_.system();
    const VectorXd& z = data.solution().z;
    for (int p = 0; p < static_cast<int>(system.pairs().size()); ++p) {
      const EcpPair& pair = system.pairs()[p];
      if (!data.active()[p] || z[pair.pn()] <= pushing_impulse_) continue;
      const Vector3d a1 = z.segment<3>(pair.a1()), a2 = z.segment<3>(pair.a2());
      ASSERT_LT((a1 - a2).norm(), kGeometryTolerance)
          << "step " << k << ", pair " << p << ", p_n " << z[pair.pn()];
      for (const int shape_index : {pair.shape_f, pair.shape_g}) {
        const EcpShape& shape = system.shapes()[shape_index];
        Vector3d c = Vector3d::Zero();
        Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
        if (shape.body_slot >= 0) {
          c = data.function().end_com(shape.body_slot);
          R = data.function().end_rotation(shape.body_slot);
        }
        double largest = -1e9;
        for (const Quadric& q : shape.set.inequalities) {
          largest = std::max(largest, EvaluatePosedQuadric(q, c, R, a2).value);
        }
        ASSERT_NEAR(largest, 0.0, kGeometryTolerance)
            << "step " << k << ": the ECP of pair " << p << " is off "
            << scene_->geometries[shape.geometry].name;
      }
    }
  }

  std::shared_ptr<const Scene> scene_;
  EcpModel model_;
  std::unique_ptr<StepData> data_;
  GeometryModel geometry_;
  Kinematics kinematics_;
  double pushing_impulse_ = 0.0;  // [N·s], kPushingRelative · m g h
  State x_;
};

// Scenario 1 (Fig. 6): the cube slides along (0.8, 0.6) at |v| = 5 − μ g t; backward Euler
// lags the analytic position by ½ μ g h t (docs/ecp.md), 0.0235 m at 4 s.
TEST(EcpExamples, CubeSlidingMatchesTheAnalyticSolution) {
  EcpRun run(Example("ecp_cube_sliding"));
  const double mu = 0.12, g = 9.8, h = 0.01;
  run.Run(400, [&](int k, const State& x, const EcpData& data) {
    const double t = k * h;
    const double analytic = 5.0 * t - 0.5 * mu * g * t * t;
    const double travelled = x.q.head<2>().norm();
    EXPECT_NEAR(travelled, analytic - 0.5 * mu * g * h * t, 1e-6) << "t = " << t;
    EXPECT_LT(x.v.tail<3>().norm(), 1e-7);  // pure translation
    ASSERT_EQ(data.result.contacts.size(), 1u);
  });
}

// Scenario 2 (Fig. 7): the cylinder rolls and spins with line contact; its ECP stays on the
// contact line (D = 0) within the line's length (|L| <= l/2), and every time its spin stops an
// angular impulse of 3 N·m·s spins it up again.
TEST(EcpExamples, CylinderRollingKeepsItsEcpOnTheContactLine) {
  EcpRun run(Example("ecp_cylinder_rolling"));
  int impulses = 0;
  double largest_offset = 0.0;
  run.Run(1000, [&](int, const State& x, const EcpData& data) {
    ASSERT_EQ(data.result.contacts.size(), 1u);
    const Vector3d a = data.result.contacts[0].point;
    const Eigen::Matrix3d R = RotationMatrixFromQuaternion(x.q.segment<4>(3));
    const double theta = std::atan2(R(1, 0), R(0, 0));  // the axis' heading (body x)
    const double dx = a.x() - x.q[0], dy = a.y() - x.q[1];
    const double L = std::cos(theta) * dx + std::sin(theta) * dy;
    const double D = std::sin(theta) * dx - std::cos(theta) * dy;
    EXPECT_LT(std::abs(D), 1e-7);
    EXPECT_LE(std::abs(L), 2.5 + 1e-9);
    largest_offset = std::max(largest_offset, std::abs(L));
    EXPECT_NEAR(x.q[2], 1.0, 1e-8);  // lying on its side
  });
  // Count the spin-ups: ω_z jumps by 3 / I_zz each time.
  EcpRun again(Example("ecp_cylinder_rolling"));
  again.Run(1000, [&](int k, const State& x, const EcpData&) {
    impulses += again.model().ScheduledCommand((k + 1) * 0.01, x)[5] > 0.0;
  });
  EXPECT_GE(impulses, 10);           // about every 0.5 s over 10 s
  EXPECT_GT(largest_offset, 0.001);  // the ECP moves along the line while it spins
}

// Scenario 3 (Fig. 8): point, line and surface contact: N = 3 faces, then 2, then 1.
TEST(EcpExamples, CubeTopplingGoesFromPointToLineToSurfaceContact) {
  EcpRun run(Example("ecp_cube_toppling"));
  int first_line = -1, first_surface = -1;
  run.Run(400, [&](int k, const State&, const EcpData& data) {
    if (data.result.contacts.empty() || data.result.contacts[0].normal_impulse <= 0.0) return;
    const int n = run.ActiveFacets(0);
    if (k <= 10) {
      EXPECT_EQ(n, 3) << "step " << k;  // released on a corner
    }
    if (n == 2 && first_line < 0) first_line = k;
    if (n == 1 && first_surface < 0) first_surface = k;
    if (k >= 150) {
      EXPECT_EQ(n, 1) << "step " << k;  // on a face from t = 1.5 s
    }
  });
  EXPECT_GT(first_line, 10);
  EXPECT_LT(first_line, 100);  // it falls onto an edge before the first impulse (t = 1 s)
  EXPECT_GT(first_surface, 100);
  EXPECT_LT(first_surface, 150);  // and onto a face after it
}

// Scenario 4 (Figs. 9–10): falling, rolling, pivoting and lifting past the obstacles: the
// centre of mass at 0.15 m when the cylinder stands (surface contact) and at 0.1 m when it lies
// (line contact), in the phases of the scene's schedule.
TEST(EcpExamples, CylinderManipulationGoesThroughItsPhases) {
  EcpRun run(Example("ecp_cylinder_manipulation"));
  run.Run(500, [&](int k, const State& x, const EcpData&) {
    const double t = k * 0.01;
    const auto at = [&](double when) { return std::abs(t - when) < 0.005; };
    if (at(0.6) || at(1.3) || at(3.0) || at(3.35)) {
      EXPECT_NEAR(x.q[2], 0.1, 1e-6) << "lying at t = " << t;
    }
    if (at(2.38) || at(5.0)) {
      EXPECT_NEAR(x.q[2], 0.15, 1e-6) << "standing at t = " << t;
    }
    if (at(5.0)) {
      EXPECT_GT(x.q[1], 0.7);  // past obstacle A, beside B
      EXPECT_LT(x.v.norm(), 1e-6);
    }
  });
}

}  // namespace
}  // namespace quasidyn
