// Each file of tests/data/bad_scenes/ has one defect, marked "# defect" on its line; reading it
// must throw a SceneError naming that file, that line and the field, with the problem. Here the
// defects of the scene format itself, found by io alone (testing/bad_scenes.h); those only the
// formulations or the geometry find, and every file through the scenes layer's loader, in
// scenes/bad_scenes_test.cc.

#include "quasidyn/testing/bad_scenes.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

using testing::BadScene;

class BadScenesTest : public ::testing::TestWithParam<BadScene> {};

TEST_P(BadScenesTest, ThrowsAtTheDefect) {
  testing::ExpectErrorAtTheDefect(GetParam(), [](const std::string& path) { ReadSceneFile(path); });
}

INSTANTIATE_TEST_SUITE_P(FormatDefects, BadScenesTest,
                         ::testing::ValuesIn(testing::FormatDefects()));

TEST(ReadSceneFileTest, MissingSceneFileNamesIt) {
  try {
    ReadSceneFile("/nonexistent/scene.yaml");
    FAIL();
  } catch (const SceneFileNotFoundError& e) {  // a SceneError that says the file is missing
    EXPECT_EQ(e.file(), "/nonexistent/scene.yaml");
    EXPECT_EQ(e.missing_file(), "/nonexistent/scene.yaml");
  }
}

// A model file the scene names that does not exist: located at the scene's line, and the path
// looked for; a folder where a file is expected is a plain SceneError.
TEST(ReadSceneFileTest, MissingModelFileNamesTheSceneLineAndThePath) {
  const std::string folder = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/bad_scenes/";
  try {
    ReadSceneFile(folder + "missing_urdf.yaml");
    FAIL();
  } catch (const SceneFileNotFoundError& e) {
    EXPECT_EQ(e.line(), 6) << e.what();
    EXPECT_EQ(e.missing_file(), folder + "models/does_not_exist.urdf") << e.what();
  }
  const std::string text =
      "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n  - name: arm\n    urdf: .\n"
      "    friction: 0.5\n    stiffness: 100\n    initial: [0]\n";
  try {
    ReadSceneText(text, "inline.yaml", folder);
    FAIL();
  } catch (const SceneFileNotFoundError& e) {
    FAIL() << "a folder exists: " << e.what();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 6) << e.what();
  }
}

// io knows no formulation: the formulation block is kept as written, and a key a formulation
// adds to objects is, for the scene format alone, an unknown key at its line.
TEST(ReadSceneFileTest, TheFormulationBlockIsKeptAsWrittenAndExtensionKeysAreUnknown) {
  const std::string head = "name: s\ndimension: 3\ntime_step: 0.01\n";
  const Scene scene =
      ReadSceneText(head + "formulation: {type: nothing, kapa: [1, 2]}\n", "f.yaml", "");
  EXPECT_EQ(scene.formulation.name, "nothing");
  EXPECT_EQ(scene.formulation.source.line, 4);
  EXPECT_EQ(scene.formulation.source.field, "formulation.type");
  ASSERT_NE(scene.formulation.parameters.Find("kapa"), nullptr);
  EXPECT_EQ(scene.formulation.parameters.Find("kapa")->value.rows(), 2);
  const std::string object =
      "objects:\n  - name: box\n    joint: floating\n    impulses: []\n"
      "    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, "
      "friction: 0.5}]}\n    initial: [0, 0, 0, 1, 0, 0, 0]\n";
  try {
    ReadSceneText(head + object, "o.yaml", "");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 7) << e.what();
    EXPECT_EQ(e.field(), "objects[0].impulses") << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown key"), std::string::npos) << e.what();
  }
  const SceneDocument document = SceneDocument::FromText(head + object, "o.yaml", "");
  EXPECT_FALSE(document.has_formulation_block());
  EXPECT_EQ(document.ReadModels({"impulses"}).nq, 7);
}

// A parameter that is not a number, a list or a list of lists: the document keeps the parameters
// before it and gives its error when asked (a checker of the type and of those parameters asks
// after its checks), or at the latest when the models are read.
TEST(ReadSceneFileTest, AnUnreadableParameterIsTheBlocksLastError) {
  const std::string text =
      "name: s\ndimension: 3\ntime_step: 0.01\n"
      "formulation: {type: qp, kapa: 1, b: [[1, 2], [3]], c: 2}\n";
  const SceneDocument document = SceneDocument::FromText(text, "f.yaml", "");
  EXPECT_TRUE(document.has_formulation_block());
  ASSERT_EQ(document.formulation().parameters.values().size(), 1u);
  EXPECT_EQ(document.formulation().parameters.values()[0].key, "kapa");
  for (const std::function<void()>& read :
       {std::function<void()>([&] { document.ThrowUnreadFormulationValue(); }),
        std::function<void()>([&] { document.ReadModels(); }),
        std::function<void()>([&] { ReadSceneText(text, "f.yaml", ""); })}) {
    try {
      read();
      FAIL();
    } catch (const SceneError& e) {
      EXPECT_EQ(e.line(), 4) << e.what();
      EXPECT_EQ(e.field(), "formulation.b[1]") << e.what();
    }
  }
}

}  // namespace
}  // namespace quasidyn
