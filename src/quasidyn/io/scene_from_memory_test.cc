// ReadSceneFromMemory gives the same scene as ReadSceneFile on the same files, leaves nothing on
// disk, and rejects bad file names and missing files with clear messages (io/scene_from_memory.h;
// the scenes layer's loader of such scenes, which checks them against the formulations too, in
// scenes/scene_loading_test.cc).

#include "quasidyn/io/scene_from_memory.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

const std::string kArmCubes = std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes";

std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// ctest runs test processes in parallel and they share the system's temporary folder, so
// each test that counts the loader's staging folders points TMPDIR (which
// std::filesystem::temp_directory_path reads) at a folder of its own for its lifetime.
class PrivateTemporaryDirectory {
 public:
  PrivateTemporaryDirectory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "quasidyn-io-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
    const char* previous = getenv("TMPDIR");
    if (previous != nullptr) previous_ = previous;
    setenv("TMPDIR", path_.c_str(), 1);
  }
  ~PrivateTemporaryDirectory() {
    if (previous_.empty()) {
      unsetenv("TMPDIR");
    } else {
      setenv("TMPDIR", previous_.c_str(), 1);
    }
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::filesystem::path path_;
  std::string previous_;
};

int CountTemporaryFolders() {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
    if (entry.path().filename().string().rfind("quasidyn-scene-", 0) == 0) ++count;
  }
  return count;
}

TEST(ReadSceneFromMemory, MatchesTheSceneLoadedFromDisk) {
  const PrivateTemporaryDirectory temporary;
  const int folders_before = CountTemporaryFolders();
  const Scene from_disk = ReadSceneFile(kArmCubes + "/scene.yaml");
  const Scene in_memory =
      ReadSceneFromMemory(ReadText(kArmCubes + "/scene.yaml"), "embedded:arm_cubes",
                          {{"models/arm7.urdf", ReadText(kArmCubes + "/models/arm7.urdf")}});
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
  const std::string yaml = ReadText(kArmCubes + "/scene.yaml");
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
  const PrivateTemporaryDirectory temporary;
  const int folders_before = CountTemporaryFolders();
  try {
    ReadSceneFromMemory(ReadText(kArmCubes + "/scene.yaml"), "embedded:arm_cubes", {});
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
