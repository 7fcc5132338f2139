#!/usr/bin/env bash
# README command 2: install what is missing, build (the library, its tests and tools, and the
# sanitised fuzz targets), and run the whole test suite on every core (docs/development.md:
# labels for running a part, measured times).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
start=$SECONDS
scripts/build.sh release
# The fuzz targets' clang build (fuzz/FuzzTests.cmake): built here, where ccache keeps it, so
# that the test run's fuzz.build fixture only finds it up to date. Exit 77: no clang, skipped.
fuzz/build_fuzzers.sh "$(command -v clang++-14 || true)" "$PWD" build/release/fuzz-build \
  build/release/fuzz-seeds || [[ $? -eq 77 ]]
echo "test.sh: build $((SECONDS - start)) s"
start=$SECONDS
status=0
ctest --preset release -j "$(nproc)" || status=$?
echo "test.sh: tests $((SECONDS - start)) s"
exit "$status"
