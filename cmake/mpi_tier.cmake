# The mpi tier (variants/mpi.cpp), built only where CMake finds MPI (Debian: libopenmpi-dev, openmpi-bin,
# which scripts/install-deps.sh installs). Without it everything else builds unchanged and `ladder run`
# has no ranks to offer. Included from the root CMakeLists.txt before the ladder_tiers library is defined.
#   -DLADDER_MPI=OFF     skip the tier even where MPI is installed
option(LADDER_MPI "Build the mpi tier where MPI is found" ON)
set(LADDER_MPI_TIER OFF)
if(NOT LADDER_MPI)
  return()
endif()
# With any C++ compiler: FindMPI takes the include directories and libraries from Open MPI's wrapper
# (mpicxx --showme), and the project's own compiler builds with them (GCC 12 and Clang 16 both do).
find_package(MPI COMPONENTS CXX)
if(NOT MPI_CXX_FOUND)
  message(STATUS "No MPI found: the mpi tier is not built")
  return()
endif()
set(LADDER_MPI_TIER ON)
ladder_add_tier(variants/mpi.cpp KERNEL variants/kernels/mpi.hpp SHARES variants/simd_kernel.hpp variants/mpi_runtime.hpp
                FLAGS -fopenmp LIBRARIES mpi openmp xsimd)
# The MPI runtime the tier runs in (the launcher, MPI's start and end), beside the tiers in ladder_tiers.
set(LADDER_TIER_RUNTIME_SOURCES variants/mpi_runtime.cpp)
# The runtime is built whether or not a worker-only build carries the tier (LADDER_ONLY_TIERS: `ladder ab`,
# `run --compilers/--arch`), and harness/worker/distributed.cpp calls it: it links MPI of its own.
ladder_library_targets(mpi_runtime_libraries mpi)
list(APPEND LADDER_TIER_LIBRARIES ${mpi_runtime_libraries})
set_source_files_properties(variants/mpi_runtime.cpp PROPERTIES COMPILE_DEFINITIONS
                            "LADDER_MPIEXEC=\"${MPIEXEC_EXECUTABLE}\"")
