# The threaded tests under ThreadSanitizer (docs/development.md, "Thread sanitizer"): one program,
# threads_test, of the gtest files whose cases run the thread pool with more than one worker
# (common/parallel_for.h; batch steps, rollouts and linearisations; randomized smoothing; the
# planner's extension batches) and the test that shares one scene between 8 threads; each group
# of cases is one ctest test, tsan.<group>, labelled tsan. Only a QUASIDYN_SANITIZE_THREAD build
# (preset tsan, build/tsan; scripts/tsan.sh) has them: its build and run take longer than CI's
# budget leaves (docs/development.md), so the release build's suite does not run them.
# Two cases of ParallelFor are left out (the release suite runs them):
# AForkedChildRunsItemsOnTwoThreads, as ThreadSanitizer does not support starting threads in the
# child of a multi-threaded fork() (it ends the child, die_after_fork), and
# ByDefaultAParkedThreadSpinsAfterACallThenBlocks, which reads a spinning thread's state from /proc
# within microseconds of a call and found it asleep under the sanitizer's slowdown (1 run in 2).
set(QUASIDYN_TSAN_GROUPS
    "parallel_for=ParallelFor.*:-ParallelFor.AForkedChildRunsItemsOnTwoThreads:ParallelFor.ByDefaultAParkedThreadSpinsAfterACallThenBlocks"
    "batch_step=BatchStepper.*:BatchStepperInPlace.*"
    "randomized_smoothing=RandomizedSmoothing.EqualSeedsGiveIdenticalResultsOnAnyThreadCount:RandomizedSmoothing.SamplesEvaluatedInPartsGiveTheOneBatchEstimateBitwise"
    "rollout_batch=PlanarGripperRolloutTest.ABatch*:PlanarGripperRolloutTest.AWorkers*:PlanarHandWorkspaceTest.*:GripperWorkspaceTest.*"
    "extension_batch=RrtBatch.*:RrtThroughContact.SameSeedSameTreeAtAnyThreadCount:SelectGrasps.ConditioningTreesAreTheSameAtOneAndTwoThreads:Batches/CancelledMidSearch.*"
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
endif()
