#!/usr/bin/env bash
# The threaded tests under ThreadSanitizer (docs/development.md, "Thread sanitizer"): configures
# the preset tsan (build/tsan), builds its one program, threads_test, and runs the tests labelled
# tsan (tests/tsan/TsanTests.cmake). Prints the build's and the run's seconds; exits with ctest's
# status (a race report fails its test).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
cmake --preset tsan >/dev/null
cmake --build --preset tsan
echo "tsan.sh: build $((SECONDS - start)) s"
start=$SECONDS
status=0
ctest --preset tsan || status=$?
echo "tsan.sh: tests $((SECONDS - start)) s"
exit "$status"
