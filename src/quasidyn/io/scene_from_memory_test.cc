// ReadSceneFromMemory gives the same scene as ReadSceneFile on the same files, leaves nothing on
// disk, and rejects bad file names and missing files with clear messages (io/scene_from_memory.h;
// the scenes layer's loader of such scenes, which checks them against the formulations too, in
// scenes/scene_loading_test.cc).

#include "quasidyn/io/scene_from_memory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const std::string kArmCubes = std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes";

// The loader's staging folders in the (private) temporary folder.
int CountTemporaryFolders() {
  return testing::CountEntriesStartingWith(std::filesystem::temp_directory_path(),
                                           "quasidyn-scene-");
}

TEST(ReadSceneFromMemory, MatchesTheSceneLoadedFromDisk) {
  const testing::PrivateTemporaryDirectory temporary;
  const int folders_before = CountTemporaryFolders();
  const Scene from_disk = ReadSceneFile(kArmCubes + "/scene.yaml");
  const Scene in_memory = ReadSceneFromMemory(
      testing::ReadWholeFile(kArmCubes + "/scene.yaml"), "embedded:arm_cubes",
      {{"models/arm7.urdf", testing::ReadWholeFile(kArmCubes + "/models/arm7.urdf")}});
  EXPECT_EQ(in_memory.source_file, "embedded:arm_cubes");
  EXPECT_EQ(in_memory.name, from_disk.name);
  EXPECT_EQ(in_memory.nq, from_disk.nq);
  EXPECT_EQ(in_memory.nv, from_disk.nv);
  ASSERT_EQ(in_memory.bodies.size(), from_disk.bodies.size());
  for (size_t i = 0; i < from_disk.bodies.size(); ++i) {
    EXPECT_EQ(in_memory.bodies[i].name, from_disk.bodies[i].name);
    EXPECT_EQ(in_memory.bodies[i].mass, from_disk.bodies[i].mass);  // same text, same numbers
  }
  ASSERT_EQ(in_memory.geometries.size(), from_disk.geometries.size());
  EXPECT_EQ(in_memory.q0, from_disk.q0);
  EXPECT_EQ(in_memory.CommandAt(3.5), from_disk.CommandAt(3.5));
  EXPECT_EQ(CountTemporaryFolders(), folders_before);  // the staging folder is gone
}

TEST(ReadSceneFromMemory, RejectsFileNamesOutsideTheSceneFolder) {
  const std::string yaml = testing::ReadWholeFile(kArmCubes + "/scene.yaml");
  for (const std::string bad : {"", "/etc/arm7.urdf", "../arm7.urdf", "models/../../x.urdf"}) {
    try {
      ReadSceneFromMemory(yaml, "embedded", {{bad, "<robot/>"}});
      FAIL() << "accepted the file name '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(ReadSceneFromMemory, AMissingUrdfIsASceneErrorNamingTheScene) {
  const testing::PrivateTemporaryDirectory temporary;
  const int folders_before = CountTemporaryFolders();
  try {
    ReadSceneFromMemory(testing::ReadWholeFile(kArmCubes + "/scene.yaml"), "embedded:arm_cubes",
                        {});
    FAIL() << "loaded a scene without its URDF";
  } catch (const SceneError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("embedded:arm_cubes"), std::string::npos) << message;
    EXPECT_NE(message.find("arm7.urdf"), std::string::npos) << message;
  }
  EXPECT_EQ(CountTemporaryFolders(), folders_before);
}

}  // namespace
}  // namespace quasidyn
