# What `cmake --install <build> [--prefix <dir>]` puts in the prefix:
#   bin/quasidyn                                   the command line
#   include/quasidyn/<layer>/*.h                   the public headers (cmake/PublicHeaders.cmake,
#                                                  docs/api.md) and the headers they include
#   lib/libquasidyn_<layer>.a                      one static library per layer
#   lib/cmake/quasidyn/quasidynConfig.cmake        the CMake package (+ ConfigVersion, Targets)
#   lib/python3.X/dist-packages/quasidyn/          the Python module (python/CMakeLists.txt)
# A consumer writes find_package(quasidyn 0.1 REQUIRED) and links quasidyn::quasidyn (every
# layer) or one layer, quasidyn::<layer> (quasidyn::io, quasidyn::stepping, ...).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(QUASIDYN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/quasidyn)

set_target_properties(quasidyn_core PROPERTIES EXPORT_NAME quasidyn)
foreach(layer_target ${QUASIDYN_LAYER_TARGETS})
  string(REGEX REPLACE "^quasidyn_" "" layer ${layer_target})
  set_target_properties(${layer_target} PROPERTIES EXPORT_NAME ${layer})
endforeach()
# The public headers and what they include; internals stay in the source tree.
include(${CMAKE_CURRENT_LIST_DIR}/PublicHeaders.cmake)
quasidyn_header_closure("${QUASIDYN_PUBLIC_HEADERS}" QUASIDYN_INSTALLED_HEADERS)
list(LENGTH QUASIDYN_INSTALLED_HEADERS installed_header_count)
message(STATUS "quasidyn: ${installed_header_count} headers installed (cmake/PublicHeaders.cmake)")
foreach(header ${QUASIDYN_INSTALLED_HEADERS})
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/src/${header}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${folder} COMPONENT development)
endforeach()
install(TARGETS ${QUASIDYN_LAYER_TARGETS} quasidyn_core EXPORT quasidynTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(TARGETS quasidyn RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(EXPORT quasidynTargets NAMESPACE quasidyn:: DESTINATION ${QUASIDYN_INSTALL_CMAKEDIR}
        COMPONENT development)

configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/quasidynConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/quasidynConfig.cmake
                              INSTALL_DESTINATION ${QUASIDYN_INSTALL_CMAKEDIR})
# 0.x releases break their interface between minor versions (CHANGELOG.md, README "Versions").
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/quasidynConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/quasidynConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/quasidynConfigVersion.cmake
        DESTINATION ${QUASIDYN_INSTALL_CMAKEDIR} COMPONENT development)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/quasidyn
        COMPONENT runtime)

if(QUASIDYN_BUILD_TESTS)
  # A project outside this tree (tests/consumer) finds the installed package, builds against
  # it and steps a scene: install to a scratch prefix, configure, build, run.
  add_test(NAME install.consumer
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/consumer/run.sh ${CMAKE_CURRENT_BINARY_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/consumer_test
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(install.consumer PROPERTIES TIMEOUT 300)
endif()

if(QUASIDYN_BUILD_TESTS AND TARGET _quasidyn)
  # `pip install .` into a fresh venv, reusing this build (tests/pip/run.sh), and the type
  # stubs of the compiled module equal to what its signatures generate.
  add_test(NAME python.pip_install
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pip/run.sh ${CMAKE_CURRENT_BINARY_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/pip_test
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(python.pip_install PROPERTIES TIMEOUT 300 RESOURCE_LOCK source_tree_build)
  add_test(NAME python.stubs
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/generate_python_stubs.py
                   --check ${CMAKE_CURRENT_SOURCE_DIR}/python/quasidyn/_quasidyn.pyi
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(python.stubs PROPERTIES ENVIRONMENT
                       "PYTHONDONTWRITEBYTECODE=1;PYTHONPATH=${CMAKE_CURRENT_BINARY_DIR}/python")
  quasidyn_preload_sanitizer_runtime(python.stubs)
endif()
