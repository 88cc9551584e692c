# The tiers' libraries, each declared once, in one ladder_add_library row: what a tier card's library is
# called, its Debian 12 packages, the CMake lines that find it, the target to link and the C++ namespaces it
# takes. Read by three readers, so that they cannot disagree:
#   - this build: the row's FIND runs here (@NS@ is "ladder") and makes the target a tier links with
#     `ladder_add_tier(… LIBRARIES NAME)`; its include directories are the user integrands' probes' too;
#   - `ladder export`: the rows become generated/include/ladder_libraries.inc, export/libraries.hpp's table
#     (@NS@ is the exported project's namespace; the exported CMakeLists.txt gets FIND and LINK);
#   - scripts/install-deps.sh, which runs before CMake exists: it reads the PACKAGES lines of this file as text,
#     so each row keeps PACKAGES on a line of its own (tests/libraries_check.py holds both readers to the rows).
#
#   ladder_add_library(NAME CARD "words" PACKAGES debian-package… [PACKAGE_TEXT "words"]
#                      FIND [=[cmake]=] LINK target [BUILD [=[cmake]=] BUILD_LINK target]
#                      [NAMESPACES name…] [FOUND_BY_ITS_TIER])
# CARD: how a tier card's libraries entry begins ("xsimd" for "xsimd 8.1"). PACKAGE_TEXT: the exported README's
# words for the packages, where they are not the PACKAGES themselves. BUILD: more CMake for this build alone,
# and BUILD_LINK the target it makes for the tiers, where this build links the library otherwise than an
# exported project does. FOUND_BY_ITS_TIER: an optional tier's library, found by the tier's own file
# (cmake/mpi_tier.cmake, cmake/cuda_tier.cmake) where the machine has it; the row runs no FIND here.
function(ladder_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 LIBRARY "FOUND_BY_ITS_TIER" "CARD;PACKAGE_TEXT;FIND;LINK;BUILD;BUILD_LINK"
                        "PACKAGES;NAMESPACES")
  if(NOT LIBRARY_CARD OR NOT LIBRARY_FIND OR NOT LIBRARY_LINK)
    message(FATAL_ERROR "ladder_add_library(${name}): CARD, FIND and LINK are required")
  endif()
  list(JOIN LIBRARY_PACKAGES ", " package_text)
  if(LIBRARY_PACKAGE_TEXT)
    set(package_text "${LIBRARY_PACKAGE_TEXT}")
  endif()
  list(JOIN LIBRARY_NAMESPACES " " namespaces)
  # A raw string literal: the FIND lines keep their quotes, newlines and ${} as written.
  set_property(GLOBAL APPEND_STRING PROPERTY LADDER_LIBRARY_TABLE
               "    {\"${name}\", \"${LIBRARY_CARD}\", R\"ladder(${LIBRARY_FIND})ladder\", \"${LIBRARY_LINK}\",\n     \"${package_text}\", \"${namespaces}\"},\n")
  if(NOT LIBRARY_BUILD_LINK)
    string(REPLACE "@NS@" "ladder" LIBRARY_BUILD_LINK "${LIBRARY_LINK}")
  endif()
  set_property(GLOBAL PROPERTY LADDER_LIBRARY_${name}_TARGET "${LIBRARY_BUILD_LINK}")
  if(NOT LIBRARY_FOUND_BY_ITS_TIER)  # run below, in this file's scope: the find's variables stay visible
    string(REPLACE "@NS@" "ladder" code "${LIBRARY_FIND}\n${LIBRARY_BUILD}\n")
    set_property(GLOBAL APPEND_STRING PROPERTY LADDER_LIBRARY_CODE "${code}")
    set_property(GLOBAL APPEND PROPERTY LADDER_LIBRARY_TARGETS ${LIBRARY_BUILD_LINK})
  endif()
endfunction()

# The targets a tier's LIBRARIES names link (ladder_add_tier): an unknown name stops the configuration.
function(ladder_library_targets result)
  set(targets)
  foreach(name IN LISTS ARGN)
    get_property(target GLOBAL PROPERTY LADDER_LIBRARY_${name}_TARGET)
    if(NOT target)
      message(FATAL_ERROR "no library '${name}': cmake/libraries.cmake declares each with ladder_add_library")
    endif()
    list(APPEND targets ${target})
  endforeach()
  set(${result} ${targets} PARENT_SCOPE)
endfunction()

# ---- the rows ---------------------------------------------------------------------------------------
ladder_add_library(eigen CARD "Eigen"
  PACKAGES libeigen3-dev
  FIND [=[find_package(Eigen3 3.4 REQUIRED NO_MODULE)]=] LINK Eigen3::Eigen
  NAMESPACES Eigen)
ladder_add_library(xsimd CARD "xsimd"
  PACKAGES libxsimd-dev
  FIND [=[
find_package(xsimd 8 REQUIRED)
# Debian's xsimd target asks the linker for an "xtl" library that xsimd does not need (it is
# header-only): take its include directory only.
get_target_property(@NS@_xsimd_includes xsimd INTERFACE_INCLUDE_DIRECTORIES)
add_library(@NS@_xsimd INTERFACE)
target_include_directories(@NS@_xsimd SYSTEM INTERFACE ${@NS@_xsimd_includes})]=]
  LINK @NS@_xsimd
  NAMESPACES xsimd xtl)
# Highway 1.0.3: as the highway tier uses it (static dispatch, variants/highway_vector.hpp) it is header-only,
# so this build takes its include directory alone; hwy::hwy would link libhwy and define HWY_SHARED_DEFINE.
ladder_add_library(highway CARD "Highway"
  PACKAGES libhwy-dev
  FIND [=[find_package(hwy 1.0 REQUIRED)]=] LINK hwy::hwy
  BUILD [=[
get_target_property(hwy_include_dirs hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
add_library(ladder_hwy INTERFACE)
target_include_directories(ladder_hwy SYSTEM INTERFACE ${hwy_include_dirs})]=]
  BUILD_LINK ladder_hwy
  NAMESPACES hwy)
# SLEEF 3.5.1: a shared library with no CMake package.
ladder_add_library(sleef CARD "SLEEF"
  PACKAGES libsleef-dev pkg-config
  FIND [=[
# SLEEF has no CMake package: pkg-config finds it
find_package(PkgConfig REQUIRED)
pkg_check_modules(SLEEF REQUIRED IMPORTED_TARGET sleef)]=]
  LINK PkgConfig::SLEEF
  BUILD [=[
if(SLEEF_VERSION VERSION_LESS 3.5)
  message(FATAL_ERROR "SLEEF ${SLEEF_VERSION} found; the sleef tier needs 3.5 or later")
endif()]=])
ladder_add_library(tbb CARD "oneTBB"
  PACKAGES libtbb-dev
  FIND [=[find_package(TBB REQUIRED)]=] LINK TBB::tbb
  NAMESPACES tbb oneapi)
# GCC's OpenMP comes with g++. This build links libgomp alone: OpenMP::OpenMP_CXX would give every tier
# -fopenmp, which only the tiers that ask for it (FLAGS -fopenmp) have.
ladder_add_library(openmp CARD "OpenMP"
  PACKAGES g++
  PACKAGE_TEXT "libgomp (GCC's OpenMP, with g++)"
  FIND [=[find_package(OpenMP REQUIRED)]=] LINK OpenMP::OpenMP_CXX
  BUILD [=[
add_library(ladder_openmp INTERFACE)
target_link_libraries(ladder_openmp INTERFACE ${OpenMP_CXX_LIBRARIES})]=]
  BUILD_LINK ladder_openmp)
ladder_add_library(libmvec CARD "glibc libmvec"
  PACKAGES libc6-dev
  PACKAGE_TEXT "libc6-dev (glibc's libmvec)"
  FIND [=[# glibc's libmvec: the vector exp and sin the compiler calls under -ffast-math, linked with libm]=]
  LINK m)
ladder_add_library(mpi CARD "Open MPI" FOUND_BY_ITS_TIER
  PACKAGES libopenmpi-dev openmpi-bin
  FIND [=[find_package(MPI REQUIRED COMPONENTS CXX)]=] LINK MPI::MPI_CXX)
# Not a Debian package: NVIDIA's toolkit, where the machine has one.
ladder_add_library(cuda CARD "CUDA toolkit" FOUND_BY_ITS_TIER
  PACKAGE_TEXT "NVIDIA's CUDA toolkit (nvcc, CUB)"
  FIND [=[find_package(CUDAToolkit REQUIRED)]=] LINK CUDA::cudart_static)

# Each row's FIND and BUILD, here in the including scope; then the include directories the probes of user
# integrands compile with (cmake/user_integrands.cmake).
get_property(ladder_library_code GLOBAL PROPERTY LADDER_LIBRARY_CODE)
cmake_language(EVAL CODE "${ladder_library_code}")
set(LADDER_LIBRARY_INCLUDE_DIRS)
get_property(ladder_library_targets GLOBAL PROPERTY LADDER_LIBRARY_TARGETS)
foreach(ladder_library_target IN LISTS ladder_library_targets)
  if(TARGET ${ladder_library_target})
    get_target_property(ladder_library_dirs ${ladder_library_target} INTERFACE_INCLUDE_DIRECTORIES)
    if(ladder_library_dirs)
      list(APPEND LADDER_LIBRARY_INCLUDE_DIRS ${ladder_library_dirs})
    endif()
  endif()
endforeach()

# Export's table (export/libraries.hpp), rewritten only when a row changes so that nothing rebuilds otherwise.
get_property(ladder_library_table GLOBAL PROPERTY LADDER_LIBRARY_TABLE)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/generated/ladder_libraries.inc.new
     "// Generated by cmake/libraries.cmake from its ladder_add_library rows: edit those, not this.\n"
     "${ladder_library_table}")
configure_file(${CMAKE_CURRENT_BINARY_DIR}/generated/ladder_libraries.inc.new
               ${CMAKE_CURRENT_BINARY_DIR}/generated/include/ladder_libraries.inc COPYONLY)
