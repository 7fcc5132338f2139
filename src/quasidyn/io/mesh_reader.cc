#include "quasidyn/io/mesh_reader.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <Eigen/Geometry>
#include <array>
#include <assimp/Importer.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "quasidyn/io/loader_limits.h"

namespace quasidyn {

TriangleMesh ReadTriangleMesh(const std::string& path, const Eigen::Vector3d& scale) {
  if (!scale.allFinite() || !(scale.minCoeff() > 0.0))
    throw std::invalid_argument("mesh " + path + ": scale must be finite and > 0");
  if (!std::filesystem::is_regular_file(path))
    throw std::runtime_error("mesh file not found: " + path);
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (!error && bytes > kMaxMeshFileBytes)
    throw std::runtime_error("mesh " + path + " has " + std::to_string(bytes) + " bytes; at most " +
                             std::to_string(kMaxMeshFileBytes) + " are read");
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  // Points and lines are removed; node transforms are baked into one set of vertices.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                  aiProcess_SortByPType | aiProcess_PreTransformVertices);
  if (scene == nullptr)
    throw std::runtime_error("cannot read mesh " + path + ": " + importer.GetErrorString());
  TriangleMesh mesh;
  mesh.file = path;
  // Vertices at the same position are one vertex (welded): Assimp keeps an STL facet's
  // corners apart (their normals differ), which would leave every edge open.
  std::map<std::array<float, 3>, int> index_of;
  std::vector<int> welded;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& part = *scene->mMeshes[m];
    welded.resize(part.mNumVertices);
    for (unsigned v = 0; v < part.mNumVertices; ++v) {
      const aiVector3D& p = part.mVertices[v];
      const Eigen::Vector3d point(p.x * scale.x(), p.y * scale.y(), p.z * scale.z());
      if (!point.allFinite())
        throw std::runtime_error("mesh " + path + ": vertex " + std::to_string(v) +
                                 " has a coordinate that is not finite");
      const auto [it, added] =
          index_of.emplace(std::array<float, 3>{p.x, p.y, p.z}, mesh.vertices.size());
      if (added) mesh.vertices.push_back(point);
      welded[v] = it->second;
    }
    for (unsigned f = 0; f < part.mNumFaces; ++f) {
      const aiFace& face = part.mFaces[f];
      if (face.mNumIndices != 3) continue;
      mesh.triangles.emplace_back(welded[face.mIndices[0]], welded[face.mIndices[1]],
                                  welded[face.mIndices[2]]);
      if (mesh.triangles.size() > kMaxMeshTriangles)
        throw std::runtime_error("mesh " + path + " has more than " +
                                 std::to_string(kMaxMeshTriangles) + " triangles");
    }
  }
  if (mesh.triangles.empty()) throw std::runtime_error("mesh " + path + " has no triangle");
  return mesh;
}

double EnclosedVolume(const TriangleMesh& mesh) {
  double six_volume = 0.0;
  for (const Eigen::Vector3i& t : mesh.triangles)
    six_volume += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]]));
  return six_volume / 6.0;
}

bool IsClosedMesh(const TriangleMesh& mesh) {
  std::map<std::pair<int, int>, int> uses;
  for (const Eigen::Vector3i& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      ++uses[{std::min(a, b), std::max(a, b)}];
    }
  for (const auto& [edge, count] : uses)
    if (count != 2) return false;
  return true;
}

}  // namespace quasidyn
