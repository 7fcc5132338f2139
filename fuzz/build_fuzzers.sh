#!/usr/bin/env bash
# Configures and builds the fuzz targets with clang 14 (QUASIDYN_FUZZ=ON) and writes the seed
# corpus; the fixture of the fuzz.* tests (fuzz/FuzzTests.cmake).
#   fuzz/build_fuzzers.sh CLANGXX SOURCE_DIR BUILD_DIR SEEDS_DIR
# Exits 77 (skipped) when clang++-14 or its libFuzzer runtime is missing.
set -euo pipefail
clang=$1 source=$2 build=$3 seeds=$4
if [[ -z $clang || ! -x $clang ]]; then
  echo "skipped: clang++-14 not found (scripts/setup.sh installs clang-14 and libclang-rt-14-dev)"
  exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' \
  >"$probe/probe.cc"
if ! "$clang" -fsanitize=fuzzer "$probe/probe.cc" -o "$probe/probe" 2>/dev/null; then
  echo "skipped: $clang cannot link -fsanitize=fuzzer (install libclang-rt-14-dev)"
  exit 77
fi
# -O1 with line tables only: symbolised reports at about two thirds of the compile time of
# RelWithDebInfo's -O2 -g (plan_fuzzer links the planning layer; the others stop at scenes).
cmake -S "$source" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$clang" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  -DQUASIDYN_FUZZ=ON -DQUASIDYN_BUILD_TESTS=OFF -DQUASIDYN_BUILD_BENCH=OFF >/dev/null
start=$SECONDS
cmake --build "$build" --target scene_loader_fuzzer step_fuzzer plan_fuzzer
echo "fuzz targets built in $((SECONDS - start)) s"
rm -rf "$seeds"
/usr/bin/python3 "$source/fuzz/make_seed_corpus.py" "$seeds"
