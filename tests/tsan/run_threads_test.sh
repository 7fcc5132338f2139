#!/usr/bin/env bash
# One group of the threaded tests under ThreadSanitizer, from a build without it
# (tests/tsan/TsanTests.cmake): PROGRAM (the ThreadSanitizer build's threads_test) with the gtest
# filter FILTER. Exit 77 (skipped) when the program is absent.
set -euo pipefail
program=$1
filter=$2
if [[ ! -x $program ]]; then
  echo "no $program (scripts/tsan.sh builds it): skipped"
  exit 77
fi
exec "$program" --gtest_filter="$filter"
