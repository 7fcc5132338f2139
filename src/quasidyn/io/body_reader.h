#pragma once
// Reads one inline body {mass, com, inertia, shapes} from a scene file (keys documented in
// docs/scene-format.md).

#include <string>
#include <vector>

#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

// `scene_name` is the body's name in the scene; its shapes are named
// "<scene_name>/<shape name>" (or "<scene_name>/<index>" when unnamed). `extra_keys` are
// other keys the caller reads from the same map (e.g. "name"); mesh files are relative to
// base_directory (ReadShape).
//   inertia: from_shapes           solid inertia (io/solid_inertia.h) of the first shape at
//                                  `mass`, rotated into B; com = that shape's centre
//                                  (`com` must then be absent). A mesh shape: the solid of
//                                  its closed mesh (io/mesh_inertia.h), com its centroid.
//   inertia: {principal: [Ixx, Iyy, Izz]}   diagonal, in B [kg·m²].
//   inertia: {matrix: [[...], [...], [...]]} full 3×3 in B [kg·m²].
BodySpec ReadBody(const YamlValue& value, bool planar, const std::string& scene_name,
                  const std::vector<std::string>& extra_keys, const std::string& base_directory);

// A 3 × 3 matrix given as {principal: [a, b, c]} (the diagonal) or {matrix: [[...], [...],
// [...]]} (the inertia above, a limit surface): the numbers as read, not yet checked for
// symmetry or definiteness. With `diagonal`, each diagonal entry (a principal moment, as written)
// must lie in that range (model/physical_ranges.h), refused at its own line.
Eigen::Matrix3d ReadPrincipalOrMatrix(const YamlValue& value,
                                      const PhysicalRange* diagonal = nullptr);

}  // namespace quasidyn
