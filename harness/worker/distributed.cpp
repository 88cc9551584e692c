#include "distributed.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "context.hpp"
#include "errors.hpp"
#include "process.hpp"

#ifdef LADDER_WITH_MPI
#include <mpi.h>

#include "mpi_runtime.hpp"
#endif

namespace ladder::distributed {

bool oversubscribed(int ranks, int threads, int cpus) { return ranks * threads > cpus; }

#ifdef LADDER_WITH_MPI

bool built() { return true; }

std::string launcher() { return mpi_runtime::launcher(); }
bool launched() { return mpi_runtime::launched(); }

std::vector<std::string> launch_command(int ranks, int threads, int cpus, const std::string& hostfile,
                                        int cores) {
  mpi_runtime::prepare_environment();  // mpirun inherits it: its own session directory, no display discovery
  std::vector<std::string> command = {launcher(), "-np", std::to_string(ranks)};
  if (geteuid() == 0) command.push_back("--allow-run-as-root");
  if (!hostfile.empty()) {
    command.insert(command.end(), {"--hostfile", hostfile, "--map-by",
                                   "ppr:1:node:PE=" + std::to_string(threads), "--bind-to", "core"});
  } else if (oversubscribed(ranks, threads, cpus)) {
    command.insert(command.end(), {"--oversubscribe", "--bind-to", "none"});
  } else if (cores > 0 && ranks * threads > cores) {
    command.insert(command.end(), {"--use-hwthread-cpus", "--map-by", "slot:PE=" + std::to_string(threads),
                                   "--bind-to", "hwthread"});
  } else {
    command.insert(command.end(), {"--map-by", "slot:PE=" + std::to_string(threads), "--bind-to", "core"});
  }
  // On one node the ranks talk through shared memory: Open MPI's ob1 messaging (over its vader transport)
  // starts in 0.09 s where UCX's transport probing took 0.3 s a launch on a 2-vCPU VM, and every round of
  // an mpi cell is a launch. A cluster's (--hostfile) and a user's own OMPI_MCA_pml are left as they are.
  if (hostfile.empty() && !std::getenv("OMPI_MCA_pml"))
    command.insert(command.end(), {"--mca", "pml", "ob1"});
  for (const char* variable : {"OMP_PROC_BIND", "OMP_PLACES", "LADDER_MPIRUN"})
    if (std::getenv(variable)) command.insert(command.end(), {"-x", variable});
  return command;
}

namespace {

void broadcast(std::int64_t n) {
  mpi_runtime::start();
  long long value = n;
  MPI_Bcast(&value, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
}

void announce(std::int64_t n) { broadcast(n); }  // rank 0: every rank, call the kernel with n now
void stop() { broadcast(0); }                    // rank 0: no more calls

// The other ranks, until stop().
void follow(const KernelCall& call) {
  mpi_runtime::start();
  for (;;) {
    long long n = 0;
    MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (n == 0) return;
    call(n);
  }
}

void finish() { mpi_runtime::finish(); }  // MPI_Finalize, once

}  // namespace

int rank() {
  mpi_runtime::start();
  int value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &value);
  return value;
}

int size() {
  mpi_runtime::start();
  int value = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &value);
  return value;
}

#else  // a build without MPI has no distributed tier: nothing here is ever called with ranks

bool built() { return false; }
std::string launcher() { return {}; }
bool launched() { return false; }
std::vector<std::string> launch_command(int, int, int, const std::string&, int) { return {}; }
int rank() { return 0; }
int size() { return 1; }
namespace {
void announce(std::int64_t) {}
void stop() {}
void follow(const KernelCall&) {}
void finish() {}
}  // namespace

#endif

void start_ranks(int ranks, int threads, const std::vector<std::string>& arguments) {
  if (!built()) throw Unavailable("this build has no distributed tier (MPI was not found when it was built)");
  std::vector<std::string> command = launch_command(ranks, threads, logical_cpus(), {}, physical_cores());
  command.insert(command.end(), arguments.begin(), arguments.end());
  std::fflush(stdout);
  // Started and waited for, not exec'd into: this process's exit then removes the launcher's private
  // session directory (launch_command), and the launcher's status becomes this process's own.
  Program launcher_run{command};
  launcher_run.stdout_to = launcher_run.stderr_to = Stream::inherit;
  const Finished finished = run_program(launcher_run);
  if (!finished.started())
    throw Unavailable("cannot start the MPI launcher '" + command[0] + "': " + finished.not_started);
  std::exit(finished.signal != 0 ? 128 + finished.signal : finished.exit_code);
}

bool follow_leader(const KernelCall& call) {
  if (rank() == 0) return false;
  follow(call);
  finish();
  return true;
}

KernelCall lead(KernelCall call) {
  return [call = std::move(call)](std::int64_t n) {
    announce(n);
    return call(n);
  };
}

void release_followers() {
  stop();
  finish();
}

}  // namespace ladder::distributed
