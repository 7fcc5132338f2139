#!/usr/bin/env bash
# Every C++ file of the project is formatted by clang-format with the checked-in .clang-format
# (exit 1 and the first differences otherwise). Run from the source folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cc' | \
                     while read -r f; do [[ -f "$f" ]] && echo "$f"; done)
if ! clang-format --dry-run --Werror "${files[@]}" 2> /tmp/quasidyn-format-$$.log; then
  head -40 /tmp/quasidyn-format-$$.log
  echo "clang-format: $(grep -c 'error:' /tmp/quasidyn-format-$$.log) place(s) differ; run"
  echo "  clang-format -i \$(git ls-files '*.h' '*.cc')"
  rm -f /tmp/quasidyn-format-$$.log
  exit 1
fi
rm -f /tmp/quasidyn-format-$$.log
echo "clang-format: ${#files[@]} files formatted"
