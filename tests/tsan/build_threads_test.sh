#!/usr/bin/env bash
# The fixture of the tsan.* tests in a build without ThreadSanitizer (tests/tsan/TsanTests.cmake):
# brings threads_test of the ThreadSanitizer build BUILD_DIR up to date (nothing to do when
# scripts/test.sh or scripts/tsan.sh built it). Exit 77 (skipped) when BUILD_DIR was never
# configured.
set -euo pipefail
build=$1
if [[ ! -f $build/CMakeCache.txt ]]; then
  echo "no ThreadSanitizer build in $build (scripts/tsan.sh makes one): skipped"
  exit 77
fi
cmake --build "$build" -j 2 --target threads_test
