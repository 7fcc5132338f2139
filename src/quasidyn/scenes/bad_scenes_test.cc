// Each file of tests/data/bad_scenes/ has one defect, marked "# defect" on its line; loading it
// must throw a SceneError naming that file, that line and the field, with the problem: the
// defects only the formulations and the geometry find, and the scene format's own
// (testing/bad_scenes.h; io/bad_scenes_test.cc reads the latter with io alone).

#include "quasidyn/testing/bad_scenes.h"

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

using testing::BadScene;

class BadScenesTest : public ::testing::TestWithParam<BadScene> {};

TEST_P(BadScenesTest, ThrowsAtTheDefect) {
  testing::ExpectErrorAtTheDefect(GetParam(), [](const std::string& path) { LoadScene(path); });
}

INSTANTIATE_TEST_SUITE_P(FormulationAndGeometryDefects, BadScenesTest,
                         ::testing::ValuesIn(testing::FormulationAndGeometryDefects()));
INSTANTIATE_TEST_SUITE_P(FormatDefects, BadScenesTest,
                         ::testing::ValuesIn(testing::FormatDefects()));

TEST(LoadSceneTest, MissingSceneFileNamesIt) {
  try {
    LoadScene("/nonexistent/scene.yaml");
    FAIL();
  } catch (const SceneFileNotFoundError& e) {  // a SceneError that says the file is missing
    EXPECT_EQ(e.file(), "/nonexistent/scene.yaml");
    EXPECT_EQ(e.missing_file(), "/nonexistent/scene.yaml");
  }
}

// A model file the scene names that does not exist: located at the scene's line, and the path
// looked for; a folder where a file is expected is a plain SceneError.
TEST(LoadSceneTest, MissingModelFileNamesTheSceneLineAndThePath) {
  const std::string folder = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/bad_scenes/";
  try {
    LoadScene(folder + "missing_urdf.yaml");
    FAIL();
  } catch (const SceneFileNotFoundError& e) {
    EXPECT_EQ(e.line(), 6) << e.what();
    EXPECT_EQ(e.missing_file(), folder + "models/does_not_exist.urdf") << e.what();
  }
  const std::string text =
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n  - name: arm\n    urdf: .\n"
      "    friction: 0.5\n    stiffness: 100\n    initial: [0]\n";
  try {
    LoadSceneFromString(text, "inline.yaml", folder);
    FAIL();
  } catch (const SceneFileNotFoundError& e) {
    FAIL() << "a folder exists: " << e.what();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 6) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
