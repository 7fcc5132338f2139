# The soak tests (docs/development.md, "Soak tests"): long runs in one process whose resident
# memory must stay flat after a warm-up (growth <= 1 %). Label `soak` (from the names `soak.*`,
# cmake/QuasidynTests.cmake), left out of the release test preset; `ctest --preset soak` runs them.
add_executable(soak_planar_hand_steps ${CMAKE_CURRENT_LIST_DIR}/planar_hand_steps.cc)
target_link_libraries(soak_planar_hand_steps PRIVATE quasidyn_core CLI11::CLI11)
add_test(NAME soak.planar_hand_steps
         COMMAND soak_planar_hand_steps examples/planar_hand/scene.yaml --steps 1000000
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(soak.planar_hand_steps PROPERTIES TIMEOUT 900)

if(TARGET _quasidyn)
  set(soak_python_environment
      "PYTHONDONTWRITEBYTECODE=1;PYTHONPATH=${PROJECT_BINARY_DIR}/python")
  add_test(NAME soak.plan_calls
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/plan_calls.py
                   examples/planar_hand/scene.yaml --plans 10000
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  add_test(NAME soak.distributed_rollouts
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/distributed_rollouts.py
                   examples/planar_hand/scene.yaml
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(soak.plan_calls soak.distributed_rollouts PROPERTIES
                       TIMEOUT 1800 ENVIRONMENT "${soak_python_environment}")
endif()
