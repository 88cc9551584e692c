// The Cython peers' yellow count on its way to the reader: a card's `yellow` written to results.json and read
// back, and the report's "How yellow, how fast" table of py-inlined and its Cython rungs, on crafted results.
// (The count itself, and the peers, are tests/cython_peers_test.py's.)
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "command.hpp"
#include "crafted_results.hpp"
#include "report.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::TempDir;
namespace fs = std::filesystem;

TEST(YellowCard, IsWrittenAndReadBackAndAbsentFromEveryOtherCard) {
  CardRecord card;
  card.id = "cython-untyped";
  card.yellow = YellowLines{12, 549, 13};
  const json written = card;
  EXPECT_EQ(written.at("yellow"), json({{"lines", 12}, {"score", 549}, {"kernel_lines", 13}}));
  const CardRecord read = written.get<CardRecord>();
  ASSERT_TRUE(read.yellow.has_value());
  EXPECT_EQ((std::tuple{read.yellow->lines, read.yellow->score, read.yellow->kernel_lines}),
            (std::tuple{12, 549, 13}));

  card.yellow.reset();
  const json plain = card;
  EXPECT_FALSE(plain.contains("yellow"));
  EXPECT_FALSE(plain.get<CardRecord>().yellow.has_value());
}

json yellow_card(const std::string& id, int rung, const std::string& learning, json yellow) {
  json card = testing::crafted_card(id, rung, {"Cython 0.29"}, id == "cython-parallel", learning, 30, true);
  if (!yellow.is_null()) card["yellow"] = std::move(yellow);
  return card;
}

// At n = 1e7: py-inlined 1 s (100 ns a node), cython-untyped 0.8 s (80 ns), cython 50 ms (5 ns),
// cython-parallel 50 ms on one thread and 30 ms on two (3 ns); cython-untyped stops at 1e7 like pure Python.
fs::path cython_run(const fs::path& dir, bool with_yellow) {
  using testing::around;
  const auto count = [&](int lines, int score, int kernel) {
    return with_yellow ? json({{"lines", lines}, {"score", score}, {"kernel_lines", kernel}}) : json(nullptr);
  };
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("py-inlined", 102, {}, false, "minutes", 14, true),
                                  yellow_card("cython-untyped", 109, "hours", count(12, 549, 13)),
                                  yellow_card("cython", 110, "hours", count(0, 0, 26)),
                                  yellow_card("cython-parallel", 111, "days", count(0, 0, 26))});
  json cells = json::array();
  const struct {
    const char* tier;
    int rung, threads;
    double at_1e5, at_1e7;
  } measured[] = {{"naive", 0, 1, 1e-4, 1e-2},
                  {"py-inlined", 102, 1, 1e-2, 1.0},
                  {"cython-untyped", 109, 1, 8e-3, 0.8},
                  {"cython", 110, 1, 5e-4, 5e-2},
                  {"cython-parallel", 111, 1, 5e-4, 5e-2},
                  {"cython-parallel", 111, 2, 3e-4, 3e-2}};
  for (const auto& each : measured) {
    testing::add_cell(cells, {each.tier, each.rung, 100'000, each.threads, around(each.at_1e5)});
    testing::add_cell(cells, {each.tier, each.rung, 10'000'000, each.threads, around(each.at_1e7)});
  }
  json document = testing::crafted_results("crafted", cards, cells);
  document["context"]["matrix"]["sizes"] = {100'000, 10'000'000};
  return testing::write_results(dir, document);
}

TEST(YellowReport, EachCountBesideItsTimeANodeAtTheLargestCommonN) {
  TempDir dir;
  write_report({load_run(cython_run(dir / "run", true).string())}, (dir / "out").string());
  const std::string md = testing::read_text(dir / "out/report.md");
  const std::size_t section = md.find("## How yellow, how fast: py-inlined compiled by Cython");
  ASSERT_NE(section, std::string::npos) << md;
  const std::string text = md.substr(section, md.find("\n## ", section + 1) - section);
  EXPECT_NE(text.find("for gauss at n = 1e7"), std::string::npos) << text;
  for (const char* row : {"| 102 | py-inlined | not compiled | – | 1 | 100 ns | minutes |",
                          "| 109 | cython-untyped | 12 of 13 | 549 | 1 | 80 ns | hours |",
                          "| 110 | cython | 0 of 26 | 0 | 1 | 5 ns | hours |",
                          "| 111 | cython-parallel | 0 of 26 | 0 | 2 | 3 ns | days |"})
    EXPECT_NE(text.find(row), std::string::npos) << row << "\n" << text;
}

TEST(YellowReport, NoTableWithoutACount) {  // a run whose cards carry none: results from before the count
  TempDir dir;
  write_report({load_run(cython_run(dir / "run", false).string())}, (dir / "out").string());
  const std::string md = testing::read_text(dir / "out/report.md");
  EXPECT_EQ(md.find("How yellow, how fast"), std::string::npos);
}

}  // namespace
}  // namespace ladder::report
