# The Cython peers (scripts/peers/cython_peers.py): the .pyx files of scripts/peers/cython/ compiled at build
# time by Debian's cython3 and the project's C++ compiler with the project's flags (LADDER_COMMON_FLAGS), for
# the system Python, into cython-peers/ beside the executable, under the folder `ladder run` names in
# LADDER_PEER_MODULES.
# scripts/peers/cython_build.py does the work and writes cython-peers/cython-peers.json: the flags, the seconds
# Cython and the compiler took, and each kernel's yellow count from `cython -a`. Without cython3 the peers say
# they are unavailable and name the package.
#   -DLADDER_CYTHON=OFF     leave them out
option(LADDER_CYTHON "Build the Cython Python peers' modules (cython3)" ON)
find_program(LADDER_CYTHON_COMPILER cython3)
if(LADDER_CYTHON AND LADDER_CYTHON_COMPILER AND LADDER_BUILD_PYTHON)
  set(cython_peers_dir ${CMAKE_CURRENT_BINARY_DIR}/cython-peers)
  set(cython_peers_scripts ${PROJECT_SOURCE_DIR}/scripts/peers/cython_build.py
                           ${PROJECT_SOURCE_DIR}/scripts/peers/cython_yellow.py)
  file(GLOB cython_peers_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/peers/cython/*.pyx)
  add_custom_command(
    OUTPUT ${cython_peers_dir}/cython-peers.json
    COMMAND ${LADDER_BUILD_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/peers/cython_build.py --out ${cython_peers_dir}
            --cython ${LADDER_CYTHON_COMPILER} --compiler ${CMAKE_CXX_COMPILER} --flags "${LADDER_COMMON_FLAGS}"
    DEPENDS ${cython_peers_sources} ${cython_peers_scripts}
    COMMENT "Compiling the Cython peers' modules with cython3 (the cython-untyped, cython and cython-parallel peers)"
    VERBATIM)
  add_custom_target(ladder_cython_peers ALL DEPENDS ${cython_peers_dir}/cython-peers.json)
elseif(LADDER_CYTHON)
  message(STATUS "No cython3 for the system Python: the Cython peers are not built (apt-get install cython3)")
endif()
