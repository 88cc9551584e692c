# One test binary, declared once:
#
#   ladder_add_test(TARGET SOURCES source... [LIBS library...] [DEFINES definition...] [DEPENDS target...]
#                   [INCLUDES directory...] [LINK_OPTIONS option...] [TIMEOUT seconds] [SERIAL]
#                   [PREFIX text] [NO_DISCOVERY] LABEL label [SPLIT label gtest-filter]...)
#
# The binary gets the project's warnings, the tests' own headers (tests/), GoogleTest's main and the tests'
# precompiled header (ladder_test_headers, tests/CMakeLists.txt); DEPENDS are
# built first (the `ladder` a test runs, say). Its tests are found by gtest_discover_tests, each with the
# tests' environment (LADDER_TEST_ENVIRONMENT), TIMEOUT and RUN_SERIAL where given, and one label, which says
# whether it is part of the fast loop (`ctest -L quick`) or why not:
#   quick     a unit test: no worker (a `ladder run` it refuses is fine), no Chromium, no build
#   run       it runs `ladder run` (or a calibration), so it starts workers and measures
#   browser   it opens a page in headless Chromium (tests/browser_check.py)
#   build     it configures or builds a CMake project
#   valgrind  it counts instructions or profiles under callgrind (`ladder instructions`, `ladder profile`)
#   fuzz      thousands of bad inputs through every command that reads them (tests/fuzz/, a few minutes)
#   aarch64   it cross-builds for aarch64 and runs what it built under qemu-user (tests/aarch64_tiers_test.sh)
#   slurm     it starts a real one-machine Slurm cluster and runs the cluster script through it
#             (tests/slurm_cluster_test.sh, an add_test of its own: root and slurm-wlm + munge, else a skip)
# LABEL is every test's label but those matched by a SPLIT's gtest filter ("Suite.*:Other.Test"), which get
# that SPLIT's label: the binary's tests are then discovered in parts, by TEST_FILTER, one part a label,
# and the LABEL part is whatever no SPLIT matches, so every test is in exactly one part. NO_DISCOVERY leaves
# the tests to add_test calls of the caller's own (the history check's, named at configure time for their
# fixture).
function(ladder_add_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SERIAL;NO_DISCOVERY" "TIMEOUT;PREFIX;LABEL"
                        "SOURCES;LIBS;DEFINES;DEPENDS;INCLUDES;LINK_OPTIONS;SPLIT")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ladder_add_test(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "ladder_add_test(${target}): SOURCES is required")
  endif()
  add_executable(${target} ${arg_SOURCES})
  target_compile_options(${target} PRIVATE ${LADDER_WARNINGS})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${arg_INCLUDES})
  target_link_libraries(${target} PRIVATE ${arg_LIBS} GTest::gtest_main)
  target_precompile_headers(${target} REUSE_FROM ladder_test_headers)  # tests/CMakeLists.txt
  foreach(source IN LISTS arg_SOURCES)  # a product file built into a test is compiled as the product's are
    cmake_path(ABSOLUTE_PATH source NORMALIZE)
    cmake_path(IS_PREFIX CMAKE_CURRENT_SOURCE_DIR "${source}" in_tests)
    if(NOT in_tests)
      set_source_files_properties(${source} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  if(arg_DEFINES)
    target_compile_definitions(${target} PRIVATE ${arg_DEFINES})
  endif()
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
  if(arg_LINK_OPTIONS)
    target_link_options(${target} PRIVATE ${arg_LINK_OPTIONS})
  endif()
  if(arg_NO_DISCOVERY)
    return()
  endif()
  if(NOT arg_LABEL)
    message(FATAL_ERROR "ladder_add_test(${target}): LABEL is required (quick, run, browser, build, valgrind)")
  endif()

  set(properties ENVIRONMENT ${LADDER_TEST_ENVIRONMENT})
  if(arg_TIMEOUT)
    list(APPEND properties TIMEOUT ${arg_TIMEOUT})
  endif()
  if(arg_SERIAL)
    list(APPEND properties RUN_SERIAL TRUE)
  endif()
  set(discovery DISCOVERY_TIMEOUT 60)
  if(DEFINED arg_PREFIX)
    list(APPEND discovery TEST_PREFIX "${arg_PREFIX}")
  endif()

  # The SPLIT parts, then the rest under LABEL.
  list(LENGTH arg_SPLIT count)
  math(EXPR odd "${count} % 2")
  if(odd)
    message(FATAL_ERROR "ladder_add_test(${target}): SPLIT takes a label and a gtest filter: ${arg_SPLIT}")
  endif()
  set(elsewhere "")
  while(arg_SPLIT)
    list(POP_FRONT arg_SPLIT label filter)
    gtest_discover_tests(${target} ${discovery} TEST_FILTER "${filter}"
                         PROPERTIES ${properties} LABELS ${label})
    string(APPEND elsewhere "${filter}:")
  endwhile()
  if(elsewhere)
    string(REGEX REPLACE ":$" "" elsewhere "${elsewhere}")
    gtest_discover_tests(${target} ${discovery} TEST_FILTER "*-${elsewhere}"
                         PROPERTIES ${properties} LABELS ${arg_LABEL})
  else()
    gtest_discover_tests(${target} ${discovery} PROPERTIES ${properties} LABELS ${arg_LABEL})
  endif()
endfunction()

# Labels for tests declared with add_test (scripts, and tests named at configure time): each of `tests`
# gets `label` (see above).
function(ladder_label label)
  foreach(test IN LISTS ARGN)
    set_tests_properties(${test} PROPERTIES LABELS ${label})
  endforeach()
endfunction()
