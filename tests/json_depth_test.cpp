// Issue 37 (N2, N3): JSON nested 100 000 deep anywhere in a document a user can give or damage (a results
// file, a journal line) is refused right after the parse, with exit 2 in a short message naming the file,
// and nothing is changed. nlohmann parses any depth but copies and compares recursively, so such a value
// crashed pick, report, compare and run --resume (SIGSEGV) wherever it was read. The check itself
// (common/json_reader.hpp's check_json_depth) is tested first.
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <string>

#include "command.hpp"
#include "json_reader.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;

constexpr int bad_input = 2;

std::string arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }
std::string objects(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
  return text + "1" + std::string(depth, '}');
}

std::string depth_refusal(const std::string& text) {
  try {
    check_json_depth(text, "the text");
  } catch (const SchemaError& refused) {
    return refused.what();
  }
  return "";
}

TEST(JsonDepth, ArraysAndObjectsDeeperThanTheLimitAreRefusedAtTheirByte) {
  EXPECT_EQ(depth_refusal(arrays(max_json_depth)), "");
  EXPECT_EQ(depth_refusal(objects(max_json_depth)), "");
  EXPECT_EQ(depth_refusal(arrays(max_json_depth + 1)),
            "the text is nested more than 512 levels deep at byte 513; no Ladder file is");
  EXPECT_NE(depth_refusal(objects(max_json_depth + 1)).find("more than 512 levels deep at byte 2561"),
            std::string::npos);
  // Mixed, after closed siblings: only the open ones count.
  EXPECT_EQ(depth_refusal("{\"x\": [" + arrays(600) + "], \"y\": " + objects(500) + "}"),
            "the text is nested more than 512 levels deep at byte 518 (under x); no Ladder file is");
  EXPECT_EQ(depth_refusal("[" + std::string(1000, ']') + arrays(511) + "]"), "");
  // The keys that lead to it are named, the first few levels' (arrays as []).
  EXPECT_NE(depth_refusal("{\"cells\": [{\"m\": 1}, {\"m\": {\"s\": " + arrays(600) + "}}]}")
                .find("(under cells[].m.s)"),
            std::string::npos);
  EXPECT_NE(depth_refusal(arrays(100000)), "");
  EXPECT_NE(depth_refusal(std::string(1000000, '{')), "");  // not JSON, and bounded all the same
}

TEST(JsonDepth, BracketsInsideStringsAndEscapedQuotesAreNotCounted) {
  EXPECT_EQ(depth_refusal("[\"" + std::string(1000, '[') + std::string(1000, '{') + "\"]"), "");
  // An escaped quote does not end the string: the brackets after it are still inside it.
  EXPECT_EQ(depth_refusal("[\"\\\"" + std::string(1000, '[') + "\"]"), "");
  EXPECT_EQ(depth_refusal("{\"k\\\"" + std::string(1000, '{') + "\": 1}"), "");
  // An escaped backslash does end the string at the quote after it: what follows counts.
  EXPECT_NE(depth_refusal("[\"\\\\\"" + arrays(600) + "]"), "");
  EXPECT_NE(depth_refusal("[\"a\\\\\\\\\"," + arrays(600) + "]"), "");
}

TEST(JsonDepth, ParseJsonDocumentChecksTheDepthAndLeavesSyntaxToTheCaller) {
  EXPECT_TRUE(parse_json_document("{\"a\": [1, 2", "x").is_discarded());
  EXPECT_EQ(parse_json_document("{\"a\": [1, \"]]]\"]}", "x")["a"][1], "]]]");
  EXPECT_THROW(parse_json_document(objects(100000), "x"), SchemaError);
  EXPECT_THROW(parse_json("not json", "x"), SchemaError);
  EXPECT_THROW(parse_json(arrays(100000), "x"), SchemaError);
}

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }

void expect_depth_refusal(const Outcome& outcome, const std::string& words, const std::string& command) {
  EXPECT_EQ(outcome.exit_code, bad_input) << command << "\n" << outcome.output.substr(0, 2000);
  EXPECT_LT(outcome.output.size(), 400u) << command << "\n" << outcome.output.substr(0, 2000);
  EXPECT_EQ(outcome.output.rfind("ladder: ", 0), 0u) << command << "\n" << outcome.output.substr(0, 2000);
  for (const std::string& said : {words, std::string("nested more than 512 levels deep")})
    EXPECT_NE(outcome.output.find(said), std::string::npos) << command << " should say " << said << "\n"
                                                            << outcome.output.substr(0, 2000);
}

// `from` in TEXT, and a number after it, replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos) return text;
  auto end = at + from.size();
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  return text.replace(at, end - at, to);
}

// N2: results whose schema_version, or a field of a cell's measurement, is an object nested 100 000 deep
// crashed pick, report and compare (SIGSEGV): refused, naming the file, and no file is changed.
TEST(JsonDepth, ResultsWithADeepObjectAreRefusedByEveryReader) {
  TempDir dir;
  const std::string good = (dir / "good").string();
  fs::create_directories(good);
  ASSERT_EQ(std::system(
                ("gzip -dc " LADDER_FIXTURES_DIR "/default_run_results.json.gz > '" + good + "/results.json'")
                    .c_str()),
            0);
  const std::string text = read_text(good + "/results.json");
  for (const auto& [name, from] :
       {std::pair{"version", "\"schema_version\": "}, std::pair{"measurement", "\"iterations\": "}}) {
    const std::string run = (dir / name).string();
    fs::create_directories(run);
    const std::string deep = replaced(text, from, from + objects(100000));
    write_text(run + "/results.json", deep);
    const std::string report = (dir / (std::string(name) + "-report")).string();
    for (const std::string& command : {"pick " + run, "report " + run + " --out " + report,
                                       "compare " + good + " " + run, "compare " + run + " " + good})
      expect_depth_refusal(ladder(command), "results file '" + run + "/results.json'", command);
    expect_depth_refusal(ladder("pick " + run), std::string(from + 1, std::strchr(from + 1, '"')),
                         "pick " + run);
    EXPECT_EQ(read_text(run + "/results.json"), deep);
    EXPECT_EQ(read_text(good + "/results.json"), text);
    EXPECT_FALSE(fs::exists(report));
    EXPECT_EQ(std::distance(fs::directory_iterator(run), fs::directory_iterator()), 1);
  }
}

// A tiny real run, made once: one tier, one size; its journal holds a header and cell lines.
const fs::path& tiny_run() {
  static TempDir dir;
  static const fs::path out = dir / "run";
  static const Outcome ran = ladder(
      "run --preset quick --tiers inlined --no-history --no-limits --no-instructions --out " + out.string());
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  return out;
}

// N2, N3: a journal cell line whose measurement holds an object or an array nested 100 000 deep crashed
// `run --resume` (SIGSEGV, the array after ~40 s of measuring) and changed the journal first. It is refused
// naming the line, before anything changes: the journal keeps even the line a kill cut short.
TEST(JsonDepthRun, ResumeRefusesAJournalLineNestedDeepAndChangesNothing) {
  const fs::path& good = tiny_run();
  const std::string journal = read_text(good / "journal.jsonl");
  const auto lines = lines_of(journal);
  ASSERT_GE(lines.size(), 2u);
  ASSERT_NE(lines[1].find("\"simd_width\":"), std::string::npos) << lines[1];
  for (const auto& [name, deep] :
       {std::pair{"object", objects(100000)}, std::pair{"array", arrays(100000)}}) {
    TempDir dir;
    const fs::path run = dir / "run";
    fs::copy(good, run, fs::copy_options::recursive);
    std::string damaged;
    for (std::size_t i = 0; i < lines.size(); ++i)
      damaged += (i == 1 ? replaced(lines[i], "\"simd_width\":", "\"simd_width\":" + deep) : lines[i]) + "\n";
    damaged += "{\"kind\":\"cell\",\"ti";  // a line a kill cut short, which a resume would cut off
    write_text(run / "journal.jsonl", damaged);
    const std::string results = read_text(run / "results.json");
    const std::string command = "run --resume " + run.string() + " --no-history";
    expect_depth_refusal(ladder(command), "line 2 is nested", command + " (" + name + ")");
    expect_depth_refusal(ladder(command), "(under measurement.simd_width", command + " (" + name + ")");
    EXPECT_EQ(read_text(run / "journal.jsonl"), damaged) << name;
    EXPECT_EQ(read_text(run / "results.json"), results) << name;
  }
}

}  // namespace
}  // namespace ladder::testing
