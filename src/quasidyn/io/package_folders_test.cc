// package://NAME/... (io/package_folders.h, io/model_uri.h): each way of finding NAME's folder
// and their order (the scene's `packages:`, the command line's folders, ROS_PACKAGE_PATH,
// package.xml above the model, a folder named NAME above it), the error naming every place
// searched, a ROS-style URDF, and a missing visual mesh as a warning (its collision shapes
// drawn) while a missing collision mesh stays an error at the URDF's line. Before, only the
// last way existed and a missing visual mesh failed the load.

#include "quasidyn/io/package_folders.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/io/model_uri.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/io/urdf_loader.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

const std::string kCube = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/models/cube.obj";

const fs::path& Scratch() {
  static const testing::ScratchDirectory folder;
  return folder.path();
}

// Writes `text` at `relative` below the scratch folder (making its folders); its path.
std::string WriteUnderPackageRoot(const std::string& relative, const std::string& text) {
  const fs::path path = Scratch() / relative;
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

std::string Folder(const std::string& relative) {
  fs::create_directories(Scratch() / relative);
  return (Scratch() / relative).string();
}

std::string PackageXml(const std::string& name) {
  return "<?xml version=\"1.0\"?>\n<!-- <name>not_this</name> -->\n<package format=\"3\">\n"
         "  <name>\n    " +
         name +
         "  </name>\n  <version>1.0.0</version>\n"
         "  <export><name>nor_this</name></export>\n</package>\n";
}

// ROS_PACKAGE_PATH set (or unset, for null) for one test and restored after it.
class RosPackagePath {
 public:
  explicit RosPackagePath(const char* value) {
    if (const char* old = std::getenv("ROS_PACKAGE_PATH")) saved_ = old;
    if (value != nullptr) {
      setenv("ROS_PACKAGE_PATH", value, 1);
    } else {
      unsetenv("ROS_PACKAGE_PATH");
    }
  }
  ~RosPackagePath() {
    if (saved_) {
      setenv("ROS_PACKAGE_PATH", saved_->c_str(), 1);
    } else {
      unsetenv("ROS_PACKAGE_PATH");
    }
  }
  RosPackagePath(const RosPackagePath&) = delete;
  RosPackagePath& operator=(const RosPackagePath&) = delete;

 private:
  std::optional<std::string> saved_;
};

bool PackageFoldersContains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PackageFolders, PackageXmlNameIsTheTopLevelNameTrimmed) {
  const std::string folder = Folder("xml/named");
  WriteUnderPackageRoot("xml/named/package.xml", PackageXml("qd_named_pkg"));
  EXPECT_EQ(PackageXmlName(folder), "qd_named_pkg");
  EXPECT_EQ(PackageXmlName(Folder("xml/empty")), std::nullopt);
  WriteUnderPackageRoot("xml/other/package.xml", "<robot name=\"x\"><name>y</name></robot>");
  EXPECT_EQ(PackageXmlName((Scratch() / "xml/other").string()), std::nullopt);
}

TEST(PackageFolders, FoundInOrderSceneCommandLineEnvironmentPackageXmlFolderName) {
  const std::string name = "qd_order_pkg";
  const std::string scene = Folder("order/scene_pkg");
  const std::string command_line = Folder("order/cli_pkg");
  Folder("order/nothing");
  const std::string crawled = Folder("order/ros/vendor/group/checkout");  // 3 levels down
  WriteUnderPackageRoot("order/ros/vendor/group/checkout/package.xml", PackageXml(name));
  const std::string above = Folder("order/ws/pkg_root");
  WriteUnderPackageRoot("order/ws/pkg_root/package.xml", PackageXml(name));
  const std::string model = Folder("order/ws/pkg_root/urdf");
  const std::string plain_model = Folder("order/plain/models");
  const std::string named = Folder("order/plain/" + name);
  const std::string ros = (Scratch() / "order/nothing").string() + ":" +
                          (Scratch() / "order/missing").string() + ":" +
                          (Scratch() / "order/ros").string();

  PackageSearch search;
  search.scene[name] = {scene, "scene.yaml:3: packages." + name};
  search.command_line[name] = {command_line, "--package"};
  {
    const RosPackagePath set(ros.c_str());
    EXPECT_EQ(FindPackageFolder(name, model, search, nullptr), scene);
    search.scene.clear();
    EXPECT_EQ(FindPackageFolder(name, model, search, nullptr), command_line);
    search.command_line.clear();
    EXPECT_EQ(FindPackageFolder(name, model, search, nullptr), crawled);
  }
  const RosPackagePath unset(nullptr);
  EXPECT_EQ(FindPackageFolder(name, model, search, nullptr), above);
  EXPECT_EQ(FindPackageFolder(name, plain_model, search, nullptr), named);
  std::vector<std::string> searched;
  EXPECT_EQ(FindPackageFolder("qd_no_such_pkg", model, search, &searched), std::nullopt);
  ASSERT_EQ(searched.size(), 5u);
  EXPECT_TRUE(PackageFoldersContains(searched[2], "ROS_PACKAGE_PATH (unset)")) << searched[2];
}

TEST(PackageFolders, RosPackagePathEntryNamedAfterThePackage) {
  const std::string folder = Folder("rpp/qd_plain_pkg");  // no package.xml: its folder name
  const RosPackagePath set((Scratch() / "rpp").string().c_str());
  EXPECT_EQ(FindPackageFolder("qd_plain_pkg", "", PackageSearch{}, nullptr), folder);
}

TEST(PackageFolders, AnUnresolvedPackageNamesEveryPlaceSearched) {
  const RosPackagePath set((Scratch() / "none").string().c_str());
  PackageSearch search;
  search.scene["qd_other"] = {Folder("unresolved/other"), "scene.yaml:3: packages.qd_other"};
  try {
    ResolveModelUri("package://qd_missing_pkg/meshes/x.stl", Folder("unresolved/model"),
                    {"scene.yaml", 7, "robots[0].urdf"}, search, "arm.urdf:9: ");
    FAIL();
  } catch (const SceneError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.line(), 7);
    for (const std::string& part :
         {std::string("arm.urdf:9: cannot resolve package://qd_missing_pkg/meshes/x.stl"),
          std::string("the scene's `packages:` (has qd_other)"),
          std::string("--package (none given)"), "ROS_PACKAGE_PATH (" + Scratch().string(),
          std::string("a package.xml naming 'qd_missing_pkg'"),
          std::string("a folder named 'qd_missing_pkg'")})
      EXPECT_TRUE(PackageFoldersContains(message, part)) << part << "\n" << message;
  }
}

// A URDF as ROS packages write it: package:// meshes of a package whose folder is not named
// after it (a git checkout), named materials, a transmission, gazebo tags, joint dynamics, and
// a visual mesh of a package that is not there.
TEST(PackageFolders, RosStyleUrdfLoadsThroughPackageXml) {
  const RosPackagePath unset(nullptr);
  WriteUnderPackageRoot("ros/ws/src/robot_description-main/package.xml",
                        PackageXml("qd_robot_description"));
  fs::create_directories(Scratch() / "ros/ws/src/robot_description-main/meshes");
  fs::copy_file(kCube, Scratch() / "ros/ws/src/robot_description-main/meshes/cube.obj",
                fs::copy_options::overwrite_existing);
  const std::string path = WriteUnderPackageRoot(
      "ros/ws/src/robot_description-main/urdf/robot.urdf", R"(<?xml version="1.0"?>
<robot name="ros_style">
  <material name="blue"><color rgba="0 0 0.8 1"/></material>
  <link name="base_link">
    <visual>
      <geometry><mesh filename="package://qd_robot_description/meshes/cube.obj"/></geometry>
      <material name="blue"/>
    </visual>
    <collision>
      <geometry><mesh filename="package://qd_robot_description/meshes/cube.obj"/></geometry>
    </collision>
  </link>
  <link name="finger">
    <visual><geometry><mesh filename="package://qd_vendor_meshes/finger.dae"/></geometry></visual>
    <collision><geometry><box size="0.02 0.02 0.05"/></geometry></collision>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="base_link"/><child link="finger"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.04" effort="10" velocity="0.1"/>
    <dynamics damping="0.7"/>
  </joint>
  <transmission name="slide_transmission">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="slide"><hardwareInterface>PositionJointInterface</hardwareInterface></joint>
    <actuator name="motor"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
  <gazebo reference="base_link"><material>Gazebo/Blue</material></gazebo>
  <gazebo><plugin name="gazebo_ros_control" filename="libgazebo_ros_control.so"/></gazebo>
</robot>
)");
  UrdfOptions options;
  options.instance_name = "hand";
  options.where = {"scene.yaml", 4, "robots[0].urdf"};
  const InstanceSpec spec = LoadUrdfInstance(path, options);
  ASSERT_EQ(spec.bodies.size(), 2u);
  const BodySpec& base = spec.bodies[0];
  ASSERT_EQ(base.shapes.size(), 1u);
  EXPECT_EQ(base.shapes[0].shape.type, ShapeType::kConvex);  // the cube's hull
  ASSERT_EQ(base.visuals.size(), 1u);
  EXPECT_NE(base.visuals[0].mesh, nullptr);
  const BodySpec& finger = spec.bodies[1];
  EXPECT_EQ(finger.shapes.size(), 1u);
  EXPECT_TRUE(finger.visuals.empty());  // drawn by its collision box
  ASSERT_EQ(spec.joints.size(), 2u);
  EXPECT_EQ(spec.joints[1].upper_limit, 0.04);
  std::string all;
  for (const std::string& warning : spec.warnings) all += warning + "\n";
  for (const std::string& part :
       {path + ":3: <material> ignored", std::string("(2 in the file"),
        path + ":14: link 'finger' <visual>: mesh package://qd_vendor_meshes/finger.dae is not "
               "drawn (the link's collision shapes are drawn instead)",
        std::string("package 'qd_vendor_meshes' not found"), path + ":20: <dynamics> ignored",
        path + ":22: <transmission> ignored", path + ":27: <gazebo> ignored"})
    EXPECT_TRUE(PackageFoldersContains(all, part)) << part << "\n" << all;
}

// The scene file's `packages:` and the command line's folders, through ReadSceneFile; a missing
// collision mesh is an error at the URDF's line.
TEST(PackageFolders, SceneKeyAndCommandLineFoldersThroughReadSceneFile) {
  const RosPackagePath unset(nullptr);
  fs::create_directories(Scratch() / "scene/vendor/parts-1.2");
  fs::copy_file(kCube, Scratch() / "scene/vendor/parts-1.2/cube.obj",
                fs::copy_options::overwrite_existing);
  const std::string urdf = R"(<robot name="block">
  <link name="body">
    <inertial><mass value="0.5"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial>
    <collision><geometry><mesh filename="package://qd_parts/cube.obj"/></geometry></collision>
  </link>
</robot>
)";
  WriteUnderPackageRoot("scene/models/block.urdf", urdf);
  const std::string objects =
      "objects:\n"
      "  - {name: block, joint: floating, urdf: models/block.urdf, friction: 0.5,\n"
      "     initial: [0, 0, 0.1, 1, 0, 0, 0]}\n";
  const std::string head = "name: p\ndimension: 3\ntime_step: 0.01\n";
  const std::string with_key = WriteUnderPackageRoot(
      "scene/with_key.yaml", head + "packages:\n  qd_parts: vendor/parts-1.2\n" + objects);
  const Scene scene = ReadSceneFile(with_key);
  ASSERT_EQ(scene.geometries.size(), 1u);
  EXPECT_EQ(scene.geometries[0].shape.type, ShapeType::kConvex);

  const std::string without = WriteUnderPackageRoot("scene/without.yaml", head + objects);
  const Scene from_flag =
      ReadSceneFile(without, {{"qd_parts", (Scratch() / "scene/vendor/parts-1.2").string()}});
  EXPECT_EQ(from_flag.geometries.size(), 1u);
  try {
    ReadSceneFile(without);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5) << e.what();
    EXPECT_TRUE(PackageFoldersContains(e.what(),
                                       "block.urdf:4: link 'body' <collision>: cannot resolve "
                                       "package://qd_parts/cube.obj"))
        << e.what();
  }
  const std::string missing = WriteUnderPackageRoot(
      "scene/missing.yaml", head + "packages:\n  qd_parts: vendor/gone\n" + objects);
  try {
    ReadSceneFile(missing);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5) << e.what();
    EXPECT_EQ(e.field(), "packages.qd_parts");
    EXPECT_TRUE(PackageFoldersContains(e.what(), "the folder of package 'qd_parts' is not found"))
        << e.what();
  }
  const std::string typo = WriteUnderPackageRoot(
      "scene/typo.yaml", head + "pakages:\n  qd_parts: vendor/parts-1.2\n" + objects);
  try {
    ReadSceneFile(typo);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_TRUE(PackageFoldersContains(e.what(), "pakages: unknown key (did you mean 'packages'?)"))
        << e.what();
    EXPECT_TRUE(PackageFoldersContains(e.what(), "formulation, packages, environment")) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
