# The pythran and pythran-omp Python peers (scripts/peers/pythran_peers.py): their sources,
# scripts/peers/pythran/*.py, compiled by Pythran into modules for the system Python, at build time, as the
# cpp-extension peer's are. The flags are the project's: -O3 and the build's -march target; -fopenmp is
# Pythran's own, for pythran-omp only (without it Pythran reads an #omp comment as a comment).
# The seconds each compile took and its flags go to DIR/build.json: the compile time is recorded apart from
# the run time, and the peer's card names the flags. Only where Debian's Pythran is installed
# (python3-pythran); without it the peers say they are unavailable, and why.
#
# This file has two parts: CMakeLists.txt includes it (the target), and the build runs it as a script:
#   cmake -DDIR=… -DSOURCE_DIR=… -DPYTHON=/usr/bin/python3 -DARCH=native -P pythran_peers.cmake
#   -DLADDER_PYTHRAN_PEERS=OFF     leave them out
if(NOT CMAKE_SCRIPT_MODE_FILE)
  option(LADDER_PYTHRAN_PEERS "Build the pythran Python peers' modules (python3-pythran)" ON)
  find_program(LADDER_PYTHRAN_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)  # the Python Debian's Pythran is for
  if(LADDER_PYTHRAN_PYTHON)
    execute_process(COMMAND ${LADDER_PYTHRAN_PYTHON} -c "import pythran" RESULT_VARIABLE no_pythran
                    OUTPUT_QUIET ERROR_QUIET)
  endif()
  if(LADDER_PYTHRAN_PEERS AND LADDER_PYTHRAN_PYTHON AND NOT no_pythran)
    set(pythran_dir ${CMAKE_CURRENT_BINARY_DIR}/pythran-peers)
    set(pythran_sources ${PROJECT_SOURCE_DIR}/scripts/peers/pythran/ladder_pythran.py
                        ${PROJECT_SOURCE_DIR}/scripts/peers/pythran/ladder_pythran_omp.py)
    add_custom_command(
      OUTPUT ${pythran_dir}/build.json
      COMMAND ${CMAKE_COMMAND} -DDIR=${pythran_dir} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
              -DPYTHON=${LADDER_PYTHRAN_PYTHON} -DARCH=${LADDER_ARCH} -P ${PROJECT_SOURCE_DIR}/cmake/pythran_peers.cmake
      DEPENDS ${pythran_sources} ${PROJECT_SOURCE_DIR}/cmake/pythran_peers.cmake
      COMMENT "Compiling the pythran peers' modules with Pythran"
      VERBATIM)
    add_custom_target(ladder_pythran_peers ALL DEPENDS ${pythran_dir}/build.json)
  elseif(LADDER_PYTHRAN_PEERS)
    message(STATUS "No Pythran for the system Python (python3-pythran): the pythran peers are not built")
  endif()
  return()
endif()

# Microseconds since the epoch, as an integer CMake's math() can subtract.
function(now_microseconds out)
  string(TIMESTAMP seconds "%s")
  string(TIMESTAMP fraction "%f")
  math(EXPR value "${seconds} * 1000000 + ${fraction}")
  set(${out} ${value} PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${DIR}")
set(record "{")
set(separator "")
foreach(module ladder_pythran ladder_pythran_omp)
  set(flags -O3 -march=${ARCH} -DNDEBUG)
  set(own_flags)
  if(module STREQUAL "ladder_pythran_omp")
    set(own_flags -fopenmp)
  endif()
  now_microseconds(start)
  execute_process(COMMAND "${PYTHON}" -m pythran.run ${flags} ${own_flags}
                          "${SOURCE_DIR}/scripts/peers/pythran/${module}.py" -o "${DIR}/${module}.so"
                  RESULT_VARIABLE failed OUTPUT_VARIABLE output ERROR_VARIABLE output)
  now_microseconds(end)
  if(failed)
    message(FATAL_ERROR "pythran ${flags} ${own_flags} ${module}.py failed (${failed}):\n${output}")
  endif()
  math(EXPR milliseconds "(${end} - ${start}) / 1000")
  math(EXPR whole "${milliseconds} / 1000")
  math(EXPR thousandths "${milliseconds} % 1000 + 1000")  # 1042: the digits after the point are "042"
  string(SUBSTRING "${thousandths}" 1 3 thousandths)
  list(TRANSFORM flags REPLACE "(.+)" "\"\\1\"" OUTPUT_VARIABLE quoted)
  list(JOIN quoted ", " quoted)
  string(APPEND record "${separator}\n \"${module}\": {\"flags\": [${quoted}], "
                       "\"compile_seconds\": ${whole}.${thousandths}}")
  set(separator ",")
endforeach()
file(WRITE "${DIR}/build.json" "${record}\n}\n")
