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
#include <vector>

#include "quasidyn/formulations/ecp/ecp_model.h"
#include "quasidyn/formulations/ecp/posed_quadric.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/scenes/scene_loading.h"
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

// Scenario 3 (Fig. 8), the paper's inputs with our e_t = e_o = 4 and 2.8 kg (docs/ecp.md): never
// in flight; point contact (N = 3) with the ECP jumping from the first corner to the far end of
// the landing edge and back (the paper: "the cube oscillates between nearby points"), line
// contact (N = 2, a last rock onto the corner allowed) from within 3 steps of the paper's 1 s,
// surface contact (N = 1) from at most 5 steps before the paper's 1.8 s to the end; then the
// cube slides under the friction bound e_t μ m g: |v| drops by e_t μ g h per step (to the
// solver's tolerance) until it stops.
TEST(EcpExamples, CubeTopplingGoesFromPointToLineToSurfaceContactAtThePapersTimes) {
  EcpRun run(Example("ecp_cube_toppling"));
  const double h = 0.01, mu = 0.2, e_t = 4.0, g = 9.8;
  const double line_contact = 1.0, surface_contact = 1.8;  // [s] the paper's (§VI-C)
  double first_line = -1.0, first_surface = -1.0, previous_speed = -1.0, ecp_jump = 0.0;
  Vector3d first_corner = Vector3d::Zero();
  int slides = 0;
  run.Run(400, [&](int k, const State& x, const EcpData& data) {
    const double t = k * h;
    ASSERT_FALSE(data.result.contacts.empty()) << "in flight at t = " << t;
    ASSERT_GT(data.result.contacts[0].normal_impulse, 0.0) << "in flight at t = " << t;
    const int n = run.ActiveFacets(0);
    const Vector3d ecp = data.result.contacts[0].point;
    if (k == 1) first_corner = ecp;
    if (first_line < 0.0 && n == 2) first_line = t;
    if (first_surface < 0.0 && n == 1) first_surface = t;
    if (first_line < 0.0) {
      EXPECT_EQ(n, 3) << "t = " << t;  // on a corner
      ecp_jump = std::max(ecp_jump, (ecp - first_corner).norm());
    } else if (first_surface < 0.0) {
      EXPECT_TRUE(n == 2 || n == 3) << "t = " << t;  // on an edge, rocking
    } else {
      EXPECT_EQ(n, 1) << "t = " << t;  // on a face
    }
    const double speed = x.v.head<2>().norm();
    if (t > surface_contact + 1.5 * h && previous_speed > e_t * mu * g * h) {
      EXPECT_NEAR(speed, previous_speed - e_t * mu * g * h, 1e-7) << "t = " << t;
      ++slides;
    }
    previous_speed = speed;
  });
  EXPECT_GT(ecp_jump, 0.9);  // the far end of the edge, 1 m away
  EXPECT_NEAR(first_line, line_contact, 3 * h);
  EXPECT_LE(first_surface, surface_contact);
  EXPECT_GE(first_surface, surface_contact - 5 * h);
  EXPECT_GT(slides, 50);  // (10, −10) N·s on 2.8 kg: 5.05 m/s, stopping after about 0.64 s
}

// Scenario 4 (Figs. 9–10): the cylinder lies (line contact) where its centre of mass is at
// r = 0.1 m and stands (surface contact) where it is at l/2 = 0.15 m (Fig. 10b's two plateaus).
// Our mode intervals against the paper's phases (§VI-D): the two rolls T2 and T4 on the 0.1 m
// plateau, the rest T6 on the 0.15 m one, each beginning and ending within 10 steps of the
// paper's boundaries; the fall T1, the pivot T3 and the lift T5 between them, T5 with the cylinder
// landing on its end and wobbling off it again at least twice before it rests.
TEST(EcpExamples, CylinderManipulationFollowsThePapersPhases) {
  EcpRun run(Example("ecp_cylinder_manipulation"));
  const double h = 0.01, radius = 0.1, half_length = 0.15;
  const double tolerance = 10 * h;  // [s] on each of the paper's phase boundaries
  enum class Mode { kLying, kStanding, kBetween };
  struct Interval {
    double from, to;  // [s]
    Mode mode;
  };
  std::vector<Interval> intervals;
  Eigen::VectorXd last_v;
  run.Run(500, [&](int k, const State& x, const EcpData&) {
    const double t = k * h;
    const Mode mode = std::abs(x.q[2] - radius) < kGeometryTolerance        ? Mode::kLying
                      : std::abs(x.q[2] - half_length) < kGeometryTolerance ? Mode::kStanding
                                                                            : Mode::kBetween;
    if (!intervals.empty() && intervals.back().mode == mode) {
      intervals.back().to = t;
    } else {
      intervals.push_back({t, t, mode});
    }
    last_v = x.v;
  });
  // The paper's T2 (0.66–1.5 s) and T4 (2.16–3.25 s): the only long stretches lying.
  std::vector<Interval> rolls;
  for (const Interval& i : intervals) {
    if (i.mode == Mode::kLying && i.to - i.from > 0.3) rolls.push_back(i);
  }
  ASSERT_EQ(rolls.size(), 2u);
  EXPECT_NEAR(rolls[0].from, 0.66, tolerance);  // the fall (T1) ends
  EXPECT_NEAR(rolls[0].to, 1.50, tolerance);    // the pivot (T3) begins
  EXPECT_NEAR(rolls[1].from, 2.16, tolerance);  // the pivot ends
  EXPECT_NEAR(rolls[1].to, 3.25, tolerance);    // the lift (T5) begins
  // T6 (4.71–5 s): standing at rest to the end.
  ASSERT_EQ(intervals.back().mode, Mode::kStanding);
  EXPECT_NEAR(intervals.back().from, 4.71, tolerance);
  EXPECT_NEAR(intervals.back().to, 5.0, h / 2);
  EXPECT_LT(last_v.norm(), 1e-6);
  // T5: landings on the end before the last one, the cylinder wobbling off them.
  int wobbles = 0;
  for (size_t i = 0; i + 1 < intervals.size(); ++i) {
    wobbles += intervals[i].mode == Mode::kStanding && intervals[i].from > rolls[1].to;
  }
  EXPECT_GE(wobbles, 2);
}

}  // namespace
}  // namespace quasidyn
