// The Python staircase with PyPy beside it (issue 39): a PyPy peer runs the CPython peer before it
// unchanged, so its "× rung below" is against that twin, and the next CPython rung is measured against the
// CPython rung below it, not against the PyPy twin between them. Crafted results; every figure the test's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::CraftedCell;

// naive (C++) 10 ms; py-list 1 s, pypy-list 0.1 s (PyPy), py-generator 0.8 s, pypy-generator 0.05 s (PyPy).
report::Run staircase(const testing::TempDir& dir) {
  json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27)});
  const std::vector<std::pair<std::string, bool>> peers = {
      {"py-list", false}, {"pypy-list", true}, {"py-generator", false}, {"pypy-generator", true}};
  for (std::size_t i = 0; i < peers.size(); ++i) {
    json card =
        testing::crafted_card(peers[i].first, 100 + static_cast<int>(i), {}, false, "minutes", 6, true);
    card["language"] = peers[i].second ? "Python 3.9.16 (PyPy 7.3.11)" : "Python 3.11.2";
    cards.push_back(card);
  }
  json cells = json::array();
  const std::int64_t n = 1000000;
  for (const CraftedCell& cell :
       std::vector<CraftedCell>{{"naive", 0, n, 1, testing::around(0.01)},
                                {"py-list", 100, n, 1, testing::around(1.0)},
                                {"pypy-list", 101, n, 1, testing::around(0.1)},
                                {"py-generator", 102, n, 1, testing::around(0.8)},
                                {"pypy-generator", 103, n, 1, testing::around(0.05)}})
    testing::add_cell(cells, cell);
  return load_run(
      testing::write_results(dir / "run", testing::crafted_results("crafted", cards, cells)).string());
}

const Row& row_of(const Analysis& analysis, const std::string& tier) {
  for (const auto& row : analysis.rows)
    if (row.card->id == tier) return row;
  throw std::logic_error("no row " + tier);
}

TEST(PypyStaircase, EachPypyPeerAgainstItsTwinAndCPythonsRungsAgainstEachOther) {
  testing::TempDir dir;
  const report::Run run = staircase(dir);
  const Analysis analysis = analyse(run, std::nullopt, true);
  ASSERT_TRUE(row_of(analysis, "pypy-list").speedup_below);
  EXPECT_DOUBLE_EQ(*row_of(analysis, "pypy-list").speedup_below, 10) << "1 s / 0.1 s: against py-list";
  ASSERT_TRUE(row_of(analysis, "py-generator").speedup_below);
  EXPECT_DOUBLE_EQ(*row_of(analysis, "py-generator").speedup_below, 1.25)
      << "1 s / 0.8 s: against py-list, not 0.1 s / 0.8 s against pypy-list";
  ASSERT_TRUE(row_of(analysis, "pypy-generator").speedup_below);
  EXPECT_DOUBLE_EQ(*row_of(analysis, "pypy-generator").speedup_below, 16) << "0.8 s / 0.05 s: py-generator";
  EXPECT_FALSE(row_of(analysis, "naive").speedup_below) << "the C++ staircase is its own";
  // The steps in words say the same.
  const std::string text = testing::document_text(build({run}));
  EXPECT_NE(text.find("py-list → pypy-list: 10×"), std::string::npos) << text;
  EXPECT_NE(text.find("py-list → py-generator: 1.25×"), std::string::npos) << text;
  EXPECT_EQ(text.find("pypy-list → py-generator"), std::string::npos) << text;
  EXPECT_NE(text.find("py-generator → pypy-generator: 16×"), std::string::npos) << text;
}

}  // namespace
}  // namespace ladder::report
