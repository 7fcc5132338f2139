# The threaded tests under ThreadSanitizer (docs/development.md, "Thread sanitizer"): one program,
# threads_test, of the gtest files whose cases run the thread pool with more than one worker
# (common/parallel_for.h; batch steps, rollouts and linearisations; randomized smoothing; the
# planner's extension batches) and the test that shares one scene between 8 threads; each group
# of cases is one ctest test, tsan.<group>, labelled tsan.
#
# In a QUASIDYN_SANITIZE_THREAD build (preset tsan, build/tsan) the program is built here and the
# tests run it. In any other build the same tests run the program of QUASIDYN_TSAN_BUILD (after
# building it there, a no-op when it is up to date), skipped (exit 77) when that build was never
# configured (scripts/tsan.sh configures it).
set(QUASIDYN_TSAN_GROUPS
    "parallel_for=ParallelFor.*"
    "batch_step=BatchStepper.*:BatchStepperInPlace.*"
    "randomized_smoothing=RandomizedSmoothing.EqualSeedsGiveIdenticalResultsOnAnyThreadCount:RandomizedSmoothing.SamplesEvaluatedInPartsGiveTheOneBatchEstimateBitwise"
    "rollout_batch=PlanarGripperRolloutTest.ABatch*:PlanarGripperRolloutTest.AWorkers*:PlanarHandWorkspaceTest.*:GripperWorkspaceTest.*"
    "extension_batch=RrtBatch.*:RrtThroughContact.SameSeedSameTreeAtAnyThreadCount:SelectGrasps.ConditioningTreesAreTheSameAtOneAndTwoThreads:CancelledMidSearch.*"
    "shared_scene=SharedSceneThreads.*")
# TSAN_OPTIONS of every run: stop at the first report (the test fails), both stacks of a lock
# order inversion, and the third-party suppressions (tests/tsan/suppressions.txt; none of ours).
set(QUASIDYN_TSAN_OPTIONS
    "halt_on_error=1 second_deadlock_stack=1 suppressions=${CMAKE_CURRENT_SOURCE_DIR}/tests/tsan/suppressions.txt")

if(QUASIDYN_SANITIZE_THREAD)
  set(threads_test_sources
    src/quasidyn/common/parallel_for_test.cc
    src/quasidyn/stepping/batch_step_test.cc
    src/quasidyn/stepping/batch_step_in_place_test.cc
    src/quasidyn/stepping/randomized_smoothing_test.cc
    src/quasidyn/simulation/rollout_test.cc
    src/quasidyn/simulation/rollout_workspace_test.cc
    src/quasidyn/planning/extension_batch_test.cc
    src/quasidyn/planning/rrt_test.cc
    src/quasidyn/planning/grasp_conditioning_test.cc
    src/quasidyn/planning/plan_cancellation_test.cc
    src/quasidyn/planning/shared_scene_threads_test.cc)
  list(TRANSFORM threads_test_sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  quasidyn_unity_sources(threads_test_sources threads_test ${QUASIDYN_UNITY_TEST_BATCH}
                         ${threads_test_sources})
  add_executable(threads_test ${threads_test_sources})
  target_link_libraries(threads_test PRIVATE quasidyn_planning quasidyn_scenes quasidyn_testing
                                             quasidyn_source_dir GTest::gtest GTest::gtest_main)
  foreach(group ${QUASIDYN_TSAN_GROUPS})
    string(REGEX REPLACE "=.*" "" name "${group}")
    string(REGEX REPLACE "^[^=]*=" "" filter "${group}")
    add_test(NAME tsan.${name} COMMAND threads_test --gtest_filter=${filter}
             WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    set_tests_properties(tsan.${name} PROPERTIES TIMEOUT 1200
                         ENVIRONMENT "TSAN_OPTIONS=${QUASIDYN_TSAN_OPTIONS}")
  endforeach()
elseif(NOT QUASIDYN_SANITIZE)
  set(QUASIDYN_TSAN_BUILD ${CMAKE_CURRENT_SOURCE_DIR}/build/tsan CACHE PATH
      "The ThreadSanitizer build whose threads_test the tsan.* tests run (preset tsan)")
  add_test(NAME tsan.build
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/tsan/build_threads_test.sh
                   ${QUASIDYN_TSAN_BUILD})
  set_tests_properties(tsan.build PROPERTIES FIXTURES_SETUP tsan_build TIMEOUT 2400
                                             SKIP_RETURN_CODE 77)
  foreach(group ${QUASIDYN_TSAN_GROUPS})
    string(REGEX REPLACE "=.*" "" name "${group}")
    string(REGEX REPLACE "^[^=]*=" "" filter "${group}")
    add_test(NAME tsan.${name}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/tsan/run_threads_test.sh
                     ${QUASIDYN_TSAN_BUILD}/threads_test ${filter}
             WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    set_tests_properties(tsan.${name} PROPERTIES FIXTURES_REQUIRED tsan_build TIMEOUT 1200
                         SKIP_RETURN_CODE 77 ENVIRONMENT "TSAN_OPTIONS=${QUASIDYN_TSAN_OPTIONS}")
  endforeach()
endif()
