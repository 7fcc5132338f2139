#pragma once
// The planar pusher-and-box scene several tests write inline, header only: a box (1 kg, 0.2 ×
// 0.1 m, μ 0.4) free in the plane and a pusher (a 0.1 kg sphere of radius 0.02 m on a prismatic
// x joint, K = 100 N/m), no gravity, h = 0.1 s. 17 lines, so that a block appended to it starts
// at line 18.

#include <sstream>
#include <string>

namespace quasidyn::testing {

// `box_x` and `pusher_x` [m]: where the box's centre and the pusher's tip start along x.
inline std::string PusherBoxYaml(const std::string& name, double box_x, double pusher_x) {
  std::ostringstream box, pusher;  // 17 digits: the doubles as given
  box.precision(17);
  pusher.precision(17);
  box << "[" << box_x << ", 0.0, 0.0]";
  pusher << "[" << pusher_x << "]";
  return "name: " + name +
         "\n"
         "dimension: 2\n"
         "gravity: [0, 0, 0]\n"
         "time_step: 0.1\n"
         "objects:\n"
         "  - name: box\n"
         "    joint: planar\n"
         "    body: {mass: 1.0, inertia: from_shapes,\n"
         "           shapes: [{type: box, size: [0.2, 0.1, 0.1], friction: 0.4}]}\n"
         "    initial: " +
         box.str() +
         "\n"
         "robots:\n"
         "  - name: pusher\n"
         "    bodies: [{name: tip, mass: 0.1, inertia: from_shapes,\n"
         "              shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}]\n"
         "    joints: [{name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0]}]\n"
         "    stiffness: 100\n"
         "    initial: " +
         pusher.str() + "\n";
}

}  // namespace quasidyn::testing
