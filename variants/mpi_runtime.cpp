#include "mpi_runtime.hpp"

#include <mpi.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ladder::mpi_runtime {

namespace {

std::string& private_directory() {
  static std::string path;
  return path;
}

void remove_private_directory() {
  std::error_code ignored;
  std::filesystem::remove_all(private_directory(), ignored);
}

void use_private_session_directory() {
  if (std::getenv("OMPI_MCA_orte_tmpdir_base") || !private_directory().empty()) return;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ladder-mpi.XXXXXX";
  if (!mkdtemp(pattern.data())) return;  // Open MPI's own default then, as before
  private_directory() = pattern;
  setenv("OMPI_MCA_orte_tmpdir_base", pattern.c_str(), 1);
  std::atexit(remove_private_directory);
}

}  // namespace

void prepare_environment() {
  use_private_session_directory();
  setenv("HWLOC_COMPONENTS", "-gl", 0);
}

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
  if (!launched()) prepare_environment();  // before the atexit(finish) below, so its removal runs after
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

}  // namespace ladder::mpi_runtime
