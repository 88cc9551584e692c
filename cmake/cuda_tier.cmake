# The cuda tier (variants/cuda.cu), built only where CMake finds a CUDA compiler: a machine without the
# toolkit builds everything else unchanged. Where it is built, the tier still reports itself unavailable
# at run time on a machine without a GPU (see `ladder list`). Included from the root CMakeLists.txt,
# before the ladder_tiers library is defined.
#
#   -DCMAKE_CUDA_COMPILER=/path/to/nvcc     where nvcc is not on the PATH (or set CUDACXX)
#   -DLADDER_CUDA_ARCHITECTURES="90;100"    the GPUs to build for (90: H100, H200)
#   -DLADDER_CUDA=OFF                       skip the tier even where the toolkit is installed
option(LADDER_CUDA "Build the cuda tier where the CUDA toolkit is found" ON)
set(LADDER_CUDA_ARCHITECTURES 90 CACHE STRING "GPU architectures for the cuda tier (CMAKE_CUDA_ARCHITECTURES)")
set(LADDER_CUDA_TIER OFF)
# Why the build has no cuda tier, for the test that reports it as skipped (tests/cuda_build_test.cpp).
set(LADDER_CUDA_MISSING_REASON "")
if(NOT LADDER_CUDA)
  set(LADDER_CUDA_MISSING_REASON "configured with -DLADDER_CUDA=OFF")
  return()
endif()
# nvcc compiles the host half with the project's C++ compiler (below), and the tier is built and checked with
# GCC only: each CUDA release accepts its own short list of host Clang versions, and a Clang build is there for
# what Clang makes of the CPU tiers. So under any other compiler the tier is left out, saying why.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  string(CONCAT LADDER_CUDA_MISSING_REASON "the cuda tier is built with GCC as nvcc's host compiler only, and this "
                                          "build's C++ compiler is ${CMAKE_CXX_COMPILER_ID} "
                                          "${CMAKE_CXX_COMPILER_VERSION} (configure with g++ for it)")
  message(STATUS "Skipping the cuda tier: ${LADDER_CUDA_MISSING_REASON}")
  return()
endif()

# NVIDIA's installer leaves nvcc in /usr/local/cuda/bin, off the PATH: look there too.
find_program(LADDER_NVCC nvcc PATHS /usr/local/cuda/bin)
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND LADDER_NVCC)
  set(CMAKE_CUDA_COMPILER ${LADDER_NVCC} CACHE FILEPATH "CUDA compiler")
endif()
# The host half of cuda.cu is compiled by the same compiler as every other tier.
set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER} CACHE FILEPATH "Host compiler for nvcc")
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "No CUDA compiler found: the cuda tier is not built")
  string(CONCAT LADDER_CUDA_MISSING_REASON "no working CUDA compiler found when configuring (install the CUDA "
                                          "toolkit, or set CMAKE_CUDA_COMPILER or CUDACXX to an nvcc that works "
                                          "with this host compiler)")
  return()
endif()

set(CMAKE_CUDA_ARCHITECTURES ${LADDER_CUDA_ARCHITECTURES})
enable_language(CUDA)
# C++20 like every tier. CMake 3.25 does not know nvcc's flag for it: tell it.
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION -std=c++20)
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION -std=c++20)
endif()
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
find_package(CUDAToolkit REQUIRED)
set(LADDER_CUDA_TIER ON)

ladder_add_tier(variants/cuda.cu KERNEL variants/kernels/cuda.cuh)
# The project's warnings as errors, for nvcc's own diagnostics and for the host compiler's.
set_source_files_properties(variants/cuda.cu PROPERTIES COMPILE_OPTIONS
                            "--Werror=all-warnings;-Xcompiler=-Wall,-Wextra,-Werror")
# The static runtime, so the binaries need no libcudart.so at run time (only the driver's libcuda.so).
# ladder_tiers is defined after this file is read: link it when the directory is done.
cmake_language(DEFER CALL target_link_libraries ladder_tiers PRIVATE CUDA::cudart_static)
