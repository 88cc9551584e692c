// Running a distributed tier (card.distributed: the mpi tier) as its launcher starts it: one process per
// rank, every rank making the same kernel calls in the same order. Rank 0 leads — Google Benchmark times
// its calls, it measures memory and errors, it writes the result — and before each call it tells the
// other ranks to make the same call; they follow until it says stop. The broadcast that starts a call is
// inside the timed region: the timing is rank 0's, which waits in the reduction for the slowest rank.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ladder::distributed {

// Whether this build found MPI (the mpi tier and `--ranks` exist only then).
bool built();
// The launcher: $LADDER_MPIRUN, else the mpirun CMake found (looked up in one place:
// variants/mpi_runtime.hpp, which the tier's card asks too).
std::string launcher();
// Whether this process was started by the launcher (Open MPI sets OMPI_COMM_WORLD_SIZE).
bool launched();

// The launcher's command for `ranks` processes of `threads` threads each on a machine of `cpus` hardware
// threads and `cores` physical cores (0: as many as cpus): each rank bound to its own `threads` cores; past
// the physical cores, to `threads` hardware threads (Open MPI counts PE= in cores unless told to use
// hardware threads, and finds "no available cpus" otherwise); when ranks × threads exceed the hardware
// threads, oversubscribed and unbound. With a hostfile (a cluster), one rank a host, bound to `threads`
// cores there. As root, Open MPI must be told that it is allowed.
std::vector<std::string> launch_command(int ranks, int threads, int cpus, const std::string& hostfile = {},
                                        int cores = 0);
bool oversubscribed(int ranks, int threads, int cpus);

// This process's rank and the number of ranks (MPI is started first if it is not yet: mpi_runtime::start).
int rank();
int size();

// ---- the protocol, once, for `ladder eval` and the worker ------------------------------------------
// One kernel call at n nodes.
using KernelCall = std::function<double(std::int64_t n)>;

// Starts this program again under the launcher, `ranks` processes of `threads` threads on this machine,
// with the same arguments (argv, argv[0] this program's own path), waits for it and exits with its status;
// does not return. Unavailable naming the launcher when it cannot be started (or this build has no MPI).
// It ends the process itself (std::exit), past the one top-level handler (app/commands.cpp): by then the
// ranks have run the whole command and said what they had to, so this process has only their status to
// give, signals as 128 + the signal the way a shell gives them.
[[noreturn]] void start_ranks(int ranks, int threads, const std::vector<std::string>& arguments);

// A follower's whole part. On a rank other than 0: makes rank 0's calls with `call` until rank 0 says
// stop, finishes MPI and returns true (the process has nothing more to do: it prints and writes nothing).
// On rank 0: returns false at once, and rank 0 goes on to lead.
bool follow_leader(const KernelCall& call);

// Rank 0's calls: each tells the followers to make the same call, then makes it. The telling is inside
// whatever times the returned call (the header says why that is right).
KernelCall lead(KernelCall call);

// Rank 0, after its last call (or when it fails): the followers stop, and MPI finishes.
void release_followers();

}  // namespace ladder::distributed
