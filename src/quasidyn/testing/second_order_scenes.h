#pragma once
// Inline scenes of the second-order time-stepping tests (stepping/second_order_*_test.cc),
// header only. Every scene puts its formulation block to `formulation` (stewart-trinkle or
// anitescu) and lays its objects on the ground (planar: y <= 0, gravity −y; 3D: z <= 0,
// gravity −z), g = 9.81 m/s².

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::testing {

inline std::string YamlList(const std::vector<double>& values) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  out << "]";
  return out.str();
}

inline std::string SceneHead(const std::string& name, bool planar, const std::string& formulation,
                             double h, double tolerance) {
  std::ostringstream out;
  out.precision(17);
  out << "name: " << name << "\ndimension: " << (planar ? 2 : 3) << "\ntime_step: " << h
      << "\ncontact_tolerance: " << tolerance << "\nformulation: {type: " << formulation << "}\n";
  return out.str();
}

struct BoxOnGround {
  bool planar = true;
  std::string formulation = "stewart-trinkle";
  double mass = 1.0;                   // [kg]
  double width = 0.1, height = 0.1;    // [m] along x and along the vertical
  double friction = 0.5;               // μ of the box and the ground
  double time_step = 0.01;             // h [s]
  double contact_tolerance = 0.01;     // ε [m]
  std::vector<double> velocity;        // v0 of the box (planar 3, 3D 6); empty: at rest
  std::vector<double> external_force;  // τ_ext (planar 3, 3D 6); empty: none
  double tilt = 0.0;                   // initial rotation about z (planar) or y (3D) [rad]
  double lift = 0.0;                   // initial gap to the ground [m]

  Scene Build() const {
    std::ostringstream yaml;
    yaml.precision(17);
    yaml << SceneHead("box_on_ground", planar, formulation, time_step, contact_tolerance);
    yaml << "environment:\n  - {name: ground, type: half_space, friction: " << friction << "}\n";
    yaml << "objects:\n  - name: box\n    joint: " << (planar ? "planar" : "floating") << "\n";
    yaml << "    body:\n      mass: " << mass << "\n      inertia: from_shapes\n";
    const double centre = 0.5 * height + lift;
    if (planar) {
      yaml << "      shapes: [{type: box, size: [" << width << ", " << height
           << ", 0.1], friction: " << friction << "}]\n";
      yaml << "    initial: " << YamlList({0.0, centre, tilt}) << "\n";
    } else {
      yaml << "      shapes: [{type: box, size: [" << width << ", " << width << ", " << height
           << "], friction: " << friction << "}]\n";
      yaml << "    initial: "
           << YamlList({0.0, 0.0, centre, std::cos(tilt / 2), 0.0, std::sin(tilt / 2), 0.0})
           << "\n";
    }
    if (!velocity.empty()) yaml << "    initial_velocity: " << YamlList(velocity) << "\n";
    if (!external_force.empty()) yaml << "    external_force: " << YamlList(external_force) << "\n";
    return LoadSceneFromString(yaml.str(), "box_on_ground", "");
  }
};

// A ball of radius r dropped from centre height z0 (planar: y) with vertical velocity w0.
struct DroppedBall {
  bool planar = false;
  std::string formulation = "stewart-trinkle";
  double radius = 0.05, mass = 0.5, height = 0.3, vertical_velocity = 0.0;
  double friction = 0.4, time_step = 0.01, contact_tolerance = 0.05;

  Scene Build() const {
    std::ostringstream yaml;
    yaml.precision(17);
    yaml << SceneHead("dropped_ball", planar, formulation, time_step, contact_tolerance);
    yaml << "environment:\n  - {name: ground, type: half_space, friction: " << friction << "}\n";
    yaml << "objects:\n  - name: ball\n    joint: " << (planar ? "planar" : "floating") << "\n";
    yaml << "    body:\n      mass: " << mass << "\n      inertia: from_shapes\n";
    yaml << "      shapes: [{type: sphere, radius: " << radius << ", friction: " << friction
         << "}]\n";
    if (planar) {
      yaml << "    initial: " << YamlList({0.0, height, 0.0}) << "\n";
      yaml << "    initial_velocity: " << YamlList({0.0, vertical_velocity, 0.0}) << "\n";
    } else {
      yaml << "    initial: " << YamlList({0.0, 0.0, height, 1, 0, 0, 0}) << "\n";
      yaml << "    initial_velocity: " << YamlList({0.0, 0.0, vertical_velocity, 0, 0, 0}) << "\n";
    }
    return LoadSceneFromString(yaml.str(), "dropped_ball", "");
  }
};

}  // namespace quasidyn::testing
