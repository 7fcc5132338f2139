// Meshes (io/mesh_reader.h, io/mesh_hull.h, io/mesh_shape.h): read, hulled, checked for
// convexity, and loaded as `type: mesh` shapes and URDF <mesh> collisions, with errors that
// name the file.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "quasidyn/io/mesh_hull.h"
#include "quasidyn/io/mesh_inertia.h"
#include "quasidyn/io/mesh_reader.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const std::string kMeshModels = std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/models/";

// Assimp reads coordinates as floats (6e-8 relative rounding): volumes, hulls and inertias are
// compared to 1e-6 relative (1e-9 m³ on the 1e-3 m³ cube), lengths to 1e-8 m.

TEST(MeshReader, ReadsAnObjCubeClosedWithItsVolume) {
  const TriangleMesh mesh = ReadTriangleMesh(kMeshModels + "cube.obj");
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_TRUE(IsClosedMesh(mesh));
  EXPECT_NEAR(EnclosedVolume(mesh), 1e-3, 1e-9);  // 0.1³ m³, outward triangles: positive
  const TriangleMesh scaled = ReadTriangleMesh(kMeshModels + "cube.obj", Eigen::Vector3d(2, 1, 1));
  EXPECT_NEAR(EnclosedVolume(scaled), 2e-3, 2e-9);
}

TEST(MeshReader, ReadsAnAsciiStlWithSharedVertices) {
  const TriangleMesh mesh = ReadTriangleMesh(kMeshModels + "l_shape.stl");
  EXPECT_EQ(mesh.triangles.size(), 20u);
  EXPECT_EQ(mesh.vertices.size(), 12u);  // STL repeats vertices per facet; they are joined
  EXPECT_TRUE(IsClosedMesh(mesh));
  // The L: (0.1 · 0.03 + 0.03 · 0.07) · 0.05 m³.
  EXPECT_NEAR(std::abs(EnclosedVolume(mesh)), 2.55e-4, 2.55e-10);
}

TEST(MeshReader, ErrorsNameTheFile) {
  try {
    ReadTriangleMesh(kMeshModels + "missing.stl");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.stl"), std::string::npos) << e.what();
  }
  const testing::ScratchDirectory scratch;
  const std::string garbage = (scratch / "garbage.obj").string();
  std::ofstream(garbage) << "this is not a mesh\n";
  try {
    ReadTriangleMesh(garbage);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("garbage.obj"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ReadTriangleMesh(kMeshModels + "cube.obj", Eigen::Vector3d(1, 0, 1)),
               std::invalid_argument);
}

TEST(MeshHull, ConvexCubeIsItsOwnHull) {
  const TriangleMesh mesh = ReadTriangleMesh(kMeshModels + "cube.obj");
  const MeshHull hull = ConvexHullOfMesh(mesh);
  EXPECT_EQ(hull.vertices.size(), 8u);
  EXPECT_NEAR(hull.hull_volume, 1e-3, 1e-9);
  EXPECT_NEAR(hull.mesh_volume, 1e-3, 1e-9);
  EXPECT_LT(hull.deepest_vertex, 1e-9);
  EXPECT_EQ(NonConvexityProblem(hull, mesh), "");
}

// The L's hull adds the triangle (0.1, 0.03), (0.03, 0.1), (0.03, 0.03) · 0.05:
// 7.55e-3 · 0.05 / 2.55e-4 = 1.48 times the mesh's volume, above 1.05.
TEST(MeshHull, NonConvexMeshIsRejectedNamingTheFileAndTheRatio) {
  const TriangleMesh mesh = ReadTriangleMesh(kMeshModels + "l_shape.stl");
  const MeshHull hull = ConvexHullOfMesh(mesh);
  EXPECT_NEAR(hull.hull_volume / hull.mesh_volume, 0.00755 * 0.05 / 2.55e-4, 1e-6);
  const std::string problem = NonConvexityProblem(hull, mesh);
  EXPECT_NE(problem.find("l_shape.stl is not convex"), std::string::npos) << problem;
  EXPECT_NE(problem.find("1.48"), std::string::npos) << problem;
}

TEST(MeshHull, FlatMeshHasNoHull) {
  const TriangleMesh mesh = ReadTriangleMesh(kMeshModels + "flat.obj");
  try {
    ConvexHullOfMesh(mesh);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("flat.obj"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("flat mesh"), std::string::npos) << e.what();
  }
}

// The solid of a closed mesh (io/mesh_inertia.h): a 0.1 m cube of 1 kg has m s²/6 = 1/600
// kg·m² on every axis about its centre; the L prism's centroid is that of its two rectangles,
// ((0.003 · 0.05 + 0.0021 · 0.015) / 0.0051, the same in y, 0.025).
TEST(MeshInertia, CubeAndLShape) {
  const MeshSolid cube = MeshSolidProperties(ReadTriangleMesh(kMeshModels + "cube.obj"), 1.0);
  EXPECT_NEAR(cube.volume, 1e-3, 1e-9);
  EXPECT_LT(cube.com.norm(), 1e-9);
  EXPECT_TRUE(cube.inertia.isApprox(Eigen::Matrix3d::Identity() / 600.0, 1e-6));
  const MeshSolid l = MeshSolidProperties(ReadTriangleMesh(kMeshModels + "l_shape.stl"), 2.0);
  const double centroid = (0.003 * 0.05 + 0.0021 * 0.015) / 0.0051;
  EXPECT_TRUE(l.com.isApprox(Eigen::Vector3d(centroid, centroid, 0.025), 1e-6));
  EXPECT_NEAR(l.inertia(0, 1), l.inertia(1, 0), 1e-15 + 1e-9 * l.inertia(0, 0));
  EXPECT_GT(l.inertia(0, 1), 0.0);  // mass lies along the x = y diagonal's corners: I_xy > 0
  EXPECT_THROW(MeshSolidProperties(ReadTriangleMesh(kMeshModels + "flat.obj"), 1.0),
               std::invalid_argument);
}

std::string MeshScene(const std::string& file, const std::string& extra = "") {
  return "name: m\ndimension: 3\ntime_step: 0.01\n"
         "objects:\n  - name: thing\n    joint: floating\n"
         "    body:\n      mass: 1.0\n      inertia: {principal: [0.001, 0.001, 0.001]}\n"
         "      shapes:\n        - {type: mesh, file: " +
         file + extra +
         ", friction: 0.5}\n"
         "    initial: [0, 0, 0.1, 1, 0, 0, 0]\n";
}

TEST(MeshShape, SceneMeshShapeIsTheConvexHullAndKeepsTheMesh) {
  const Scene scene = ReadSceneText(MeshScene("cube.obj", ", scale: 2"), "mesh.yaml", kMeshModels);
  ASSERT_EQ(scene.geometries.size(), 1u);
  const CollisionGeometry& g = scene.geometries[0];
  EXPECT_EQ(g.shape.type, ShapeType::kConvex);
  EXPECT_EQ(g.shape.vertices.size(), 8u);
  for (const Eigen::Vector3d& v : g.shape.vertices) EXPECT_NEAR(v.cwiseAbs().maxCoeff(), 0.1, 1e-8);
  ASSERT_NE(g.mesh, nullptr);
  EXPECT_EQ(g.mesh->triangles.size(), 12u);
}

TEST(MeshShape, NonConvexSceneMeshFailsAtItsLine) {
  try {
    ReadSceneText(MeshScene("l_shape.stl"), "mesh.yaml", kMeshModels);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 11) << e.what();
    EXPECT_NE(std::string(e.what()).find("l_shape.stl is not convex"), std::string::npos)
        << e.what();
  }
}

TEST(MeshShape, MeshShapesAreForThreeDimensionalScenes) {
  const std::string planar =
      "name: m\ndimension: 2\ntime_step: 0.01\nenvironment:\n"
      "  - {type: mesh, file: cube.obj, friction: 0.5}\n";
  EXPECT_THROW(ReadSceneText(planar, "mesh.yaml", kMeshModels), SceneError);
}

// URDF <mesh> collision geometry loads as its hull; <visual> meshes are kept for the viewer.
TEST(MeshShape, UrdfMeshCollisionAndVisuals) {
  const testing::ScratchDirectory scratch;
  const std::string folder = scratch.path().string();
  std::filesystem::copy_file(kMeshModels + "cube.obj", folder + "/cube.obj");
  std::filesystem::copy_file(kMeshModels + "l_shape.stl", folder + "/l_shape.stl");
  const auto write = [&](const std::string& collision) {
    std::ofstream(folder + "/thing.urdf")
        << "<robot name=\"thing\"><link name=\"body\">"
           "<inertial><mass value=\"1\"/><inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\" "
           "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
           "<visual><geometry><mesh filename=\"package://"
        << scratch.path().filename().string()
        << "/l_shape.stl\"/></geometry></visual>"
           "<collision><geometry><mesh filename=\""
        << collision << "\" scale=\"0.5 0.5 0.5\"/></geometry></collision></link></robot>";
  };
  const std::string yaml =
      "name: u\ndimension: 3\ntime_step: 0.01\nobjects:\n"
      "  - {name: thing, joint: floating, urdf: thing.urdf, friction: 0.4,\n"
      "     initial: [0, 0, 0.1, 1, 0, 0, 0]}\n";
  write("cube.obj");
  const Scene scene = ReadSceneText(yaml, "u.yaml", folder);
  ASSERT_EQ(scene.geometries.size(), 1u);
  EXPECT_EQ(scene.geometries[0].shape.type, ShapeType::kConvex);
  EXPECT_NEAR(scene.geometries[0].shape.vertices[0].cwiseAbs().maxCoeff(), 0.025, 1e-8);
  ASSERT_EQ(scene.visuals.size(), 1u);  // package://<folder>/l_shape.stl, resolved upward
  ASSERT_NE(scene.visuals[0].mesh, nullptr);
  EXPECT_EQ(scene.visuals[0].mesh->triangles.size(), 20u);
  EXPECT_EQ(scene.visuals[0].name, "thing/body/visual/0");
  // A non-convex collision mesh: the error names the mesh file, at the scene's urdf line.
  write("l_shape.stl");
  try {
    ReadSceneText(yaml, "u.yaml", folder);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5) << e.what();
    EXPECT_NE(std::string(e.what()).find("l_shape.stl is not convex"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
