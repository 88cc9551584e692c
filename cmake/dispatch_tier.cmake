# The dispatch tier (variants/dispatch.cpp, rung 16): one binary for every x86-64 CPU. Its kernel
# (variants/kernels/dispatch.hpp) is compiled once per architecture, each time in a path file of its own with
# that architecture's -march, and dispatch.cpp, compiled for the baseline whatever LADDER_ARCH is, calls the
# widest path the CPU has. Included from the root CMakeLists.txt before the ladder_tiers library is defined.
#
# A source file's COMPILE_OPTIONS come after its target's on the command line, and the last -march wins: each
# file below keeps its own -march in every build of the tiers, under the build's -march=${LADDER_ARCH} and the
# profiling build's -march=${LADDER_PROFILING_TARGET} alike (tests/dispatch_test.cpp reads the objects).
#
# The order is the link's, baseline first: where a path file defines a function that others define too (an
# inline function of a library's, kept out of line), the linker keeps the first copy it meets for every caller,
# so the SSE2 path's comes before any wider one (tests/dispatch_test.cpp checks each wider file's functions).
ladder_tier_wanted(variants/dispatch.cpp wanted)  # a worker-only build of other tiers: no paths either
if(NOT wanted)
  return()
endif()
# On aarch64 the tier is built without paths and refuses to run, saying why on its card (dispatch.cpp): its
# kernel is xsimd's, and xsimd 8.1 has NEON alone, so there is no second path to choose at run time.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  ladder_add_tier(variants/dispatch.cpp KERNEL variants/kernels/dispatch.hpp LIBRARIES xsimd)
  return()
endif()
set(LADDER_DISPATCH_PATHS
    variants/dispatch_sse2.cpp -march=x86-64
    variants/dispatch_avx2.cpp -march=x86-64-v3
    variants/dispatch_avx512.cpp -march=x86-64-v4)

# The card shows the caller's flag and each path's, "dispatch_avx2.cpp:-march=x86-64-v3", …
set(path_flags)
set(path_files)
set(paths ${LADDER_DISPATCH_PATHS})
while(paths)
  list(POP_FRONT paths file march)
  get_filename_component(name ${file} NAME)
  list(APPEND path_flags "${name}:${march}")
  list(APPEND path_files ${file})
  set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS ${march})
endwhile()
ladder_add_tier(variants/dispatch.cpp KERNEL variants/kernels/dispatch.hpp LIBRARIES xsimd FLAGS -march=x86-64 ${path_flags})
# ladder_add_tier gives dispatch.cpp every FLAGS word: it is compiled with the first alone.
set_source_files_properties(variants/dispatch.cpp PROPERTIES COMPILE_OPTIONS -march=x86-64)

# The path files join the tiers' sources, and so every build of them: ladder_tiers, the profiling build's
# ladder_tiers_x86_64_v3 (valgrind hides AVX-512: there the tier runs its AVX2 path), and the vectorization
# reader, which reads each path's object and gives dispatch.cpp the widest path's verdict
# (tools/vectorization.cpp). They are hashed with the tier's files into every run's source state.
list(APPEND LADDER_TIER_SOURCES ${path_files})
list(APPEND LADDER_TIER_DEPENDS ${path_files} variants/dispatch_path.hpp)
