// Peers made by hand, for the tests of what loads them (load_peers reads what `peers.py cards` prints): a
// folder whose peers.py prints the cards the test wrote.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ladder::testing {

// A peer's card as `peers.py cards` prints it: plain Python loops, summed in order.
inline nlohmann::json crafted_peer_card(const std::string& id, int rung) {
  return {{"id", id},
          {"rung", rung},
          {"summary", "a crafted peer"},
          {"libraries", nlohmann::json::array()},
          {"concepts", {"loops"}},
          {"learning_time", "hours"},
          {"parallel", false},
          {"reproducible", "always"},
          {"summation", "in order"}};
}

// DIR/cards.json holding `cards`, and DIR/peers.py, which prints it when asked for the cards (and fails
// when asked for anything else).
inline void write_crafted_peers(const std::filesystem::path& dir, const nlohmann::json& cards) {
  std::ofstream(dir / "cards.json") << cards.dump();
  std::ofstream(dir / "peers.py") << "import os, sys\nassert sys.argv[1:] == ['cards']\n"
                                     "print(open(os.path.join(os.path.dirname(__file__), "
                                     "'cards.json')).read())\n";
}

}  // namespace ladder::testing
