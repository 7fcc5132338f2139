"""A small system in the reference quasistatic simulator's files, shared by the tests that write
one (test_qsim_files.py, test_qsim_side_files.py): a pusher on a prismatic joint along y, welded
0.2 m behind the world origin by Drake model directives, and a free ball at the origin, no
gravity. write_push_system puts its files in a ROS package folder."""

from pathlib import Path
from typing import Optional

PUSHER = """<?xml version="1.0"?>
<sdf version="1.7">
  <model name="pusher">
    <link name="base"/>
    <link name="slider">
      <collision name="tip"><geometry><sphere><radius>0.05</radius></sphere></geometry>
        <surface><friction><ode><mu>0.5</mu></ode></friction></surface></collision>
    </link>
    <joint name="y" type="prismatic"><parent>base</parent><child>slider</child>
      <axis><xyz>0 1 0</xyz></axis></joint>
  </model>
</sdf>
"""

BALL = """<?xml version="1.0"?>
<sdf version="1.7">
  <model name="ball">
    <link name="ball">
      <inertial><mass>0.1</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry>{surface}</collision>
    </link>
  </model>
</sdf>
"""

DIRECTIVES = """directives:
- add_model:
    name: pusher
    file: package://{package}/pusher.sdf
- add_frame:
    name: pusher_offset
    X_PF:
      base_frame: world
      translation: [0, -0.2, 0]
      rotation: !Rpy {deg: [0, 0, 0]}
- add_weld:
    parent: pusher_offset
    child: pusher::base
"""

SYSTEM = """model_directive: package://{package}/pusher.yml
robots:
  - {name: pusher, Kp: [100]}
objects:
  - {name: ball, file: package://{package}/ball.sdf}
quasistatic_sim_params:
  gravity: [0, 0, 0]
  nd_per_contact: 4
  contact_detection_tolerance: 0.5
  is_quasi_dynamic: True
  unactuated_mass_scale: .NAN
"""


def write_push_system(folder: Path, package: str, ball_mu: Optional[float] = None,
                      system: Optional[Path] = None) -> None:
    """Writes package.xml naming `package`, pusher.sdf, ball.sdf (with <mu> ball_mu when given,
    else no friction of its own) and the directives pusher.yml into `folder`, and the system
    file into `system` when given (its folder made)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.xml").write_text(f"<package><name>{package}</name></package>\n")
    (folder / "pusher.sdf").write_text(PUSHER)
    surface = ("" if ball_mu is None else
               f"\n        <surface><friction><ode><mu>{ball_mu}</mu></ode></friction></surface>")
    (folder / "ball.sdf").write_text(BALL.replace("{surface}", surface))
    (folder / "pusher.yml").write_text(DIRECTIVES.replace("{package}", package))
    if system is not None:
        system.parent.mkdir(parents=True, exist_ok=True)
        system.write_text(SYSTEM.replace("{package}", package))
