#include "quasidyn/io/mesh_hull.h"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mesh_reader.h"

namespace quasidyn {
namespace {

// A vertex deeper inside the hull than this fraction of the hull's bounding-box diagonal makes
// the mesh non-convex (mesh_hull.h).
constexpr double kMaxVertexDepth = 1e-3;

// Qhull's messages go to a memory stream, so that a failure can name its cause.
class MessageStream {
 public:
  MessageStream() : file_(open_memstream(&text_, &size_)) {}
  ~MessageStream() {
    if (file_ != nullptr) std::fclose(file_);
    std::free(text_);
  }
  FILE* file() const { return file_; }
  std::string Text() {
    if (file_ == nullptr) return "";
    std::fflush(file_);
    return text_ != nullptr ? std::string(text_, size_) : "";
  }

 private:
  char* text_ = nullptr;
  size_t size_ = 0;
  FILE* file_ = nullptr;
};

// The first line of a Qhull message (its QH code and the reason).
std::string FirstLine(const std::string& text) {
  const size_t start = text.find_first_not_of("\n ");
  if (start == std::string::npos) return "no message";
  return text.substr(start, text.find('\n', start) - start);
}

}  // namespace

MeshHull ConvexHullOfMesh(const TriangleMesh& mesh) {
  std::vector<coordT> points;
  points.reserve(3 * mesh.vertices.size());
  for (const Eigen::Vector3d& p : mesh.vertices) points.insert(points.end(), {p.x(), p.y(), p.z()});
  MessageStream messages;
  qhT context;
  qhT* qh = &context;
  qh_zero(qh, messages.file());
  // Qt: triangulated output; FA: total area and volume. No output file.
  char options[] = "qhull Qt FA";
  const int status = qh_new_qhull(qh, 3, static_cast<int>(mesh.vertices.size()), points.data(),
                                  False, options, nullptr, messages.file());
  MeshHull hull;
  std::string failure;
  if (status != 0) {
    failure = FirstLine(messages.Text());
  } else {
    if (!qh->hasAreaVolume) qh_getarea(qh, qh->facet_list);
    hull.hull_volume = qh->totvol;
    vertexT* vertex = nullptr;
    FORALLvertices {
      const coordT* p = vertex->point;
      hull.vertices.emplace_back(p[0], p[1], p[2]);
    }
    // The depth of every mesh vertex inside the hull: −max over facets of its signed distance.
    for (const Eigen::Vector3d& p : mesh.vertices) {
      double outermost = -std::numeric_limits<double>::infinity();
      facetT* facet = nullptr;
      FORALLfacets {
        const double distance = facet->normal[0] * p.x() + facet->normal[1] * p.y() +
                                facet->normal[2] * p.z() + facet->offset;
        outermost = std::max(outermost, distance);
      }
      hull.deepest_vertex = std::max(hull.deepest_vertex, -outermost);
    }
  }
  int long_bytes = 0, total_bytes = 0;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &long_bytes, &total_bytes);
  if (!failure.empty())
    throw std::runtime_error("cannot take the convex hull of mesh " + mesh.file + " (" +
                             std::to_string(mesh.vertices.size()) +
                             " vertices; a flat mesh, whose points all lie in one plane, has "
                             "no volume): Qhull says " +
                             failure);
  hull.closed = IsClosedMesh(mesh);
  if (hull.closed) hull.mesh_volume = std::abs(EnclosedVolume(mesh));
  return hull;
}

std::string NonConvexityProblem(const MeshHull& hull, const TriangleMesh& mesh) {
  Eigen::Vector3d lower = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d upper = -lower;
  for (const Eigen::Vector3d& p : hull.vertices) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  const double diagonal = (upper - lower).norm();
  std::ostringstream out;
  if (hull.closed && hull.hull_volume > kMaxHullVolumeRatio * hull.mesh_volume) {
    out << "mesh " << mesh.file << " is not convex: its convex hull's volume is "
        << hull.hull_volume / hull.mesh_volume << " times the mesh's (at most "
        << kMaxHullVolumeRatio
        << " collides as its hull); split it into convex parts, one shape each";
    return out.str();
  }
  if (hull.deepest_vertex > kMaxVertexDepth * diagonal) {
    out << "mesh " << mesh.file << " is not convex: a vertex lies " << hull.deepest_vertex
        << " m inside its convex hull (at most " << kMaxVertexDepth
        << " of the hull's size); split it into convex parts, one shape each";
    return out.str();
  }
  return "";
}

}  // namespace quasidyn
