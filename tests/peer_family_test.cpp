// A new family of Python peers is one module and one line in peers.py's list (FAMILY_MODULES): a copy of
// scripts/peers with a toy family added that way, and no other file changed, is measured by
// `ladder run --peers python` with its card; the same module left out of the list is no peer at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
namespace helpers = ladder::testing;  // tests/command.hpp

// The toy family, in the shape every family module has (scripts/peers/peers.py's docstring): one peer, the
// plain loop, and a card field that only its card_fields gives.
const char* const toy_family = R"py(import math

NAME = "toy"
NEEDS = "needs nothing (a toy family)"


def toy_loop(integrand, a, b, n, threads=1):
    f = {"gauss": lambda x: math.exp(-x * x), "pi": lambda x: 4.0 / (1.0 + x * x), "sin": math.sin,
         "poly": lambda x: ((x - 2.0) * x + 3.0) * x + 1.0}[integrand]
    h = (b - a) / n
    total = 0.0
    for i in range(n):
        total += f(a + (i + 0.5) * h)
    return total * h


def need(unavailable):
    return


def peers(earlier):
    return [dict(id="toy-loop", functions=[toy_loop], needs=[NAME], summary="the toy family's plain loop",
                 libraries=[], concepts=["peer families"], learning_time="minutes", parallel=False,
                 reproducible="always", summation="one accumulator, in order", heap_bytes_per_node=0)]


def card_fields(peer):
    return {"note": "said by the toy family's card_fields"}


def build_seconds(peer):
    return None
)py";

const std::string toy_line = "    \"toy_peers\",\n";

// Where a new line of peers.py's list of families goes: before the list's closing bracket.
std::size_t list_end(const std::string& peers_py) {
  const std::size_t list = peers_py.find("\nFAMILY_MODULES = [");
  const std::size_t close = list == std::string::npos ? list : peers_py.find("\n]\n", list);
  EXPECT_NE(close, std::string::npos) << "peers.py has no FAMILY_MODULES list";
  return close == std::string::npos ? close : close + 1;
}

// A copy of scripts/peers with toy_peers.py added and, when `listed`, its line after the list's last one.
fs::path peers_with_toy_family(const fs::path& root, bool listed) {
  const fs::path copy = root / "peers";
  fs::copy(LADDER_SOURCE_DIR "/scripts/peers", copy, fs::copy_options::recursive);
  std::ofstream(copy / "toy_peers.py") << toy_family;
  if (listed) {
    std::string text = helpers::read_text(copy / "peers.py");
    if (const std::size_t end = list_end(text); end != std::string::npos) text.insert(end, toy_line);
    std::ofstream(copy / "peers.py") << text;
  }
  return copy;
}

helpers::Outcome run_toy(const fs::path& peers, const fs::path& out) {
  return helpers::run_command(
      "env LADDER_PEERS_DIR=" + peers.string() + " " LADDER_BINARY,
      "run --peers python --tiers toy-loop --n 1e3 --preset quick --no-instructions --no-limits "
      "--no-history --out " +
          out.string());
}

TEST(PeerFamilies, ANewFamilyIsOneModuleAndOneLineInTheList) {
  helpers::TempDir dir;
  const fs::path peers = peers_with_toy_family(fs::path(dir.str()), true);

  // Nothing else in the copy differs from scripts/peers: peers.py by the one line, the rest not at all.
  const fs::path source = LADDER_SOURCE_DIR "/scripts/peers";
  for (const auto& entry : fs::recursive_directory_iterator(peers)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), peers);
    if (relative == "toy_peers.py") continue;
    std::string original = helpers::read_text(source / relative);
    if (relative == "peers.py") original.insert(list_end(original), toy_line);
    EXPECT_EQ(helpers::read_text(entry.path()), original) << relative;
  }

  const helpers::Outcome run = run_toy(peers, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = helpers::read_json(dir / "out/results.json");
  json card;
  for (const auto& each : results.at("tiers"))
    if (each.at("id") == "toy-loop") card = each;
  ASSERT_TRUE(card.is_object()) << results.at("tiers").dump();
  EXPECT_TRUE(card.at("peer").get<bool>());
  EXPECT_EQ(card.at("summary"), "the toy family's plain loop");
  EXPECT_EQ(card.at("note"), "said by the toy family's card_fields");
  EXPECT_EQ(card.at("concepts"), json::array({"peer families"}));
  EXPECT_GT(card.at("rung").get<int>(), 116) << "after every peer of the families listed before it";
  int measured = 0;
  for (const auto& [name, cell] : helpers::medians(results)) {
    if (cell.at("tier") != "toy-loop") continue;
    EXPECT_EQ(cell.at("status"), "ok") << name << ": " << cell.value("reason", "");
    EXPECT_EQ(cell.at("n"), 1000) << name;
    EXPECT_TRUE(cell.value("within_rounding_bound", false)) << name;
    EXPECT_EQ(cell.value("instruction_set", ""), "python") << name;
    ++measured;
  }
  EXPECT_EQ(measured, 1) << run.output;
}

TEST(PeerFamilies, AModuleLeftOutOfTheListIsNoPeer) {
  helpers::TempDir dir;
  const helpers::Outcome run = run_toy(peers_with_toy_family(fs::path(dir.str()), false), dir / "out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("toy-loop"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir / "out/results.json")) << run.output;
}

}  // namespace
