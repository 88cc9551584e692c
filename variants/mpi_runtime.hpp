// What the mpi tier asks of the program that runs it. As in any MPI program, the program starts MPI and
// knows how it was launched, and the computation only computes: both are defined once, in the harness
// (harness/distributed.cpp), which also starts the ranks. Defined only in a build with MPI, as the tier is.
#pragma once

#include <string>

namespace ladder::mpi {

// Starts MPI in this process, once: under the launcher the harness has already done so before the first
// call; a process the launcher did not start (a test calling the tier in-process) becomes a one-rank
// singleton, finalized at exit.
void start();

// Why no launcher can start ranks on this machine ("no MPI launcher at '…'"), or empty when one can.
std::string missing_launcher();

}  // namespace ladder::mpi
