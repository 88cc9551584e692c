// Peers: the same kernel in another language, measured in the same run with the same protocol
// (`ladder run --peers python`). Each peer comes with its own card and its own worker (scripts/peers/);
// the harness registers the cards at run time and starts the peer's worker for its cells.
#pragma once

#include <string>

namespace ladder {

// Where the peers live: $LADDER_PEERS_DIR, else the source tree's scripts/peers.
std::string peers_directory();

// The Python that runs the peers: $LADDER_PYTHON, else the system's /usr/bin/python3 (where Debian's
// python3-numpy and friends are installed), else the first python3 on the PATH.
std::string python_interpreter();

// Registers the peers of a language ("python"); throws InputError naming the problem when the language
// is unknown or its peers cannot be listed.
void load_peers(const std::string& language);

}  // namespace ladder
