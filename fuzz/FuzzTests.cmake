# The fuzz targets in the test suite (docs/fuzzing.md). The release build uses the system
# compiler; the fuzzers need clang 14 with libFuzzer, so a test fixture configures and builds
# them in a nested clang build (<build>/fuzz-build, only the three fuzz targets and the library),
# writes the seed corpus, and three tests run each target for QUASIDYN_FUZZ_SECONDS with a fixed
# seed. Without clang++-14 or its fuzzer runtime the tests are skipped (scripts/setup.sh
# installs both).
set(QUASIDYN_FUZZ_SECONDS 60 CACHE STRING "Seconds of each bounded fuzz run in the test suite")
find_program(QUASIDYN_FUZZ_CLANG clang++-14)
set(fuzz_build ${CMAKE_CURRENT_BINARY_DIR}/fuzz-build)
set(fuzz_seeds ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds)
add_test(NAME fuzz.build
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/build_fuzzers.sh
                 "${QUASIDYN_FUZZ_CLANG}" ${CMAKE_CURRENT_SOURCE_DIR} ${fuzz_build} ${fuzz_seeds})
# scripts/test.sh builds the targets before ctest runs, so this fixture finds them up to date;
# run alone, it is a cold build of the instrumented library (minutes on 2 cores).
set_tests_properties(fuzz.build PROPERTIES FIXTURES_SETUP fuzzers TIMEOUT 2400
                                           SKIP_RETURN_CODE 77)
foreach(target scene_loader step plan)
  add_test(NAME fuzz.${target}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzzer.sh
                   ${fuzz_build}/fuzz/${target}_fuzzer ${fuzz_seeds}
                   ${CMAKE_CURRENT_BINARY_DIR}/fuzz-runs/${target} ${QUASIDYN_FUZZ_SECONDS})
  math(EXPR fuzz_timeout "${QUASIDYN_FUZZ_SECONDS} * 3 + 120")
  set_tests_properties(fuzz.${target} PROPERTIES FIXTURES_REQUIRED fuzzers
                                                 TIMEOUT ${fuzz_timeout} SKIP_RETURN_CODE 77)
endforeach()
