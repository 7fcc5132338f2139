#!/usr/bin/env bash
# Every C++ file of the project is formatted by clang-format with the checked-in .clang-format
# (exit 1 and the first differences otherwise). Run from the source folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cc' | \
                     while read -r f; do [[ -f "$f" ]] && echo "$f"; done)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! clang-format --dry-run --Werror "${files[@]}" 2> "$log"; then
  head -40 "$log"
  echo "clang-format: $(grep -c 'error:' "$log") place(s) differ; run"
  echo "  clang-format -i \$(git ls-files '*.h' '*.cc')"
  exit 1
fi
echo "clang-format: ${#files[@]} files formatted"
