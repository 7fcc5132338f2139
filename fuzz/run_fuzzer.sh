#!/usr/bin/env bash
# A bounded, reproducible run of one fuzz target (the test suite's fuzz.* tests):
#   fuzz/run_fuzzer.sh FUZZER SEEDS_DIR WORK_DIR SECONDS
# Runs FUZZER for SECONDS with seed 1 on a fresh corpus grown from SEEDS_DIR, crash artifacts in
# WORK_DIR/artifacts. Exits 77 (skipped) when FUZZER was not built (no clang++-14 / fuzzer
# runtime), libFuzzer's code on a finding (a crash, sanitizer report, leak, timeout or OOM).
# A hang is one execution above 120 s: the instrumented -O1 build runs the step about 100 times
# slower than the release build, and a scene of whole-arm contact made infeasible (a 1.06 m
# capsule on an arm link) takes 0.47 s in release for every formulation's steps and 43-53 s here
# (docs/fuzzing.md); 20 s, the limit until 2026-11-27, called that a hang.
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4
if [[ ! -x $fuzzer ]]; then
  echo "skipped: $fuzzer was not built (needs clang++-14 and libclang-rt-14-dev)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
status=0
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" "$fuzzer" -seed=1 -max_total_time="$seconds" -max_len=65536 -timeout=120 -rss_limit_mb=2048 \
  -dict="$here/scene.dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$work/corpus" "$seeds" >"$work/fuzz.log" 2>&1 || status=$?
# The run's figures (executions, corpus) and, on a finding, the report.
grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)|INITED|DONE" \
  "$work/fuzz.log" || true
if ((status != 0)); then
  tail -n 60 "$work/fuzz.log"
  ls "$work/artifacts" | sed 's/^/artifact: /'
fi
exit "$status"
