// Peers: the same kernel in another language, measured in the same run with the same protocol
// (`ladder run --peers python`). Each peer comes with its own card and its own worker (scripts/peers/);
// the harness loads the cards at run time and starts the peer's worker for its cells. A peer never joins
// the registry of C++ tiers: the harness finds a cell's card through find_card, tier or peer alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results_file.hpp"
#include "tier.hpp"

namespace ladder {

struct PeerCard {
  // What a peer is described by like a tier: id, rung, summary, libraries, concepts, learning time,
  // whether it is parallel and reproducible, its source lines. It has no kernel in this process.
  TierCard card;
  std::string runner;           // the command that starts its worker
  std::string language;         // e.g. "Python 3.11.2"
  std::string unavailable;      // why it cannot run here, from the peer itself; empty when it can
  std::int64_t size_limit = 0;  // larger n are not attempted (pure Python); 0: no limit
  // Sizes it is also measured at, one thread, where one call costs more than its loop (cpp-extension:
  // what crossing from Python into C++ costs); the matrix adds them (Matrix::cells).
  std::vector<std::int64_t> per_call_sizes;
  std::string beside;     // the C++ tier it wraps, measured at the same per-call sizes when it runs; or empty
  std::string staircase;  // the staircase of peers a report draws it on apart, by its title; or empty
  bool baseline = false;  // the peer every row of a report is also measured against
  std::optional<YellowLines> yellow;  // a Cython peer's kernel as `cython -a` scores it
};

// Where the peers live: $LADDER_PEERS_DIR, else the source tree's scripts/peers.
std::string peers_directory();

// The Python that runs the peers: $LADDER_PYTHON, else the system's /usr/bin/python3 (where Debian's
// python3-numpy and friends are installed), else the first python3 on the PATH.
std::string python_interpreter();

// How long the peers' Python may take to print their cards (`peers.py cards`: it imports NumPy, Numba and
// the rest, and starts pypy3 once, for at most 10 s, for its version). Past it, it is stopped with all it
// started, and the listing fails naming the interpreter.
constexpr double peers_listing_seconds = 40;

// The end of a program's output for a message: its last `lines` lines that are not blank at the end, each
// shown printable (quote_text) and bounded; "… " before them when there was more. A Python traceback's
// last line is its exception.
std::string output_end(std::string_view output, std::size_t lines);

// Loads the peers of a language ("python"); throws InputError naming the problem when the language is
// unknown or its peers cannot be listed. Sets LADDER_PEER_MODULES, unless set already, to the folder under
// which this build makes the compiled peers' modules (the executable's folder; each family's in its own
// subfolder), for the cards and every worker.
void load_peers(const std::string& language);
const std::vector<PeerCard>& loaded_peers();  // by rung

// A loaded peer by id, or null.
const PeerCard* find_peer(std::string_view id);
// The card of a C++ tier or of a loaded peer; InputError listing both when the id is neither.
const TierCard& find_card(std::string_view id);
// Why the tier or peer cannot run here, or empty when it can.
std::string unavailable_reason(std::string_view id);

}  // namespace ladder
