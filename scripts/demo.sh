#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job on a shipped scene.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
build/release/quasidyn info examples/arm_cubes/scene.yaml
