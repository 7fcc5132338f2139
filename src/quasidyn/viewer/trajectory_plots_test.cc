#include "quasidyn/viewer/trajectory_plots.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

// A trajectory of n_q = 3 (one object coordinate, two robot coordinates) and `steps` steps, q
// growing linearly, one contact of normal force k [N] in step k.
Trajectory Linear(int steps) {
  Trajectory t;
  t.formulation = "qp";
  t.time_step = 0.1;
  t.nq = 3;
  t.nq_u = 1;
  t.coordinate_names = {"box_x", "arm_1", "arm_2"};
  t.q0 = Eigen::Vector3d(0, 1, 2);
  for (int k = 1; k <= steps; ++k) {
    TrajectoryStep step;
    step.k = k;
    step.t = 0.1 * k;
    step.q = t.q0 + Eigen::Vector3d::Constant(k);
    ContactRecord contact;
    contact.normal_force = k;
    step.contacts = {contact};
    step.solver.iterations = 7;
    t.steps.push_back(step);
  }
  t.steps_requested = t.steps_done = steps;
  return t;
}

TEST(TrajectoryPlots, DrawsCoordinatesAndPerStepQuantities) {
  const std::vector<LinePlot> plots = TrajectoryPlots(Linear(4));
  ASSERT_EQ(plots.size(), 5u);
  EXPECT_EQ(plots[0].title, "objects' coordinates q_u");
  ASSERT_EQ(plots[0].series.size(), 1u);
  EXPECT_EQ(plots[0].series[0].label, "box_x");
  EXPECT_EQ(plots[0].series[0].x, (std::vector<double>{0.0, 0.1, 0.2, 0.30000000000000004, 0.4}));
  EXPECT_EQ(plots[0].series[0].y, (std::vector<double>{0, 1, 2, 3, 4}));
  ASSERT_EQ(plots[1].series.size(), 2u);
  EXPECT_EQ(plots[1].series[1].label, "arm_2");
  EXPECT_EQ(plots[1].series[1].y.front(), 2.0);
  EXPECT_EQ(plots[3].title, "total normal force per step");
  EXPECT_EQ(plots[3].series[0].y, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(plots[4].series[0].y, (std::vector<double>(4, 7.0)));
  for (const LinePlot& plot : plots) EXPECT_NO_THROW(LinePlotToSvg(plot)) << plot.title;
}

TEST(TrajectoryPlots, WithoutStepsOnlyTheCoordinates) {
  const std::vector<LinePlot> plots = TrajectoryPlots(Linear(0));
  ASSERT_EQ(plots.size(), 2u);
  EXPECT_EQ(plots[0].series[0].y, (std::vector<double>{0}));
  EXPECT_NO_THROW(LinePlotToSvg(plots[0]));  // a one-point series is a dot
}

TEST(TrajectoryPlots, ThinsLongRunsKeepingFirstAndLast) {
  const Trajectory run = Linear(1000);
  for (int max_points : {2, 3, 10, 999}) {
    const std::vector<LinePlot> plots = TrajectoryPlots(run, max_points);
    for (const LinePlot& plot : plots) {
      const std::vector<double>& x = plot.series[0].x;
      EXPECT_LE(x.size(), static_cast<size_t>(max_points)) << plot.title;
      EXPECT_GE(x.size(), 2u) << plot.title;
      EXPECT_EQ(x.back(), run.steps.back().t) << plot.title;  // the last step is kept
    }
    EXPECT_EQ(plots[0].series[0].x.front(), 0.0);  // q0
    EXPECT_EQ(plots[2].series[0].x.front(), run.steps.front().t);
  }
}

TEST(TrajectoryPlots, RefusesBadInput) {
  EXPECT_THROW(TrajectoryPlots(Linear(2), 1), std::invalid_argument);
  Trajectory wrong = Linear(2);
  wrong.steps[1].q = Eigen::VectorXd::Zero(2);
  try {
    TrajectoryPlots(wrong);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("step 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
