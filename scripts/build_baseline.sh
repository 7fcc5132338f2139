#!/usr/bin/env bash
# Builds the benchmarks of issue 38's baseline, the main the issue's table was measured on
# (96b4946, 2026-11-25), in a git worktree beside this checkout, so that
# scripts/baseline_rows.py can time the baseline and this build one after the other in the
# same minutes of the same host (docs/performance.md, "Against the issue's own baseline").
# The baseline predates bench/pick_place_bench.cc and StepCountForDuration: its copy of that
# bench gets a stand-in (⌈T/h⌉ with T/h an integer up to 1e-9 kept: 104 steps for arm_cubes).
# Usage: scripts/build_baseline.sh [DIR]   DIR defaults to ${TMPDIR:-/tmp}/quasidyn-baseline.
# Prints the baseline's build directory. Remove the worktree afterwards with
#   git worktree remove --force DIR
set -euo pipefail
cd "$(dirname "$0")/.."
revision=96b4946
dir=${1:-${TMPDIR:-/tmp}/quasidyn-baseline}
if [ ! -e "$dir/.git" ]; then
  git worktree add --force --detach "$dir" "$revision" >&2
fi
if [ "$(git -C "$dir" rev-parse --short=7 HEAD)" != "$revision" ]; then
  echo "build_baseline: $dir is not at $revision" >&2
  exit 1
fi
# The pick-and-place bench of this checkout, with a stand-in for the function it predates.
/usr/bin/env python3 - bench/pick_place_bench.cc "$dir/bench/pick_place_bench.cc" <<'EOF'
import sys
source = open(sys.argv[1]).read()
include = '#include "quasidyn/simulation/rollout.h"\n'
stand_in = include + """
#include <cmath>

namespace quasidyn {
// Stand-in for StepCountForDuration, which the baseline predates.
inline int StepCountForDuration(double duration, double time_step) {
  return static_cast<int>(std::ceil(duration / time_step - 1e-9));
}
}  // namespace quasidyn
"""
if include not in source:
    sys.exit("build_baseline: bench/pick_place_bench.cc no longer includes rollout.h")
open(sys.argv[2], "w").write(source.replace(include, stand_in, 1))
EOF
(cd "$dir" && cmake --preset release >/dev/null &&
  cmake --build build/release --target step_bench gradient_cost_bench pick_place_bench >&2)
echo "$dir/build/release"
