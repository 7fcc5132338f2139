#!/usr/bin/env bash
# The cleanup of the tests' temporary folders (cmake/QuasidynTests.cmake): fails naming every
# file or folder a test left in its TMPDIR, then removes them all.
#   tests/tmp/left_behind.sh ROOT
set -uo pipefail
root=$1
[[ -d $root ]] || exit 0
left=$(find "$root" -mindepth 2 | sort)
rm -rf "$root"
if [[ -n $left ]]; then
  echo "tests left $(wc -l <<<"$left") files in their temporary folders (each test must remove what it writes, also on failure):"
  sed "s|^$root/||" <<<"$left" | head -50
  exit 1
fi
echo "no file left in $root"
