// LoadScene and its kin (scenes/scene_loading.h): io's document (io/scene_document.h) checked
// against the registry where a reader of the file meets each part; the keys formulations add to
// objects read, and any other key refused at its line with the closest one; scenes held in
// memory; WithFormulation. The bad scene files: bad_scenes_test.cc.

#include "quasidyn/scenes/scene_loading.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const std::string kExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

// The SceneError of loading `yaml`, as "line: field: message".
std::string LoadError(const std::string& yaml) {
  try {
    LoadSceneFromString(yaml, "s.yaml", "");
  } catch (const SceneError& e) {
    return std::to_string(e.line()) + ": " + e.field() + ": " + e.what();
  }
  return "no error";
}

const std::string kHead = "name: s\ndimension: 3\ntime_step: 0.01\n";
// A floating sphere, objects[0] (after kHead: its entry from line 5, `extra_lines` from line 7).
std::string Sphere(const std::string& extra_lines) {
  return "objects:\n  - name: ball\n    joint: floating\n" + extra_lines +
         "    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, "
         "friction: 0.5}]}\n    initial: [0, 0, 0, 1, 0, 0, 0]\n";
}

// The keys formulations add to objects (ecp's impulses, halm-posa's limit_surface) are read by
// their owners; a key no formulation declares is refused at its line, with the closest key.
TEST(LoadSceneTest, ObjectKeysBeyondTheFormatAreTheFormulationsOrUnknown) {
  const Scene ecp =
      LoadSceneFromString(kHead + "formulation: {type: ecp}\n" +
                              Sphere("    impulses: [{t: 0.5, p: [0, 0, 1, 0, 0, 0]}]\n"),
                          "s.yaml", "");
  EXPECT_EQ(ecp.extensions.count("ecp"), 1u);
  const std::string misspelt = LoadError(kHead + Sphere("    impulse: []\n"));
  EXPECT_EQ(misspelt.rfind("7: objects[0].impulse: ", 0), 0u) << misspelt;
  EXPECT_NE(misspelt.find("unknown key (did you mean 'impulses'?)"), std::string::npos) << misspelt;
  EXPECT_NE(misspelt.find("limit_surface"), std::string::npos) << misspelt;  // among the allowed
  // The format's own keys keep their suggestions.
  const std::string format = LoadError(kHead + Sphere("    intial: [0, 0, 0, 1, 0, 0, 0]\n"));
  EXPECT_NE(format.find("7: objects[0].intial: "), std::string::npos) << format;
  EXPECT_NE(format.find("did you mean 'initial'?"), std::string::npos) << format;
}

// A file with two defects gives the first a reader meets: the header's formulation block before
// the models, an object's unknown key before the rest of the object, the formulations' keys
// before the planning block.
TEST(LoadSceneTest, TheFirstDefectInReadingOrderIsTheError) {
  const std::string missing_model =
      "robots:\n  - {name: arm, urdf: nowhere.urdf, friction: 0.5, stiffness: 1, initial: [0]}\n";
  const std::string block = LoadError(kHead + "formulation: {type: socpp}\n" + missing_model);
  EXPECT_EQ(block.rfind("4: formulation.type: ", 0), 0u) << block;
  EXPECT_NE(block.find("unknown formulation 'socpp' (did you mean 'socp'?)"), std::string::npos)
      << block;
  const std::string parameter =
      LoadError(kHead + "formulation: {type: qp, kapa: 1}\n" + missing_model);
  EXPECT_EQ(parameter.rfind("4: formulation.kapa: ", 0), 0u) << parameter;
  // Within the block: the type, then each parameter in file order, the first defect winning
  // over a value io could not read after it.
  const std::string malformed = "kappa: [[1, 2], [3]]}\n";
  const std::string type = LoadError(kHead + "formulation: {type: socpp, " + malformed);
  EXPECT_EQ(type.rfind("4: formulation.type: ", 0), 0u) << type;
  const std::string earlier = LoadError(kHead + "formulation: {type: qp, kapa: 1, " + malformed);
  EXPECT_EQ(earlier.rfind("4: formulation.kapa: ", 0), 0u) << earlier;
  const std::string value = LoadError(kHead + "formulation: {type: log-barrier, " + malformed);
  EXPECT_EQ(value.rfind("4: formulation.kappa[1]: ", 0), 0u) << value;
  const std::string key = LoadError(kHead + Sphere("    impulse: []\n    joint: planar\n"));
  EXPECT_EQ(key.rfind("7: objects[0].impulse: ", 0), 0u) << key;
  const std::string impulses =
      LoadError(kHead + Sphere("    impulses: [{t: 0.5, p: [0, 0, 1, 0, 0, 0]}]\n") +
                "planning: {nothing: 1}\n");
  EXPECT_NE(impulses.find("objects[0].impulses: "), std::string::npos) << impulses;
  EXPECT_NE(impulses.find("a key of the ecp formulation"), std::string::npos) << impulses;
}

// LoadScene is io's document with the checks above: on a scene of the format alone the same
// scene as io's reader (io/scene_document.h, ReadSceneFile).
TEST(LoadSceneTest, AFormatOnlySceneIsIosSceneChecked) {
  const Scene loaded = LoadScene(kExamples + "arm_cubes/scene.yaml");
  const Scene read = ReadSceneFile(kExamples + "arm_cubes/scene.yaml");
  EXPECT_EQ(loaded.nq, read.nq);
  EXPECT_EQ(loaded.q0, read.q0);
  ASSERT_EQ(loaded.geometries.size(), read.geometries.size());
  EXPECT_EQ(loaded.formulation.name, read.formulation.name);
  EXPECT_EQ(loaded.formulation.parameters.values().size(),
            read.formulation.parameters.values().size());
  EXPECT_EQ(loaded.CommandAt(3.5), read.CommandAt(3.5));
}

// The loader's staging folders in the (private) temporary folder.
int CountTemporaryFolders() {
  return testing::CountEntriesStartingWith(std::filesystem::temp_directory_path(),
                                           "quasidyn-scene-");
}

TEST(LoadSceneFromMemory, MatchesTheSceneLoadedFromDiskAndLeavesNoFolder) {
  const testing::PrivateTemporaryDirectory temporary;
  const int folders_before = CountTemporaryFolders();
  const std::string arm_cubes = kExamples + "arm_cubes";
  const Scene from_disk = LoadScene(arm_cubes + "/scene.yaml");
  const Scene in_memory = LoadSceneFromMemory(
      testing::ReadWholeFile(arm_cubes + "/scene.yaml"), "embedded:arm_cubes",
      {{"models/arm7.urdf", testing::ReadWholeFile(arm_cubes + "/models/arm7.urdf")}});
  EXPECT_EQ(in_memory.source_file, "embedded:arm_cubes");
  EXPECT_EQ(in_memory.nq, from_disk.nq);
  ASSERT_EQ(in_memory.bodies.size(), from_disk.bodies.size());
  for (size_t i = 0; i < from_disk.bodies.size(); ++i)
    EXPECT_EQ(in_memory.bodies[i].mass, from_disk.bodies[i].mass);  // same text, same numbers
  EXPECT_EQ(in_memory.q0, from_disk.q0);
  EXPECT_EQ(in_memory.CommandAt(3.5), from_disk.CommandAt(3.5));
  EXPECT_EQ(CountTemporaryFolders(), folders_before);  // the staging folder is gone
  try {
    LoadSceneFromMemory(testing::ReadWholeFile(arm_cubes + "/scene.yaml"), "embedded:arm_cubes",
                        {});
    FAIL() << "loaded a scene without its URDF";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("embedded:arm_cubes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(CountTemporaryFolders(), folders_before);
}

std::string ErrorOf(const std::function<void()>& edit) {
  try {
    edit();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

class WithFormulationTest : public ::testing::Test {
 protected:
  Scene gripper_ = LoadScene(kExamples + "planar_gripper/scene.yaml");
};

TEST_F(WithFormulationTest, ParametersMergeAndAreChecked) {
  const Scene barrier = WithFormulation(gripper_, "log-barrier", {{"kappa", 1e4}}, "w");
  EXPECT_EQ(barrier.formulation.name, "log-barrier");
  EXPECT_EQ(barrier.formulation.parameters.Find("kappa")->value(0, 0), 1e4);
  const Scene back = WithFormulation(barrier, std::nullopt,
                                     {{"kappa", std::numeric_limits<double>::quiet_NaN()}}, "w");
  EXPECT_EQ(back.formulation.parameters.Find("kappa"), nullptr);
  EXPECT_NE(ErrorOf([&] {
              WithFormulation(gripper_, std::nullopt, {{"objet_mass_scale", 1}}, "w");
            }).find("unknown formulation parameter 'objet_mass_scale'"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WithFormulation(gripper_, "pq", {}, "w"); }).find("unknown formulation"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              WithFormulation(gripper_, std::nullopt,
                              {{"object_mass_scale", 1}, {"unactuated_mass_scale", 2}}, "w");
            }).find("not both"),
            std::string::npos);
}

}  // namespace
}  // namespace quasidyn
