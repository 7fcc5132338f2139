# The papers' reproductions (issue 67; docs/reproductions.md, repro/, scripts/reproductions.py):
#  * reproductions.page: the page is the rendering of repro/papers/ with repro/values/ (no run);
#  * reproductions.<source>, one per cheap source (seconds): runs it and compares its values with
#    the recorded ones within their tolerances, so a change that moves a paper's number fails
#    until the page is regenerated;
#  * reproductions_long.<source>, one per long source (minutes): the label reproductions_long,
#    which the release test preset leaves out; `ctest --preset reproductions-long` runs them.
# The labels come from the names (cmake/QuasidynTests.cmake).
set(QUASIDYN_REPRODUCTIONS ${CMAKE_CURRENT_SOURCE_DIR}/scripts/reproductions.py)
file(GLOB QUASIDYN_REPRODUCTION_MODULES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/repro/*.py
     ${CMAKE_CURRENT_SOURCE_DIR}/repro/papers/*.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${QUASIDYN_REPRODUCTION_MODULES})
add_test(NAME reproductions.page COMMAND /usr/bin/python3 ${QUASIDYN_REPRODUCTIONS} page --check)
add_test(NAME reproductions.framework_test
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/reproductions/framework_test.py)
add_test(NAME reproductions.check_test
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/reproductions/check_test.py
                 $<TARGET_FILE_DIR:gripper_figures>)
foreach(cost cheap long)
  execute_process(COMMAND /usr/bin/python3 ${QUASIDYN_REPRODUCTIONS} list --cost ${cost}
                  OUTPUT_VARIABLE sources RESULT_VARIABLE listed OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT listed EQUAL 0)
    message(FATAL_ERROR "scripts/reproductions.py list --cost ${cost} failed: the repro/ modules")
  endif()
  string(REPLACE "\n" ";" sources "${sources}")
  if(cost STREQUAL "cheap")
    set(prefix reproductions)
    set(timeout 120)
  else()
    set(prefix reproductions_long)
    set(timeout 7200)
  endif()
  foreach(source IN LISTS sources)
    add_test(NAME ${prefix}.${source}
             COMMAND /usr/bin/python3 ${QUASIDYN_REPRODUCTIONS} check --source ${source}
                     --build ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(${prefix}.${source} PROPERTIES TIMEOUT ${timeout})
  endforeach()
endforeach()
