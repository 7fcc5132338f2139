#pragma once
// The files of tests/data/bad_scenes/ (header only): each has one defect, marked "# defect" on
// its line, and the SceneError it must give: the file, that line, the field and a fragment of
// the problem. The scene format's own defects are found by io alone (io/bad_scenes_test.cc,
// io/scene_document.h); the others need what is registered above io, the formulations' keys and
// parameters and the geometry's shape checks (scenes/bad_scenes_test.cc, LoadScene, which also
// gives every format defect at its line).

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "quasidyn/model/scene_error.h"

namespace quasidyn::testing {

struct BadScene {
  std::string file;
  int line;
  std::string field;
  std::string problem;  // a fragment of the message
};

inline void PrintTo(const BadScene& s, std::ostream* out) { *out << s.file; }

// Reads the bad scene `expected` (its path under tests/data/bad_scenes/) with `read`, which must
// throw a SceneError naming that file, the defect's line and field, with the problem.
inline void ExpectErrorAtTheDefect(const BadScene& expected,
                                   const std::function<void(const std::string& path)>& read) {
  const std::string path =
      std::string(QUASIDYN_SOURCE_DIR) + "/tests/data/bad_scenes/" + expected.file;
  try {
    read(path);
    ADD_FAILURE() << expected.file << " read without error";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), expected.line) << e.what();
    EXPECT_EQ(e.field(), expected.field) << e.what();
    EXPECT_NE(std::string(e.what()).find(expected.problem), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(expected.file), std::string::npos) << e.what();
  }
}

// Defects of the scene format itself (docs/scene-format.md), model files and meshes included
// (docs/model-files.md).
inline std::vector<BadScene> FormatDefects() {
  return {
      BadScene{"unknown_key.yaml", 6, "tiem_step", "unknown key (did you mean 'time_step'?)"},
      BadScene{"missing_mass.yaml", 9, "objects[0].body.mass", "missing required field"},
      BadScene{"negative_mass.yaml", 10, "objects[0].body.mass",
               "must lie within [1e-06, 1e+06] kg, got -1.0"},
      BadScene{"wrong_initial_size.yaml", 13, "objects[0].initial", "must have 3 numbers"},
      BadScene{"nan_value.yaml", 13, "objects[0].body.shapes[0].radius", "must be finite"},
      BadScene{"unknown_shape.yaml", 13, "objects[0].body.shapes[0].type",
               "unknown shape type 'cone'"},
      BadScene{"inertia_not_positive.yaml", 11, "objects[0].body.inertia", "positive definite"},
      BadScene{"duplicate_name.yaml", 11, "objects[1].name", "duplicate instance name"},
      BadScene{"unknown_joint_type.yaml", 13, "robots[0].joints[1].type",
               "unknown joint type 'ball'"},
      BadScene{"non_increasing_times.yaml", 19, "robots[0].commands[2]", "strictly increasing"},
      BadScene{"wrong_command_size.yaml", 17, "robots[0].commands[0]", "must have 2 numbers"},
      BadScene{"wrong_stiffness_count.yaml", 14, "robots[0].stiffness", "one per actuated joint"},
      BadScene{"unknown_filter_body.yaml", 17, "collision_filter[0]",
               "no body named 'pusher/handle'"},
      // yaml-cpp notices the unclosed map at the end of the file, one line after the defect.
      BadScene{"syntax_error.yaml", 5, "", "YAML syntax error"},
      BadScene{"non_unit_quaternion.yaml", 11, "objects[0].initial", "must be unit"},
      BadScene{"missing_urdf.yaml", 6, "robots[0].urdf", "URDF file not found"},
      BadScene{"malformed_urdf.yaml", 6, "robots[0].urdf", "cannot parse URDF"},
      BadScene{"floating_joint_urdf.yaml", 6, "robots[0].urdf", "joint 'free_joint'"},
      BadScene{"bad_capsule_urdf.yaml", 6, "robots[0].urdf", "bad_capsule.urdf:5: <capsule>"},
      BadScene{"empty.yaml", 1, "<document>", "the scene is empty"},
      BadScene{"comment_only.yaml", 1, "<document>", "the scene is empty"},
      // Beyond the range of sizes the narrow phase resolves (io/loader_limits.h).
      BadScene{"long_box.yaml", 12, "objects[0].body.shapes[0]", "must lie in [1e-05, 1000] m"},
      BadScene{"sliver_box.yaml", 12, "objects[0].body.shapes[0]",
               "largest / smallest dimension 200000 exceeds 100000"},
      BadScene{"too_many_rays.yaml", 4, "friction_rays", "must be an integer in [3, 64]"},
      BadScene{"invalid_utf8_name.yaml", 5, "environment[0].name", "not valid UTF-8"},
      BadScene{"huge_number.yaml", 14, "objects[0].initial[1]", "must lie within +-1e+12"},
      // Positive but unusable values (model/physical_ranges.h).
      BadScene{"subnormal_time_step.yaml", 5, "time_step",
               "time_step: must lie within [1e-06, 10] s, got 1e-320"},
      BadScene{"tiny_mass.yaml", 11, "objects[0].body.mass",
               "must lie within [1e-06, 1e+06] kg, got 1e-310"},
      // The second-order formulations' keys, which are the format's (docs/scene-format.md).
      BadScene{"negative_damping.yaml", 16, "robots[0].damping",
               "damping must be 0 or lie within [1e-06, 1e+09] N s/m or N m s/rad, got -1"},
      BadScene{"wrong_damping_count.yaml", 16, "robots[0].damping", "one per actuated joint"},
      BadScene{"wrong_initial_velocity_size.yaml", 12, "objects[0].initial_velocity",
               "must have 6 numbers"},
      BadScene{"nan_initial_velocity.yaml", 12, "objects[0].initial_velocity[0]", "must be finite"},
  };
}

// Defects only what is registered above io finds: the formulation block's parameters, the keys
// formulations add to objects and what they need of a scene (formulations/registry.h), and the
// shapes the geometry refuses (geometry/scene_shapes.h).
inline std::vector<BadScene> FormulationAndGeometryDefects() {
  return {
      BadScene{"negative_kappa.yaml", 16, "formulation.kappa",
               "kappa must lie within [1e-06, 1e+12] 1/(N·m), got -1"},
      BadScene{"subnormal_kappa.yaml", 16, "formulation.kappa",
               "kappa must lie within [1e-06, 1e+12] 1/(N·m), got 5e-324"},
      BadScene{"unknown_formulation_parameter.yaml", 16, "formulation.kapa",
               "unknown formulation parameter 'kapa'"},
      BadScene{"second_order_parameter.yaml", 6, "formulation.object_mass_scale",
               "stewart-trinkle takes no parameters"},
      // Shapes the geometry refuses, at the shape's line (geometry/scene_shapes.h).
      BadScene{"coplanar_convex.yaml", 13, "objects[0].body.shapes[0]",
               "convex vertices are coplanar (no volume)"},
      BadScene{"collinear_polygon.yaml", 13, "objects[0].body.shapes[0]", "geometry 'stick/"},
      // The halm-posa formulation (formulations/halm_posa/halm_posa_keys.h).
      BadScene{"halm_posa_negative_c.yaml", 25, "formulation.c",
               "c must be 0 or lie within [2.220446049250313e-16, 1e+09], got -0.01"},
      BadScene{"halm_posa_gains_not_positive.yaml", 25, "formulation.B",
               "B must be positive definite: entry 1 is 0"},
      BadScene{"halm_posa_gains_not_definite.yaml", 25, "formulation.B",
               "B must be positive definite (smallest eigenvalue -1)"},
      BadScene{"halm_posa_gains_wrong_size.yaml", 25, "formulation.B",
               "B has 3 diagonal entries; the scene has 2 actuated coordinates"},
      BadScene{"halm_posa_3d.yaml", 24, "formulation.type", "needs dimension: 2"},
      BadScene{"halm_posa_gravity.yaml", 3, "gravity", "set gravity: [0, 0, 0]"},
      BadScene{"limit_surface_not_definite.yaml", 12, "objects[0].limit_surface",
               "must be positive definite (smallest eigenvalue 0)"},
      BadScene{"limit_surface_3d.yaml", 12, "objects[0].limit_surface",
               "limit surfaces are for planar scenes"},
      // The ecp formulation (formulations/ecp/ecp_keys.h).
      BadScene{"ecp_negative_e_t.yaml", 6, "formulation.e_t",
               "e_t must lie within [1e-06, 1e+06], got -1"},
      BadScene{"ecp_capsule.yaml", 14, "objects[0].body.shapes[0].type",
               "capsules are not intersections of C² convex inequalities"},
      BadScene{"ecp_planar.yaml", 5, "formulation.type", "needs dimension: 3"},
      BadScene{"ecp_robot.yaml", 13, "robots[0].name",
               "robots are not part of the ecp formulation"},
      BadScene{"impulses_not_ecp.yaml", 12, "objects[0].impulses", "a key of the ecp formulation"},
      BadScene{"ecp_impulse_component.yaml", 13, "objects[0].impulses[0].when.omega",
               "unknown velocity component 'omega'"},
      BadScene{"ecp_subnormal_trigger_tolerance.yaml", 14, "objects[0].impulses[0].tolerance",
               "must be 0 or lie within [1e-12, 1000] m/s or rad/s, got 1e-320"},
  };
}

}  // namespace quasidyn::testing
