// The MPI runtime the mpi tier runs in, in one place: which launcher starts the ranks, and MPI's start
// and end in a process. The tier's kernel only computes (variants/kernels/mpi.hpp, which calls start());
// the harness (harness/worker/distributed.cpp) starts the ranks with this launcher and leads them. Built only
// where the build found MPI, as the tier is. (The namespace is mpi_runtime: ladder::mpi is the kernel.)
#pragma once

#include <string>

namespace ladder::mpi_runtime {

// The launcher: $LADDER_MPIRUN, else the mpirun CMake found.
std::string launcher();
// Why no launcher can start ranks on this machine ("no MPI launcher at '…'"), or empty when one can.
std::string missing_launcher();
// Whether this process was started by the launcher (Open MPI sets OMPI_COMM_WORLD_SIZE).
bool launched();

// The environment mpirun (or a singleton's orted) inherits, set once before it starts: the harness calls this
// before it starts mpirun, a singleton before MPI_Init. Each part is left as it is where the user set it.
//  - A session directory of this process's own ($TMPDIR/ladder-mpi.XXXXXX, removed at exit), through
//    OMPI_MCA_orte_tmpdir_base. Open MPI 4.1 makes and removes one top-level /tmp/ompi.HOST.UID shared by
//    every job of a user, and two jobs starting and ending at once race on it: "A call to mkdir was unable
//    to create the desired directory" (open-mpi/ompi#8510).
//  - No display discovery, through HWLOC_COMPONENTS=-gl. hwloc's GL component opens X displays :0 to :N,
//    each over TCP to "localhost" when no X server answers; with no /etc/hosts (a bare container or chroot)
//    each lookup waits on a DNS server, and 2 launches in 4 took 5.1 s instead of 0.11 s. No rank reads a
//    display.
void prepare_environment();

// Starts MPI in this process, once: under the launcher the harness has already done so before the first
// call; a process the launcher did not start (a test calling the tier in-process) becomes a one-rank
// singleton, finalized at exit.
void start();
// MPI_Finalize, once; nothing when MPI was never started.
void finish();

}  // namespace ladder::mpi_runtime
