// The scene keys of halm-posa (halm_posa_keys.h): B as a number, a diagonal or a matrix, the
// objects' limit surfaces; the defective files are in bad_scenes_test.cc.

#include "quasidyn/formulations/halm_posa/halm_posa_keys.h"

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

// A disk and a two-axis finger on the plane, with `formulation` and the disk's `limit`.
std::string DiskScene(const std::string& formulation, const std::string& limit) {
  return R"(name: disk
dimension: 2
gravity: [0, 0, 0]
time_step: 0.025
formulation: )" +
         formulation +
         R"(
objects:
  - name: disk
    joint: planar
    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 1, friction: 1}]}
)" + limit +
         R"(    initial: [0, 0, 0]
robots:
  - name: finger
    bodies:
      - {name: carriage, mass: 0.1, inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}}
      - {name: tip, mass: 0.1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.01, friction: 1}]}
    joints:
      - {name: x, type: prismatic, parent: world, child: carriage, axis: [1, 0, 0]}
      - {name: y, type: prismatic, parent: carriage, child: tip, axis: [0, 1, 0]}
    stiffness: 100
    initial: [0, 2]
)";
}

TEST(HalmPosaKeys, FeedbackGainsAsNumberDiagonalOrMatrix) {
  const Scene number =
      LoadSceneFromString(DiskScene("{type: halm-posa, c: 0.5, B: 2}", ""), "s", "");
  const auto gains = [](const Scene& scene) {
    return scene.formulation.parameters.Find("B")->value;
  };
  EXPECT_EQ(number.formulation.name, "halm-posa");
  EXPECT_EQ(number.formulation.parameters.Find("c")->value(0, 0), 0.5);
  EXPECT_EQ(gains(number), Eigen::MatrixXd::Constant(1, 1, 2.0));
  const Scene diagonal =
      LoadSceneFromString(DiskScene("{type: halm-posa, B: [1, 3]}", ""), "s", "");
  EXPECT_EQ(gains(diagonal), Eigen::MatrixXd(Eigen::Vector2d(1, 3)));
  const Scene matrix =
      LoadSceneFromString(DiskScene("{type: halm-posa, B: [[2, 1], [1, 2]]}", ""), "s", "");
  Eigen::Matrix2d expected;
  expected << 2, 1, 1, 2;
  EXPECT_EQ(gains(matrix), Eigen::MatrixXd(expected));
  const ValueSource source{"", 0, "B"};
  EXPECT_EQ(FeedbackGainMatrix(gains(diagonal), 2, source),
            Eigen::MatrixXd(Eigen::Vector2d(1, 3).asDiagonal()));
  EXPECT_EQ(FeedbackGainMatrix(gains(number), 2, source),
            Eigen::MatrixXd(2 * Eigen::Matrix2d::Identity()));
  EXPECT_EQ(FeedbackGainMatrix(Eigen::MatrixXd(), 2, source),
            Eigen::MatrixXd(Eigen::Matrix2d::Identity()));
  EXPECT_THROW(FeedbackGainMatrix(gains(diagonal), 3, source), std::invalid_argument);
}

// The scene's limit surface of object 0 (halm_posa_keys.h), if it gives one.
std::optional<Eigen::Matrix3d> LimitSurfaceOf(const Scene& scene) {
  const HalmPosaSceneKeys* keys = scene.ExtensionOf<HalmPosaSceneKeys>(kHalmPosaName);
  return keys != nullptr ? keys->limit_surfaces.at(0) : std::nullopt;
}

TEST(HalmPosaKeys, LimitSurfaceIsStoredOnTheObjectAndOptional) {
  const Scene absent = LoadSceneFromString(DiskScene("{type: halm-posa}", ""), "s", "");
  EXPECT_FALSE(LimitSurfaceOf(absent).has_value());
  const Scene principal = LoadSceneFromString(
      DiskScene("{type: halm-posa}", "    limit_surface: {principal: [1, 2, 3]}\n"), "s", "");
  ASSERT_TRUE(LimitSurfaceOf(principal).has_value());
  EXPECT_EQ(*LimitSurfaceOf(principal), Eigen::Vector3d(1, 2, 3).asDiagonal().toDenseMatrix());
  const Scene matrix = LoadSceneFromString(
      DiskScene("{type: qp}",
                "    limit_surface: {matrix: [[2, 0, 0.5], [0, 2, 0], [0.5, 0, 1]]}\n"),
      "s", "");
  ASSERT_TRUE(LimitSurfaceOf(matrix).has_value());
  EXPECT_EQ((*LimitSurfaceOf(matrix))(0, 2), 0.5);
}

TEST(HalmPosaKeys, ProblemsNameTheKey) {
  const auto field_of = [](const std::string& text) {
    try {
      LoadSceneFromString(text, "s", "");
    } catch (const SceneError& e) {
      return e.field() + ": " + e.what();
    }
    return std::string("loaded");
  };
  EXPECT_EQ(
      field_of(DiskScene("{type: halm-posa, B: [[1, 2], [0, 1]]}", "")).rfind("formulation.B: ", 0),
      0u);
  EXPECT_NE(field_of(DiskScene("{type: halm-posa, B: [[1, 2], [0, 1]]}", "")).find("symmetric"),
            std::string::npos);
  EXPECT_NE(field_of(DiskScene("{type: halm-posa, B: [[1, 0]]}", "")).find("(got 1 x 2)"),
            std::string::npos);
  EXPECT_NE(field_of(DiskScene("{type: halm-posa, B: []}", "")).find("at least one entry"),
            std::string::npos);
  EXPECT_NE(field_of(DiskScene("{type: halm-posa}",
                               "    limit_surface: {matrix: [[1, 0, 1], [0, 1, 0], [0, 0, 1]]}\n"))
                .find("objects[0].limit_surface: "),
            std::string::npos);
  EXPECT_NE(field_of(DiskScene("{type: halm-posa, c: .nan}", "")).find("formulation.c"),
            std::string::npos);
}

}  // namespace
}  // namespace quasidyn
