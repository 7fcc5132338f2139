#!/usr/bin/env bash
# The reference quasistatic simulator's files on the command line (docs/qsim-files.md): a system
# file and its directive file, written here, run through info and simulate; `convert` writes the
# equivalent scene, which simulates to the same trajectory; its refusals name the problem.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset ROS_PACKAGE_PATH

mkdir -p "$tmp/models/q_sys" "$tmp/out"
echo '<package><name>qd_cli_qsim</name></package>' > "$tmp/models/package.xml"
cat > "$tmp/models/pusher.sdf" <<'SDF'
<?xml version="1.0"?>
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
SDF
cat > "$tmp/models/ball.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <model name="ball">
    <link name="ball">
      <inertial><mass>0.1</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>
    </link>
  </model>
</sdf>
SDF
cat > "$tmp/models/pusher.yml" <<'YAML'
directives:
- add_model:
    name: pusher
    file: package://qd_cli_qsim/pusher.sdf
- add_frame:
    name: pusher_offset
    X_PF:
      base_frame: world
      translation: [0, -0.2, 0.1]
      rotation: !Rpy {deg: [0, 0, 0]}
- add_weld:
    parent: pusher_offset
    child: pusher::base
YAML
cat > "$tmp/models/q_sys/push.yml" <<'YAML'
model_directive: package://qd_cli_qsim/pusher.yml
robots:
  - {name: pusher, Kp: [100]}
objects:
  - {name: ball, file: package://qd_cli_qsim/ball.sdf}
quasistatic_sim_params:
  gravity: [0, 0, 0]
  nd_per_contact: 4
  contact_detection_tolerance: 0.5
  is_quasi_dynamic: True
  unactuated_mass_scale: .NAN
YAML
system=$tmp/models/q_sys/push.yml

"$qd" info "$system" > "$tmp/info.txt" 2> "$tmp/err.txt" || fail "info: $(cat "$tmp/err.txt")"
grep -q "h = 0.1 s" "$tmp/info.txt" || fail "info lacks the default h: $(cat "$tmp/info.txt")"
grep -q "pusher/y" "$tmp/info.txt" || fail "info lacks the robot's joint: $(cat "$tmp/info.txt")"
"$qd" convert "$system" --out "$tmp/out/push.yaml" --quiet || fail "convert"
grep -q "sdf: \"../models/ball.sdf\"" "$tmp/out/push.yaml" \
  || fail "model files are not relative to the output: $(cat "$tmp/out/push.yaml")"
for file in "$system" "$tmp/out/push.yaml"; do
  "$qd" simulate "$file" --steps 5 --h 0.05 --quiet --out "$file.json" > /dev/null \
    || fail "simulate $file"
done
python3 - "$system.json" "$tmp/out/push.yaml.json" <<'PY' || fail "the converted scene steps differently"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert len(a["steps"]) == 5 and [s["q"] for s in a["steps"]] == [s["q"] for s in b["steps"]]
PY

expect_refused() {  # $1 = text stderr must contain, then the arguments
  local text=$1; shift
  "$qd" "$@" > /dev/null 2> "$tmp/err.txt"
  local code=$?
  [ $code -eq 2 ] || fail "'$*' exited $code, not 2: $(cat "$tmp/err.txt")"
  grep -qF -- "$text" "$tmp/err.txt" || fail "'$*': message lacks '$text': $(cat "$tmp/err.txt")"
}
expect_refused "--out '$tmp/out/push.txt': unknown extension '.txt'" \
  convert "$system" --out "$tmp/out/push.txt"
expect_refused "neither \`model_directive:\` nor \`directives:\`" \
  convert "$tmp/out/push.yaml" --out "$tmp/out/again.yaml"
expect_refused "--out is required" convert "$system"
sed 's/Kp: \[100\]/Kp: [100, 5]/' "$system" > "$tmp/models/q_sys/bad.yml"
expect_refused "bad.yml:3: robots[0].Kp" info "$tmp/models/q_sys/bad.yml"
exit 0
