#!/usr/bin/env bash
# The programs of bench/ and examples/ that take arguments share quasidyn's manner
# (examples/common/tool_options.h, docs/cli.md "Tools"): --help prints the usage and exits 0
# (and is never taken for an output folder), the usage lists --quiet, an unknown option exits 2,
# --quiet prints nothing on stdout, and plan_3d_bench refuses a limit that is not one.
#   tests/tools/manners.sh PROGRAM...   (run from a scratch folder)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -ge 1 ] || fail "usage: manners.sh PROGRAM..."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || fail "cannot enter $tmp"
for program in "$@"; do
  name=$(basename "$program")
  "$program" --help > help.txt 2>&1 || fail "$name --help exited $?: $(cat help.txt)"
  grep -qi "usage" help.txt || fail "$name --help prints no usage: $(cat help.txt)"
  grep -q -- "--quiet" help.txt || fail "$name has no --quiet: $(cat help.txt)"
  [ -e ./--help ] && fail "$name took --help for an output folder"
  "$program" --no-such-option > /dev/null 2> err.txt
  code=$?
  [ $code -eq 2 ] || fail "$name --no-such-option exited $code, not 2: $(cat err.txt)"
  [ -e ./--no-such-option ] && fail "$name took --no-such-option for an output folder"
done
# --quiet: nothing on stdout (a program that is quick to run).
for program in "$@"; do
  if [ "$(basename "$program")" = instruction_count_bench ]; then
    "$program" planar_gripper qp 1 --quiet > out.txt || fail "instruction_count_bench --quiet"
    [ -s out.txt ] && fail "instruction_count_bench --quiet printed: $(cat out.txt)"
    "$program" planar_gripper qp 1 > out.txt || fail "instruction_count_bench"
    [ -s out.txt ] || fail "instruction_count_bench printed nothing without --quiet"
  fi
done
# A limit that is not one is refused naming it (NaN compared false and ran with the scene's).
for program in "$@"; do
  if [ "$(basename "$program")" = plan_3d_bench ]; then
    for limit in "--time-limit nan" "--time-limit -1" "--max-nodes 0"; do
      # shellcheck disable=SC2086
      "$program" --seeds 1 $limit > out.txt 2> err.txt
      code=$?
      [ $code -eq 2 ] || fail "plan_3d_bench $limit exited $code, not 2: $(cat out.txt err.txt)"
      grep -q -- "${limit%% *} must be" err.txt || fail "plan_3d_bench $limit: $(cat err.txt)"
    done
  fi
done
echo "PASS"
