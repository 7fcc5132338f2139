#!/usr/bin/env bash
# package:// file names as a user meets them (docs/model-files.md, "Packages"): a scene whose
# URDF names package://qd_cli_parts/... fails naming every place searched, and loads with
# `--package NAME=DIR` (before or after the subcommand), with the scene's `packages:` or with
# ROS_PACKAGE_PATH; a bad --package is refused; a URDF's ignored elements are warnings at their
# lines, and a collision urdfdom would drop is an error at its line.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset ROS_PACKAGE_PATH

mkdir -p "$tmp/scene/models" "$tmp/vendor/parts-main"
cp tests/data/models/cube.obj "$tmp/vendor/parts-main/cube.obj"
cat > "$tmp/scene/models/block.urdf" <<'URDF'
<robot name="block">
  <link name="body">
    <inertial><mass value="0.5"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial>
    <visual><geometry><box size="0.1 0.1 0.1"/></geometry><material><color rgba="1 0 0 1"/></material></visual>
    <collision><geometry><mesh filename="package://qd_cli_parts/cube.obj"/></geometry></collision>
  </link>
</robot>
URDF
scene_text='name: p
dimension: 3
time_step: 0.01
objects:
  - {name: block, joint: floating, urdf: models/block.urdf, friction: 0.5,
     initial: [0, 0, 0.1, 1, 0, 0, 0]}'
printf '%s\n' "$scene_text" > "$tmp/scene/scene.yaml"

if "$qd" info "$tmp/scene/scene.yaml" > /dev/null 2> "$tmp/err.txt"; then
  fail "an unresolvable package was accepted"
fi
for part in "block.urdf:5: link 'body' <collision>: cannot resolve package://qd_cli_parts/cube.obj" \
            "the scene's \`packages:\`" "--package (none given)" "ROS_PACKAGE_PATH (unset)" \
            "a folder named 'qd_cli_parts'"; do
  grep -qF -- "$part" "$tmp/err.txt" || fail "error lacks '$part': $(cat "$tmp/err.txt")"
done

"$qd" info "$tmp/scene/scene.yaml" --package "qd_cli_parts=$tmp/vendor/parts-main" \
  > "$tmp/info.txt" 2> "$tmp/err.txt" || fail "--package after the subcommand: $(cat "$tmp/err.txt")"
grep -q "nq = 7" "$tmp/info.txt" || fail "info prints no nq = 7"
grep -q "quasidyn: info: warning: .*block.urdf:4: <material> without a name ignored" \
  "$tmp/err.txt" || fail "no material warning: $(cat "$tmp/err.txt")"
"$qd" --package "qd_cli_parts=$tmp/vendor/parts-main" info "$tmp/scene/scene.yaml" > /dev/null \
  2> /dev/null || fail "--package before the subcommand"
"$qd" simulate "$tmp/scene/scene.yaml" --steps 2 --quiet --out "$tmp/t.json" \
  --package "qd_cli_parts=$tmp/vendor/parts-main" 2> /dev/null || fail "simulate --package"
# ROS_PACKAGE_PATH: a package.xml naming it below an entry, then a folder named after it.
printf '<package format="3"><name>qd_cli_parts</name></package>\n' \
  > "$tmp/vendor/parts-main/package.xml"
ROS_PACKAGE_PATH="$tmp/none:$tmp/vendor" "$qd" info "$tmp/scene/scene.yaml" > /dev/null \
  2> "$tmp/err.txt" || fail "ROS_PACKAGE_PATH: $(cat "$tmp/err.txt")"
rm "$tmp/vendor/parts-main/package.xml"
mkdir -p "$tmp/vendor/qd_cli_parts" && mv "$tmp/vendor/parts-main/cube.obj" "$tmp/vendor/qd_cli_parts/"
ROS_PACKAGE_PATH="$tmp/vendor" "$qd" info "$tmp/scene/scene.yaml" > /dev/null 2> /dev/null ||
  fail "ROS_PACKAGE_PATH with a folder named after the package"
printf '%s\npackages:\n  qd_cli_parts: ../vendor/qd_cli_parts\n' "$scene_text" > "$tmp/scene/keyed.yaml"
"$qd" info "$tmp/scene/keyed.yaml" > /dev/null 2> /dev/null || fail "the scene's packages:"

if "$qd" info "$tmp/scene/scene.yaml" --package qd_cli_parts 2> "$tmp/err.txt"; then
  fail "--package without =DIR accepted"
fi
grep -q "expected NAME=DIR" "$tmp/err.txt" || fail "bad --package error: $(cat "$tmp/err.txt")"
if "$qd" info "$tmp/scene/scene.yaml" --package "qd_cli_parts=$tmp/nowhere" 2> "$tmp/err.txt"; then
  fail "--package with a missing folder accepted"
fi
grep -q "not found" "$tmp/err.txt" || fail "missing --package folder: $(cat "$tmp/err.txt")"

# A Drake-style collision urdfdom would drop (a cylinder without length) is an error at its line.
sed 's|<mesh filename="package://qd_cli_parts/cube.obj"/>|<cylinder radius="0.05"/>|' \
  "$tmp/scene/models/block.urdf" > "$tmp/scene/models/cylinder.urdf"
sed 's|models/block.urdf|models/cylinder.urdf|' "$tmp/scene/scene.yaml" > "$tmp/scene/cylinder.yaml"
if "$qd" info "$tmp/scene/cylinder.yaml" 2> "$tmp/err.txt"; then fail "cylinder without length"; fi
grep -q "cylinder.yaml:5: objects\[0\].urdf: .*cylinder.urdf:5: link 'body' <collision>: <cylinder> has no \`length\`" \
  "$tmp/err.txt" || fail "no file:line for the cylinder: $(cat "$tmp/err.txt")"
echo "cli packages: all checks passed"
