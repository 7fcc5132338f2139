# What every test of the suite shares (docs/development.md, "Labels"):
#  * a label: `fast` (seconds each; every gtest case), `slow` (the figure programs, the pytest
#    suite, whole-CLI runs, installs), `browser` (headless Chromium), `fuzz` (the sanitised
#    libFuzzer runs), `tsan` (the threaded tests under ThreadSanitizer, tests/tsan/),
#    `reproductions` (the papers' cheap reproductions, docs/reproductions.md),
#    `reproductions_long` (the long ones, left out of the release test preset), `soak` (long
#    runs whose memory must stay flat, tests/soak/; left out of the release test preset too), so
#    `ctest --preset release -L fast` runs the quick part;
#  * a temporary folder of its own: TMPDIR=<build>/test-tmp/<test> (every gtest program of a
#    layer shares <build>/test-tmp/gtest), made fresh by the fixture test tmp.prepare; the
#    fixture's cleanup, tmp.left_behind, fails naming every file a test left there and removes
#    the folder, also after failures. Nothing of the suite goes to the system's /tmp.
set(QUASIDYN_TEST_TMP ${PROJECT_BINARY_DIR}/test-tmp)
set(QUASIDYN_GTEST_PROPERTIES LABELS fast ENVIRONMENT TMPDIR=${QUASIDYN_TEST_TMP}/gtest
                              FIXTURES_REQUIRED test_tmp)

# In the sanitizer build (QUASIDYN_SANITIZE, scripts/sanitize.sh): the tests that run the
# system python3, which is not instrumented, on the instrumented module (directly, or through
# `quasidyn sweep`) get the sanitizer runtimes preloaded, which the module needs first in the
# library list; leak checking is off for them, as it would cover the interpreter's own
# allocations. Nothing elsewhere.
function(quasidyn_preload_sanitizer_runtime)
  if(NOT QUASIDYN_SANITIZE)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libubsan.so
                  OUTPUT_VARIABLE ubsan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT
               "LD_PRELOAD=${asan_runtime}:${ubsan_runtime};ASAN_OPTIONS=detect_leaks=0")
endfunction()

# The label of a test that is not a gtest case, from its name.
function(quasidyn_test_label name out)
  if(name MATCHES "^fuzz\\.")
    set(label fuzz)
  elseif(name MATCHES "^reproductions_long\\.")
    set(label reproductions_long)
  elseif(name MATCHES "^soak\\.")
    set(label soak)
  elseif(name MATCHES "^reproductions\\.")
    set(label reproductions)
  elseif(name MATCHES "^tsan\\.")
    set(label tsan)
  elseif(name MATCHES "^browser\\.")
    set(label browser)
  elseif(name MATCHES "^figures\\." OR name MATCHES "^(cli\\.(simulate|compare|info|demo|mutation_campaign)|python\\.(pytest|distributed|pip_install)|install\\.consumer)$")
    set(label slow)
  else()
    set(label fast)
  endif()
  set(${out} ${label} PARENT_SCOPE)
endfunction()

# Labels, TMPDIR and the temporary-folder fixture for every test added so far in the calling
# directory (call it at the end of each CMakeLists.txt that adds tests).
function(quasidyn_finish_directory_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test ${tests})
    if(test MATCHES "^tmp\\.")
      continue()
    endif()
    quasidyn_test_label(${test} label)
    set_property(TEST ${test} APPEND PROPERTY LABELS ${label})
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT TMPDIR=${QUASIDYN_TEST_TMP}/${test})
    set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED test_tmp)
    set_property(GLOBAL APPEND PROPERTY QUASIDYN_TEST_TMP_FOLDERS ${test})
  endforeach()
endfunction()

# The fixture itself (top directory, after every other directory's tests).
function(quasidyn_add_test_tmp_fixture)
  get_property(folders GLOBAL PROPERTY QUASIDYN_TEST_TMP_FOLDERS)
  add_test(NAME tmp.prepare
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/tmp/prepare.sh ${QUASIDYN_TEST_TMP} gtest
                   ${folders})
  add_test(NAME tmp.left_behind
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/tmp/left_behind.sh ${QUASIDYN_TEST_TMP})
  set_tests_properties(tmp.prepare PROPERTIES FIXTURES_SETUP test_tmp LABELS fast)
  set_tests_properties(tmp.left_behind PROPERTIES FIXTURES_CLEANUP test_tmp LABELS fast)
endfunction()
