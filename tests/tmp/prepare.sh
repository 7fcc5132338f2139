#!/usr/bin/env bash
# The fixture of every test (cmake/QuasidynTests.cmake): a fresh temporary folder per test.
#   tests/tmp/prepare.sh ROOT NAME...   makes ROOT/NAME for every NAME, ROOT emptied first
set -euo pipefail
root=$1
shift
rm -rf "$root"
for name in "$@"; do mkdir -p "$root/$name"; done
