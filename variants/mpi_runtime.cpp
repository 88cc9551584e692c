#include "mpi_runtime.hpp"

#include <mpi.h>
#include <unistd.h>

#include <cstdlib>

namespace ladder::mpi {

std::string launcher() {
  const char* chosen = std::getenv("LADDER_MPIRUN");
  return chosen ? chosen : LADDER_MPIEXEC;
}

std::string missing_launcher() {
  const std::string mpirun = launcher();
  if (mpirun.empty() || access(mpirun.c_str(), X_OK) != 0)
    return "no MPI launcher at '" + mpirun + "' (install Open MPI's openmpi-bin, or set LADDER_MPIRUN)";
  return "";
}

bool launched() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

void start() {
  int started = 0;
  MPI_Initialized(&started);
  if (started) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  // Under the launcher the worker calls finish() after its last call; an exit without it must stay an
  // error the launcher reports, not a finalize that waits for ranks still in a broadcast. A singleton has
  // no other rank to wait for, and no worker to finish it.
  if (!launched()) std::atexit(finish);
}

void finish() {
  int started = 0, finished = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&finished);
  if (started && !finished) MPI_Finalize();
}

}  // namespace ladder::mpi
