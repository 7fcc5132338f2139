#pragma once
// The limits the scene loader enforces on what it reads (docs/scene-format.md, "Limits"). Each
// bounds a resource the loader or the step would otherwise exhaust, or a range where the
// geometry library stops being reliable; exceeding one is a SceneError with file:line.

#include <cstddef>
#include <sstream>
#include <string>

namespace quasidyn {

// Size of a scene YAML or URDF file [bytes]: the YAML tree costs ~100x its text in memory.
inline constexpr size_t kMaxSceneFileBytes = size_t{16} << 20;  // 16 MiB
inline constexpr size_t kMaxUrdfFileBytes = size_t{32} << 20;   // 32 MiB
// Size of a mesh file [bytes] and its triangle count: every triangle is kept for the viewer's
// page (about 100 bytes of HTML each) and hulled once at load.
inline constexpr size_t kMaxMeshFileBytes = size_t{64} << 20;  // 64 MiB
inline constexpr size_t kMaxMeshTriangles = 1000000;
// A closed mesh collides as its convex hull only when the hull's volume exceeds the mesh's by at
// most this ratio [-] (io/mesh_hull.h): beyond it the mesh is not convex and its hull would fill
// its cavities.
inline constexpr double kMaxHullVolumeRatio = 1.05;
// Nesting depth of XML elements in a model file: kMaxXmlDepth = 98 of files/xml_tags.h
// (tinyxml2's bound), read before urdfdom's parser (TinyXML, which recurses once per level
// without a bound) sees the file.
// Magnitude of every number of a scene file: a step multiplies up to three of them (a stiffness,
// an offset and the time step squared), so 1e12 keeps every product far from overflow (1e308);
// beyond it a 1e308 offset times a stiffness overflowed inside the step.
inline constexpr double kMaxSceneNumber = 1e12;
// The wording of a number beyond ±kMaxSceneNumber, shared by the scene file (io/yaml_reader.h)
// and the model files (io/model_file_numbers.h): "must lie within +-1e+12 (larger numbers
// overflow the step), got <shown>", where `shown` is the number as the message shows it.
inline std::string NumberBeyondLimitProblem(const std::string& shown) {
  std::ostringstream out;
  out << "must lie within +-" << kMaxSceneNumber << " (larger numbers overflow the step), got "
      << shown;
  return out.str();
}
// The wording of a NaN or an infinity in a scene or model file: "must be finite, got <shown>".
inline std::string NumberNotFiniteProblem(const std::string& shown) {
  return "must be finite, got " + shown;
}
// Shape dimensions (box sides, radii, lengths, convex vertex coordinates) [m]: the narrow
// phase's GJK/EPA tolerances are relative to a pair's size (at most 1e-10 of it,
// geometry/convex_distance_3d.h), so a range of 1e8 keeps the smallest shape resolved to 1 %
// of its size against the largest. (FCL's EPA, used before, aborted on a 0.08 x 0.08 x 1e5 m
// box against a small box.)
inline constexpr double kMinShapeSize = 1e-5;
inline constexpr double kMaxShapeSize = 1e3;
// A sphere's radius [m] may be smaller: a sphere is a point expanded by its radius
// (geometry/convex_core_3d.cc), so its distance is the point's minus r and no tolerance of the
// narrow phase is relative to r; a sphere of any size is a contact point (the reference
// quasistatic simulator's models mark contact points with 1e-7 m "corner spheres"). 1 nm (a few
// atoms) is the smallest radius that still means a size: GJK/EPA resolve a distance to 1e-10 of
// the pair's size (geometry/convex_distance_3d.h), 1e-11 to 1e-10 m for the 0.1 to 1 m pairs of
// manipulation scenes, so a radius below 1e-9 m cannot be told from a point. (r > 0 stays
// needed: a shape of inertia `from_shapes` and ecp's quadric need a solid.)
inline constexpr double kMinSphereRadius = 1e-9;
// Largest ratio of a shape's largest to smallest dimension [-].
inline constexpr double kMaxShapeAspectRatio = 1e5;
// Quaternions of initial configurations must be unit to this tolerance [-] (then normalised
// exactly: the scene builder, scene edits).
inline constexpr double kUnitQuaternionTolerance = 1e-6;
// Friction rays per contact in 3D scenes (the pyramid has 2x this many facets).
inline constexpr int kMaxFrictionRays = 64;
// Velocity coordinates of a scene. The qp, socp and barrier steps are sparse (memory linear in the
// scene), but the quasistatic LCP and the gradients A = ∂q⁺/∂q, B = ∂q⁺/∂u are dense n_v x n_v or
// larger (8 n_v^2 bytes each).
inline constexpr int kMaxVelocities = 6000;

}  // namespace quasidyn
