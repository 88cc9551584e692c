// The readers of an emulated run (reports/sections/emulated.cpp): the report, `ladder pick` and `ladder
// compare` of a crafted run whose context says qemu-user rank nothing and say why, while the same run without
// that record is answered as ever; each cell's error and each tier's vectorization evidence are still shown.
// The run part: `ladder run` under the test switch writes the record, its warning and an emulated report,
// and keeps the run out of the history. The aarch64 part: the cross-built ladder under qemu-aarch64-static.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "emulation_check.hpp"
#include "process.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::TempDir;

// Two tiers at n = 1e6: naive 1 s with error 3e-13, xsimd 0.1 s with error 7e-12 and a NEON loop.
json crafted_run() {
  json xsimd = testing::crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60);
  xsimd["vectorization"] = json::array({{{"build", "armv8-a"},
                                         {"status", "vectorized"},
                                         {"evidence", "hot loop at block_sum+0x40: 24 fmla v*.2d"},
                                         {"register_bits", 128},
                                         {"lanes", 2},
                                         {"linked", true}}});
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27), xsimd});
  json cells = json::array();
  testing::add_cell(cells, testing::CraftedCell{"naive", 0, 1000000, 1, testing::around(1.0), 3e-13});
  testing::add_cell(cells, testing::CraftedCell{"xsimd", 6, 1000000, 1, testing::around(0.1), 7e-12});
  return testing::crafted_results("arm-guest", cards, cells);
}

json emulated(json document) {
  document["context"]["emulation"] =
      Emulation{"qemu-user", "aarch64", "x86_64", "/usr/bin/qemu-aarch64-static", "crafted"};
  return document;
}

const std::string refusal = "its times are the emulator's";
// What a ranked report says: its answer, the money answer and usage map, the speedups, which tier.
const std::vector<std::string> ranking_words = {"The answer",      "**Buys**",  "Money and latency",
                                                "The ladder at n", "runner-up", "Which tier?"};

TEST(EmulatedReport, RanksNothingSaysWhyAndStillShowsErrorsAndVectorization) {
  TempDir dir;
  const fs::path path = testing::write_results(dir / "emulated", emulated(crafted_run()));
  const report::Run run = load_run(path.string());
  ASSERT_TRUE(run.emulated());
  const Document doc = build({run});
  const std::string text = testing::document_text(doc);
  EXPECT_NE(text.find("No answer: an emulated run's times rank nothing"), std::string::npos) << text;
  EXPECT_NE(text.find(refusal), std::string::npos) << text;
  EXPECT_NE(text.find("qemu-user: aarch64 code on an x86_64 machine"), std::string::npos) << text;
  // Each cell's error against the references, and the NEON loop.
  EXPECT_NE(text.find("3.0e-13"), std::string::npos) << text;
  EXPECT_NE(text.find("7.0e-12"), std::string::npos) << text;
  EXPECT_NE(text.find("24 fmla v*.2d"), std::string::npos) << text;
  EXPECT_NE(text.find("2 × f64"), std::string::npos) << text;
  // No answer, no usage map, no speedups, no charts.
  bool charts = false, ladder = false;
  visit_blocks(doc, [&](const Block& block) {
    charts = charts || block.kind == Block::Kind::charts;
    ladder = ladder || block.table.name == "ladder";
  });
  EXPECT_FALSE(charts);
  EXPECT_FALSE(ladder);
  for (const std::string& ranked : ranking_words)
    EXPECT_EQ(text.find(ranked), std::string::npos) << ranked << " in\n" << text;
}

// The control: the same run without the record gets its answer, so the assertions above can fail.
TEST(EmulatedReport, TheSameRunNotEmulatedIsAnsweredAsEver) {
  TempDir dir;
  const report::Run run = load_run(testing::write_results(dir / "native", crafted_run()).string());
  ASSERT_FALSE(run.emulation);  // not recorded, as in files written before Ladder looked
  const std::string text = testing::document_text(build({run}));
  EXPECT_EQ(text.find(refusal), std::string::npos);
  for (const std::string& ranked : ranking_words) EXPECT_NE(text.find(ranked), std::string::npos) << ranked;
  EXPECT_NE(text.find("10×"), std::string::npos) << text;  // xsimd against naive
}

// A run whose check could not be made is ranked, and the report says the check was not made.
TEST(EmulatedReport, AnUnknownCheckIsRankedAndSaidNeverTakenForNative) {
  TempDir dir;
  json document = crafted_run();
  document["context"]["emulation"] = Emulation{"unknown", "aarch64", "unknown", "", "nothing could be read"};
  const report::Run run = load_run(testing::write_results(dir / "unknown", document).string());
  EXPECT_FALSE(run.emulated());
  const std::string text = testing::document_text(build({run}));
  EXPECT_NE(text.find("The answer"), std::string::npos) << text;
  EXPECT_NE(text.find("ran on its machine's own processor could not be told (nothing could be read)"),
            std::string::npos)
      << text;
}

TEST(EmulatedReport, ANativeRunBesideAnEmulatedOneIsNamedAndNotRankedEither) {
  TempDir dir;
  const report::Run emulated_run =
      load_run(testing::write_results(dir / "emulated", emulated(crafted_run())).string());
  const report::Run native_run = load_run(testing::write_results(dir / "native", crafted_run()).string());
  const std::string text = testing::document_text(build({native_run, emulated_run}));
  EXPECT_NE(text.find(refusal), std::string::npos) << text;
  EXPECT_NE(text.find("Not emulated: " + native_run.path), std::string::npos) << text;
  EXPECT_EQ(text.find("10×"), std::string::npos) << text;
}

TEST(EmulatedPick, RefusesToPickAndListsEachCellsError) {
  TempDir dir;
  const fs::path path = testing::write_results(dir / "emulated", emulated(crafted_run()));
  const auto words = testing::run_command(LADDER_BINARY, "pick " + path.string());
  EXPECT_EQ(words.exit_code, 1) << words.output;
  EXPECT_NE(words.output.find("pick: none: '" + path.string() + "/results.json' ran under emulation"),
            std::string::npos)
      << words.output;
  EXPECT_NE(words.output.find("3.0e-13"), std::string::npos) << words.output;
  EXPECT_NE(words.output.find("24 fmla v*.2d"), std::string::npos) << words.output;
  EXPECT_EQ(words.output.find("runner-up"), std::string::npos) << words.output;

  const auto as_json = testing::run_command(LADDER_BINARY, "pick --json " + path.string() + " 2>/dev/null");
  EXPECT_EQ(as_json.exit_code, 1) << as_json.output;
  const json answer = json::parse(as_json.output);
  EXPECT_TRUE(answer.at("answer").is_null());
  EXPECT_NE(answer.at("refused").get<std::string>().find(refusal), std::string::npos);
  EXPECT_EQ(answer.at("emulation").at("emulated"), "qemu-user");
  ASSERT_EQ(answer.at("errors").size(), 2u);
  EXPECT_DOUBLE_EQ(answer.at("errors").at(0).at("rel_error").get<double>(), 3e-13);

  // The control: without the record, pick picks.
  const fs::path native = testing::write_results(dir / "native", crafted_run());
  const auto picked = testing::run_command(LADDER_BINARY, "pick " + native.string());
  EXPECT_EQ(picked.exit_code, 0) << picked.output;
  EXPECT_NE(picked.output.find("pick: xsimd"), std::string::npos) << picked.output;
}

TEST(EmulatedCompare, RefusesNamingTheEmulatedRun) {
  TempDir dir;
  const fs::path native = testing::write_results(dir / "native", crafted_run());
  const fs::path emulated_path = testing::write_results(dir / "emulated", emulated(crafted_run()));
  const auto refused =
      testing::run_command(LADDER_BINARY, "compare " + native.string() + " " + emulated_path.string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("'" + emulated_path.string() + "/results.json' ran under emulation"),
            std::string::npos)
      << refused.output;
  EXPECT_EQ(refused.output.find("'" + native.string() + "/results.json' ran under"), std::string::npos);
  const auto compared =
      testing::run_command(LADDER_BINARY, "compare " + native.string() + " " + native.string());
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
}

TEST(EmulatedHistory, AnEmulatedRunIsNotImported) {
  TempDir dir;
  const fs::path path = testing::write_results(dir / "emulated", emulated(crafted_run()));
  const std::string database = (dir / "history.sqlite").string();
  const auto refused =
      testing::run_command(LADDER_BINARY, "history import " + path.string() + " --history " + database);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("holds an emulated run (emulated (qemu-user): times are not this machine's)"),
            std::string::npos)
      << refused.output;
  const fs::path native = testing::write_results(dir / "native", crafted_run());
  const auto imported =
      testing::run_command(LADDER_BINARY, "history import " + native.string() + " --history " + database);
  EXPECT_EQ(imported.exit_code, 0) << imported.output;
}

// A results file this project wrote before Ladder looked (a fixture) reads, with no record, and is answered.
TEST(EmulatedReport, AnOlderResultsFileReadsAsNotRecordedAndIsRanked) {
  TempDir dir;
  const auto unpacked =
      testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                       "/default_run_results.json.gz > " + (dir / "results.json").string());
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  ASSERT_FALSE(testing::read_json(dir / "results.json").at("context").contains("emulation"));
  const report::Run run = load_run(dir.str());
  EXPECT_FALSE(run.emulation);
  EXPECT_TRUE(emulated_runs({run}).empty());
  EXPECT_EQ(testing::document_text(build({run})).find(refusal), std::string::npos);
}

// The cross-built ladder (scripts/build-aarch64) under qemu-aarch64-static: `ladder run --preset quick`
// completes, its workers start under the same emulator (this machine need not run aarch64 programs by
// itself, binfmt_misc), and the x86-64 ladder's report of it says it is emulated and ranks nothing.
// LADDER_AARCH64_LADDER names another cross-built ladder: tests/aarch64_tiers_test.sh runs this test with
// the one it builds (Aarch64.EmulatedQuickRunUnderQemu, configured with -DLADDER_AARCH64_LONG_TESTS=ON).
TEST(EmulatedAarch64, AQuickRunUnderQemuSaysItIsEmulated) {
  const char* other = std::getenv("LADDER_AARCH64_LADDER");
  const std::string ladder = other && *other ? other : LADDER_AARCH64_BINARY,
                    qemu = on_path("qemu-aarch64-static");
  if (!fs::exists(ladder)) GTEST_SKIP() << "no cross-built " << ladder << ": scripts/build-aarch64 makes it";
  if (qemu.empty()) GTEST_SKIP() << "no qemu-aarch64-static on PATH: the package qemu-user-static has it";
  TempDir dir;
  const fs::path out = dir / "run";
  // With the :arm64 multiarch glibc (scripts/install-deps.sh --cross arm64), not the cross sysroot's (-L):
  // cmake/toolchain-aarch64.cmake says why. One round a cell: an emulated run's times rank nothing, so its
  // noise is not worth measuring, and each worker started under qemu costs seconds. Six tiers, a scalar, a
  // SIMD library's and a parallel runtime's each, not the preset's nineteen (six minutes under qemu here):
  // what this run proves is the run itself under emulation; every tier's code under qemu is the tier tests'.
  const auto ran = testing::run_command(
      qemu, ladder + " run --preset quick --tiers naive,inlined,xsimd,highway,openmp,tbb --rounds 1 " +
                "--no-history --out " + out.string());
  ASSERT_TRUE(ran.exit_code == 0 || ran.exit_code == 1) << ran.output;  // 1: some cell failed, said below
  const json results = testing::read_json(out / "results.json");
  const json& emulation = results.at("context").at("emulation");
  EXPECT_EQ(emulation.at("emulated"), "qemu-user") << emulation.dump();
  EXPECT_EQ(emulation.at("guest"), "aarch64");
  EXPECT_EQ(emulation.at("host"), compiled_architecture());
  int ok = 0;
  for (const auto& cell : results.at("cells")) {
    ok += cell.at("status") == "ok";
    EXPECT_EQ(cell.value("reason", std::string()).find("could not be started"), std::string::npos)
        << cell.dump();
  }
  EXPECT_GT(ok, 0) << ran.output;
  const auto reported =
      testing::run_command(LADDER_BINARY, "report " + out.string() + " --out " + (dir / "report").string());
  ASSERT_EQ(reported.exit_code, 0) << reported.output;
  const std::string report = testing::read_text(dir / "report" / "report.md");
  EXPECT_NE(report.find("No answer: an emulated run's times rank nothing"), std::string::npos) << report;
  EXPECT_NE(report.find("qemu-user: aarch64 code on an " + compiled_architecture() + " machine"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("Errors against the references"), std::string::npos) << report;
}

}  // namespace
}  // namespace ladder::report
