# Run by the build (cmake -P, from the ladder_python_extension target): the cpp-extension Python peer's
# modules. For each built-in integrand, `ladder export xsimd --python` writes the xsimd tier as a project of
# its own (DIR/INTEGRAND), exactly as a team would get it; one CMake project over all of them builds their
# pybind11 modules (not their tests) for the system Python, into DIR/build/modules, where
# scripts/peers/extension_peers.py imports them from (python-extension/build/modules under LADDER_PEER_MODULES,
# which `ladder run` sets to the build folder).
#   cmake -DLADDER=… -DDIR=… -DSOURCE_DIR=… -DPYTHON=/usr/bin/python3 [-DGENERATOR=Ninja] -P python_extension.cmake
file(GLOB headers "${SOURCE_DIR}/variants/builtin/*.hpp")
set(names)
foreach(header IN LISTS headers)
  file(READ "${header}" text)
  string(REGEX MATCH "name = \"([a-z0-9-]+)\"" found "${text}")
  if(found)
    list(APPEND names "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT names)
string(CONCAT project "# Written by cmake/python_extension.cmake: the modules of the exports beside it.\n"
            "cmake_minimum_required(VERSION 3.21)\nproject(ladder_python_extension LANGUAGES CXX)\n"
            "set(CMAKE_LIBRARY_OUTPUT_DIRECTORY \${CMAKE_BINARY_DIR}/modules)\n")
foreach(name IN LISTS names)
  string(REPLACE "-" "_" id "${name}")
  # An export written before manifests kept each file's SHA-256 cannot be told from a user's edits, so a new
  # export refuses to replace it; this one is the build's own, made afresh.
  if(EXISTS "${DIR}/${id}/.ladder-export.json")
    file(READ "${DIR}/${id}/.ladder-export.json" manifest)
    string(FIND "${manifest}" "\"sha256\"" hashed)
    if(hashed EQUAL -1)
      file(REMOVE_RECURSE "${DIR}/${id}")
    endif()
  endif()
  execute_process(COMMAND "${LADDER}" export xsimd --integrand "${name}" --namespace "ladder_xsimd_${id}" --python
                          --out "${DIR}/${id}"
                  RESULT_VARIABLE failed OUTPUT_QUIET)
  if(failed)
    message(FATAL_ERROR "ladder export xsimd --integrand ${name} --python failed (${failed})")
  endif()
  string(APPEND project "add_subdirectory(${id})\n")
endforeach()
file(WRITE "${DIR}/CMakeLists.txt" "${project}")
set(generator_option)
if(GENERATOR AND NOT EXISTS "${DIR}/build/CMakeCache.txt")
  set(generator_option -G "${GENERATOR}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${DIR}" -B "${DIR}/build" ${generator_option} -DCMAKE_BUILD_TYPE=Release
                        "-DPython_EXECUTABLE=${PYTHON}"
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "configuring the cpp-extension peer's modules in ${DIR} failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${DIR}/build" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "building the cpp-extension peer's modules in ${DIR}/build failed")
endif()
file(TOUCH "${DIR}/built.stamp")
