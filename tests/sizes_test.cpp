// Sizes as `ladder run` reads them (--sizes, --threads, --a/--b), and the sizes a peer adds to the matrix:
// its per-call sizes (harness/matrix/matrix.hpp), on peers whose cards a crafted peers.py prints.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "command.hpp"
#include "crafted_peers.hpp"
#include "matrix.hpp"
#include "parse.hpp"
#include "peers.hpp"
#include "registry.hpp"

namespace ladder {
namespace {

TEST(Sizes, AcceptsPlainScientificAndPowerForms) {
  EXPECT_EQ(parse_size("100000000"), 100000000);
  EXPECT_EQ(parse_size("1e8"), 100000000);
  EXPECT_EQ(parse_size("2.5e6"), 2500000);
  EXPECT_EQ(parse_size("2^27"), 134217728);
  EXPECT_EQ(parse_size("1"), 1);
  EXPECT_EQ(parse_size("2^62"), std::int64_t{1} << 62);
  EXPECT_EQ(parse_size("4611686018427387904"), std::int64_t{1} << 62);
  EXPECT_EQ(parse_size("10^3"), 1000);
}

std::string rejection(std::string_view text) {
  try {
    parse_size(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(Sizes, RejectsWithTheTextAndTheAcceptedForms) {
  const std::string forms = "; n is a whole number from 1 to 2^62, written as 100000000, 1e8 or 2^27";
  EXPECT_EQ(rejection("0"), "n = '0' is less than 1" + forms);
  EXPECT_EQ(rejection("-5"), "n = '-5' is less than 1" + forms);
  EXPECT_EQ(rejection("1.5"), "n = '1.5' is not a whole number" + forms);
  EXPECT_EQ(rejection("abc"), "n = 'abc' is not a number" + forms);
  EXPECT_EQ(rejection(""), "n = '' is empty" + forms);
  EXPECT_EQ(rejection("1e8x"), "n = '1e8x' is not a number" + forms);
  EXPECT_EQ(rejection("2^63"), "n = '2^63' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("1e19"), "n = '1e19' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("4611686018427387905"), "n = '4611686018427387905' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("99999999999999999999"), "n = '99999999999999999999' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("inf"), "n = 'inf' is not a number" + forms);
  EXPECT_EQ(rejection("nan"), "n = 'nan' is not a number" + forms);
  EXPECT_EQ(rejection("2^x"), "n = '2^x' is not a number" + forms);
  EXPECT_EQ(rejection("1e400"), "n = '1e400' is larger than 2^62" + forms);
}

TEST(Sizes, ThreadsAreWholeNumbersFromOneToTheLimit) {
  EXPECT_EQ(parse_threads("1"), 1);
  EXPECT_EQ(parse_threads("16"), 16);
  for (const char* bad : {"0", "-1", "1.5", "two", "", "1025"})
    EXPECT_THROW(parse_threads(bad), InputError) << bad;
}

TEST(Sizes, RealsMustBeFinite) {
  EXPECT_EQ(parse_real("a", "-1.5"), -1.5);
  EXPECT_EQ(parse_real("b", "1e-3"), 1e-3);
  for (const char* bad : {"nan", "inf", "-inf", "x", "", "1.0.0"})
    EXPECT_THROW(parse_real("a", bad), InputError);
}

// An environment variable set for a scope, then as it was.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value->c_str(), 1) : unsetenv(name);
  }
  ~ScopedVariable() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Loads the peers a crafted peers.py lists (load_peers reads what `peers.py cards` prints): two that wrap
// xsimd with the per-call size 1000 and one that wraps nothing, their ids no real peer's, so that the real
// ones may be loaded in the same process.
void load_crafted_peers(const testing::TempDir& dir) {
  nlohmann::json cards = nlohmann::json::array();
  int rung = 200;
  for (const char* id : {"wraps-xsimd", "wraps-xsimd-too", "plain-peer"}) {
    nlohmann::json card = testing::crafted_peer_card(id, rung++);
    if (std::string(id) != "plain-peer") card.update({{"per_call_sizes", {1000}}, {"beside", "xsimd"}});
    cards.push_back(card);
  }
  testing::write_crafted_peers(dir.str(), cards);
  const ScopedVariable peers_dir("LADDER_PEERS_DIR", dir.str());
  load_peers("python");
}

using Counts = std::map<std::tuple<std::string, std::string, std::int64_t, int>, int>;

// How often each (tier, integrand, n, threads) is among the matrix's cells.
Counts counted(const Matrix& matrix) {
  Counts cells;
  for (const auto& cell : matrix.cells()) ++cells[{cell.tier, cell.integrand, cell.n, cell.threads}];
  return cells;
}

// The tier/integrand of each cell at n, in order.
std::vector<std::string> cells_at(const Counts& cells, std::int64_t n) {
  std::vector<std::string> found;
  for (const auto& [key, count] : cells)
    if (std::get<2>(key) == n) found.push_back(std::get<0>(key) + "/" + std::get<1>(key));
  return found;
}

TEST(PerCallSizes, APeerAndTheTierItWrapsGetOneThreadCellsThereOnce) {
  testing::TempDir dir;
  const ScopedVariable modules("LADDER_PEER_MODULES", "/where/the/user/built/them");
  load_crafted_peers(dir);
  const PeerCard* peer = find_peer("wraps-xsimd");
  ASSERT_NE(peer, nullptr);
  EXPECT_EQ(peer->per_call_sizes, std::vector<std::int64_t>{1000});
  EXPECT_EQ(peer->beside, "xsimd");
  EXPECT_TRUE(find_peer("plain-peer")->per_call_sizes.empty());
  EXPECT_EQ(std::string(std::getenv("LADDER_PEER_MODULES")), "/where/the/user/built/them")
      << "a user's own directory stays";

  Matrix matrix;
  matrix.tiers = {"naive", "xsimd", "wraps-xsimd", "wraps-xsimd-too", "plain-peer"};
  matrix.integrands = {"gauss", "pi"};
  matrix.sizes = {100'000, 10'000'000};
  matrix.threads = {1, 2};
  matrix.seed = 7;
  const Counts cells = counted(matrix);
  for (const auto& [key, count] : cells) {
    const auto& [tier, integrand, n, threads] = key;
    EXPECT_EQ(count, 1) << tier << "/" << integrand << "/n:" << n << "/threads:" << threads;
    EXPECT_EQ(threads, 1) << "every tier here is serial";
    EXPECT_TRUE(n == 1000 || n == 100'000 || n == 10'000'000) << n;
  }
  // Each wrapping peer and xsimd once (two peers wrap it), for each integrand; naive and plain-peer not.
  EXPECT_EQ(cells_at(cells, 1000),
            (std::vector<std::string>{"wraps-xsimd/gauss", "wraps-xsimd/pi", "wraps-xsimd-too/gauss",
                                      "wraps-xsimd-too/pi", "xsimd/gauss", "xsimd/pi"}));
  EXPECT_EQ(cells.size(), 5u * 2 * 2 + 6) << "tiers × integrands × sizes, and the six";
  std::vector<std::string> names, again;
  for (const auto& cell : matrix.cells()) names.push_back(cell_name(cell));
  for (const auto& cell : matrix.cells()) again.push_back(cell_name(cell));
  EXPECT_EQ(names, again) << "the same cells in the same order every time";

  // The wrapped tier not in the matrix: the peer's cells only.
  matrix.tiers = {"wraps-xsimd"};
  EXPECT_EQ(cells_at(counted(matrix), 1000),
            (std::vector<std::string>{"wraps-xsimd/gauss", "wraps-xsimd/pi"}));

  // n = 1000 one of the sizes already: nothing added, nothing twice.
  matrix.tiers = {"xsimd", "wraps-xsimd"};
  matrix.sizes = {1000, 100'000};
  const Counts with_1000 = counted(matrix);
  EXPECT_EQ(with_1000.size(), 2u * 2 * 2);
  for (const auto& [key, count] : with_1000)
    EXPECT_EQ(count, 1) << std::get<0>(key) << " " << std::get<2>(key);
}

// The folder every family's compiled modules are under, each in its own subfolder: this program's own.
TEST(PerCallSizes, LoadingPeersNamesThisBuildsPeerModules) {
  testing::TempDir dir;
  const ScopedVariable modules("LADDER_PEER_MODULES", std::nullopt);
  load_crafted_peers(dir);
  const char* set = std::getenv("LADDER_PEER_MODULES");
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(std::filesystem::path(set), std::filesystem::canonical("/proc/self/exe").parent_path());
}

}  // namespace
}  // namespace ladder
