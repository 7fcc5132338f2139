#!/usr/bin/env bash
# The unit-test suite under a sanitizer (docs/development.md, "Address and undefined-behaviour
# sanitizers"):
#   scripts/sanitize.sh asan    # AddressSanitizer + LeakSanitizer + UBSan, ctest label `fast`
# Configures and builds the preset's tree (build/asan: every library, test program, the
# command line and the examples, instrumented at -O1; no benchmarks) with 2 jobs, then runs the
# test preset of the same name on 2 jobs (CMakePresets.json: its sanitizer options, and the
# LeakSanitizer suppressions of third-party code, fuzz/lsan.supp). Prints the seconds of the
# build and of the run; exits with ctest's status (a sanitizer report fails its test).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-}
case $preset in
  asan) ;;
  *)
    echo "usage: scripts/sanitize.sh asan" >&2
    exit 2
    ;;
esac
start=$SECONDS
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
echo "sanitize.sh $preset: build $((SECONDS - start)) s"
start=$SECONDS
status=0
ctest --preset "$preset" || status=$?
echo "sanitize.sh $preset: tests $((SECONDS - start)) s"
exit "$status"
