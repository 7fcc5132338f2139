// The optional markers of the viewer data (viewer_data.h, ViewerDataOptions::marker_points):
// what `quasidyn plan --html` draws for the tree.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/viewer/viewer_data.h"

namespace quasidyn {
namespace {

Trajectory EmptyOf(const Scene& scene) {
  Trajectory trajectory;
  trajectory.scene_name = scene.name;
  trajectory.time_step = 0.1;
  trajectory.nq = scene.nq;
  trajectory.nv = scene.nv;
  trajectory.nq_u = scene.nq_u;
  trajectory.q0 = scene.q0;
  return trajectory;
}

const Scene& Pushing() {
  static const Scene scene =
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_pushing/scene.yaml");
  return scene;
}

TEST(ViewerMarkers, OnlyWhenGivenAndRounded) {
  const Scene& scene = Pushing();
  EXPECT_FALSE(BuildViewerData(scene, EmptyOf(scene)).contains("markers"));
  ViewerDataOptions options;
  options.marker_points = {{0.1, 0.2, 0.0}, {0.123456789, 0.05, 0.0}};
  options.marker_parents = {-1, 0};
  options.marker_label = "tree (2 nodes)";
  const nlohmann::json markers = BuildViewerData(scene, EmptyOf(scene), options)["markers"];
  EXPECT_EQ(markers["label"], "tree (2 nodes)");
  ASSERT_EQ(markers["points"].size(), 2u);
  EXPECT_EQ(markers["points"][1][0].get<double>(), 0.123457);  // 6 significant digits
  EXPECT_EQ(markers["parents"], nlohmann::json::array({-1, 0}));
  options.marker_parents.clear();  // no lines
  EXPECT_EQ(BuildViewerData(scene, EmptyOf(scene), options)["markers"]["parents"],
            nlohmann::json::array({-1, -1}));
}

TEST(ViewerMarkers, BadMarkersAreRefused) {
  const Scene& scene = Pushing();
  ViewerDataOptions options;
  options.marker_points = {{0.0, 0.0, 0.0}, {0.1, 0.0, 0.0}};
  options.marker_parents = {-1};
  EXPECT_THROW(BuildViewerData(scene, EmptyOf(scene), options), std::invalid_argument);
  options.marker_parents = {-1, 2};
  EXPECT_THROW(BuildViewerData(scene, EmptyOf(scene), options), std::invalid_argument);
  options.marker_parents = {-1, 0};
  options.marker_points[1].x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(BuildViewerData(scene, EmptyOf(scene), options), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
