#pragma once
// The reference quasistatic simulator's files of the tests (header only, docs/qsim-files.md): a
// two-link arm, a gripper, balls (one on ghost links), a ground box, Drake model directives and
// a system file, written into a scratch folder as the package my_models.

#include <filesystem>
#include <string>

#include "quasidyn/testing/scratch_files.h"

namespace quasidyn::testing::qsim {

// A two-link planar arm (revolute joints about x, as the simulator's planar hand), a free ball
// without <mu> (Drake's default μ = 1) and a ground box: the models of a small system.
inline constexpr const char* kArm = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="arm">
    <link name="base"/>
    <link name="upper">
      <inertial><mass>0.1</mass><inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="tip"><pose>0 0 0.1 0 0 0</pose>
        <geometry><sphere><radius>0.02</radius></sphere></geometry>
        <surface><friction><ode><mu>0.8</mu><mu2>0.8</mu2></ode></friction></surface>
      </collision>
    </link>
    <link name="lower">
      <pose relative_to="elbow"/>
      <inertial><mass>0.1</mass><inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="tip"><pose>0 0 0.1 0 0 0</pose>
        <geometry><sphere><radius>0.02</radius></sphere></geometry>
        <surface><friction><ode><mu>0.8</mu></ode></friction></surface>
      </collision>
    </link>
    <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child>
      <axis><xyz>1 0 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
    <joint name="elbow" type="revolute"><pose relative_to="upper">0 0 0.1 0 0 0</pose>
      <parent>upper</parent><child>lower</child>
      <axis><xyz>1 0 0</xyz><limit><lower>0.2</lower><upper>2</upper></limit></axis></joint>
  </model>
</sdf>
)";

inline constexpr const char* kBall = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="ball">
    <link name="ball">
      <inertial><mass>0.2</mass><inertia><ixx>2e-4</ixx><iyy>2e-4</iyy><izz>2e-4</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>
    </link>
  </model>
</sdf>
)";

inline constexpr const char* kGround = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="ground">
    <link name="ground">
      <collision name="c"><pose>0 0 -0.05 0 0 0</pose>
        <geometry><box><size>2 2 0.1</size></box></geometry>
        <surface><friction><ode><mu>0.5</mu></ode></friction></surface>
      </collision>
    </link>
  </model>
</sdf>
)";

// A ball that moves in the y-z plane through massless ghost links joined to the world in the
// file (prismatic y, prismatic z, revolute about x, zero effort: unactuated), as the
// simulator's sphere_yz files.
inline constexpr const char* kGhostBall = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="ball_yz">
    <link name="ghost_y"/>
    <link name="ghost_z"/>
    <link name="ball">
      <inertial><mass>0.2</mass><inertia><ixx>2e-4</ixx><iyy>2e-4</iyy><izz>2e-4</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>
    </link>
    <joint name="y_slider" type="prismatic"><parent>world</parent><child>ghost_y</child>
      <axis><xyz>0 1 0</xyz><limit><effort>0</effort></limit></axis></joint>
    <joint name="z_slider" type="prismatic"><parent>ghost_y</parent><child>ghost_z</child>
      <axis><xyz>0 0 1</xyz><limit><effort>0</effort></limit></axis></joint>
    <joint name="rotation" type="revolute"><parent>ghost_z</parent><child>ball</child>
      <axis><xyz>1 0 0</xyz><limit><effort>0</effort></limit></axis></joint>
  </model>
</sdf>
)";

inline constexpr const char* kGroundDirectives = R"(directives:
- add_model:
    name: ground
    file: package://my_models/ground.sdf
- add_weld:
    parent: world
    child: ground
)";

// The arm on a frame turned 90° about z and raised 0.3 m, the ground from a nested file.
inline constexpr const char* kDirectives = R"(directives:
- add_directives:
    file: package://my_models/ground.yml
- add_model:
    name: arm
    file: package://my_models/arm.sdf
- add_frame:
    name: arm_offset
    X_PF:
      base_frame: ground
      translation: [0, 0, 0.3]
      rotation: !Rpy {deg: [0, 0, 90]}
- add_weld:
    parent: arm_offset
    child: arm::base
)";

// A gripper: a palm and one finger sliding along y, with a tip sphere.
inline constexpr const char* kGripper = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="gripper">
    <link name="palm">
      <inertial><mass>0.1</mass><inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
    </link>
    <link name="finger">
      <inertial><mass>0.05</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="tip"><geometry><sphere><radius>0.01</radius></sphere></geometry></collision>
    </link>
    <joint name="slide" type="prismatic"><parent>palm</parent><child>finger</child>
      <axis><xyz>0 1 0</xyz><limit><lower>-0.05</lower><upper>0.05</upper></limit></axis></joint>
  </model>
</sdf>
)";

// The arm of arm.yml with the gripper welded to a frame 0.2 m along its last link, lower (as the
// simulator's iiwa_and_schunk.yml welds a Schunk gripper to a frame on iiwa_link_7).
inline constexpr const char* kArmWithGripperDirectives = R"(directives:
- add_directives:
    file: package://my_models/arm.yml
- add_model:
    name: gripper
    file: package://my_models/gripper.sdf
- add_frame:
    name: tool
    X_PF:
      base_frame: arm::lower
      translation: [0, 0, 0.2]
      rotation: !Rpy {deg: [0, 0, 90]}
- add_weld:
    parent: tool
    child: gripper::palm
)";

inline constexpr const char* kSystem = R"(model_directive: package://my_models/arm.yml
robots:
  - name: arm
    Kp: [50, 25]
objects:
  - name: ball_b
    file: package://my_models/ball.sdf
  - name: ball_a
    file: package://my_models/ball.sdf
quasistatic_sim_params:
  gravity: [0, 0, -10]
  nd_per_contact: 2
  contact_detection_tolerance: .inf
  is_quasi_dynamic: True
  unactuated_mass_scale: 5.
)";

// The models and directive files above in `folder` (package my_models: package.xml), and an
// empty q_sys/ for the system files.
inline void WriteModels(const ScratchDirectory& folder) {
  folder.Write("package.xml", "<package><name>my_models</name></package>\n");
  folder.Write("arm.sdf", kArm);
  folder.Write("ball.sdf", kBall);
  folder.Write("ball_yz.sdf", kGhostBall);
  folder.Write("ground.sdf", kGround);
  folder.Write("ground.yml", kGroundDirectives);
  folder.Write("arm.yml", kDirectives);
  folder.Write("gripper.sdf", kGripper);
  folder.Write("arm_with_gripper.yml", kArmWithGripperDirectives);
  std::filesystem::create_directory(folder / "q_sys");
}

}  // namespace quasidyn::testing::qsim
