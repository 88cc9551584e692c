// What a damaged file or a full disk does to Ladder: a message and an exit code, never a signal, and
// nothing lost. The files are a real run's, mutated the ways a user's files get damaged (a field of the
// wrong type, a missing key, a huge string, a file cut short); the full disk is a real small filesystem
// where this machine lets us mount one, and a file-size limit everywhere.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "command.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using ladder::testing::Outcome;
using ladder::testing::read_json;
using ladder::testing::read_text;
using ladder::testing::run_command;
using ladder::testing::TempDir;
using ladder::testing::write_text;

// The fault binary: the product plus the test-only tiers, so that the files it reads name them.
Outcome ladder(const std::string& arguments) { return run_command(LADDER_FAULT_BINARY, arguments); }

// One small run, made once for all the tests here: three tiers, two sizes, and the cells a default run
// on a machine without a GPU has (a tier that cannot run here) and a crashed one (the test-only tiers of
// fault_tiers.cpp). One cell is disturbed on purpose (LADDER_TEST_DISTURB): the records of a disturbed cell
// (its rounds' reasons, its first measurement, measured again) are in the files on a quiet machine as on a
// loaded one, where other cells have them too.
const fs::path& real_run() {
  static TempDir dir;
  static const fs::path run = [] {
    const fs::path out = dir / "run";
    const Outcome made =
        run_command("LADDER_TEST_DISTURB=xsimd/gauss/n:10000/threads:1 " LADDER_FAULT_BINARY,
                    "run --no-limits --tiers naive,xsimd,openmp,nowhere,crashes --n 1e4,1e5 --threads 1,2 "
                    "--reps 3 --min-time 0.002 --no-instructions --out " +
                        out.string());
    EXPECT_EQ(made.exit_code, 1) << "the crashed cells make it 1\n" << made.output;
    return out;
  }();
  return run;
}

// Every node of a document, by field: its JSON pointer with each array index written N
// (/cells/N/measurement/rel_error), in order.
using Fields = std::map<std::string, std::vector<json::json_pointer>>;
void collect(const json& value, const json::json_pointer& at, const std::string& field, Fields& fields) {
  fields[field].push_back(at);
  if (value.is_object())
    for (const auto& [key, member] : value.items()) collect(member, at / key, field + "/" + key, fields);
  if (value.is_array())
    for (std::size_t i = 0; i < value.size(); ++i) collect(value[i], at / i, field + "/N", fields);
}

// One damage: a node removed, or replaced by a value of another type, a huge string or a huge number.
// One node of what Ladder reads changed: Google Benchmark's `benchmarks`, which Ladder never reads back (its
// projection of the cells), is left as it is. The field is drawn first, then one of its nodes: how many
// nodes a run has depends on the machine's load (a disturbed cell keeps more rounds), and a draw among all
// the nodes damaged other fields on a loaded machine than on a quiet one.
json mutate(json document, std::mt19937_64& random) {
  Fields fields;
  collect(document, json::json_pointer(), "", fields);
  std::erase_if(fields, [](const auto& field) {  // never the whole document ("")
    return field.first.empty() || field.first.rfind("/benchmarks", 0) == 0;
  });
  const auto& nodes = std::next(fields.begin(), static_cast<long>(random() % fields.size()))->second;
  const auto& at = nodes[random() % nodes.size()];
  const std::vector<json> replacements = {nullptr,
                                          "x",
                                          -1,
                                          1e300,
                                          true,
                                          json::array(),
                                          json::object(),
                                          std::string(1 << 20, 'y'),
                                          1.5,
                                          -9223372036854775807LL};
  const auto choice = random() % (replacements.size() + 1);
  if (choice == replacements.size()) {
    json& parent = document[at.parent_pointer()];
    if (parent.is_object()) parent.erase(at.back());
    if (parent.is_array()) parent.erase(std::stoul(at.back()));
  } else {
    document[at] = replacements[choice];
  }
  return document;
}

// The text cut short at a random place, or a number replaced by NaN (which JSON does not have).
std::string damage_text(const std::string& text, std::mt19937_64& random) {
  if (random() % 2) return text.substr(0, random() % text.size());
  std::string damaged = text;
  const auto at = damaged.find("\"real_time\": ", random() % damaged.size());
  if (at != std::string::npos) damaged.insert(at + 13, "NaN");
  return damaged;
}

// A command that read a damaged file: 0 (the damage did not matter), 1 (a real answer: no tier meets the
// constraints, a slower cell) or 2 with a message; never a signal (exit -1, or 128 + N from the shell).
void expect_clean_end(const Outcome& outcome, const std::string& what) {
  EXPECT_TRUE(outcome.exit_code == 0 || outcome.exit_code == 1 || outcome.exit_code == 2)
      << what << " ended with " << outcome.exit_code << ":\n"
      << outcome.output.substr(0, 2000);
  if (outcome.exit_code == 2) {
    EXPECT_NE(outcome.output.find("ladder: "), std::string::npos) << what;
  }
  EXPECT_EQ(outcome.output.find("terminate called"), std::string::npos) << what << ": " << outcome.output;
}

// The real run's journal, a line each.
std::vector<std::string> journal_lines() {
  std::vector<std::string> lines;
  std::istringstream in(read_text(real_run() / "journal.jsonl"));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(DamagedFiles, AFieldOfTheWrongTypeIsNamedByItsPathAndTheFile) {
  TempDir scratch;
  json results = read_json(real_run() / "results.json");
  results["cells"][1]["reproducible"] = "yes";
  write_text(scratch / "results.json", results.dump());
  const Outcome wrong_type = ladder("report " + scratch.str() + " --out " + (scratch / "report").string());
  EXPECT_EQ(wrong_type.exit_code, 2) << wrong_type.output;
  EXPECT_NE(wrong_type.output.find("results file '" + (scratch / "results.json").string() + "'"),
            std::string::npos)
      << wrong_type.output;
  EXPECT_NE(wrong_type.output.find("cells[1].reproducible: expected a boolean, found string \"yes\""),
            std::string::npos)
      << wrong_type.output;

  results = read_json(real_run() / "results.json");
  results["context"].erase("host_name");
  write_text(scratch / "results.json", results.dump());
  const Outcome missing = ladder("pick " + scratch.str());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("context has no 'host_name'"), std::string::npos) << missing.output;

  // A card's `peer` of another type reached the migration that completes the peers' places before the
  // reader, which ended in an internal error (exit 70).
  results = read_json(real_run() / "results.json");
  results["tiers"][0]["peer"] = 1.5;
  write_text(scratch / "results.json", results.dump());
  const Outcome peer = ladder("pick " + scratch.str());
  EXPECT_EQ(peer.exit_code, 2) << peer.output;
  EXPECT_NE(peer.output.find("tiers[0].peer: expected a boolean, found number 1.5"), std::string::npos)
      << peer.output;
}

TEST(DamagedFiles, NoMutatedResultsFileEndsReportPickOrCompareOnASignal) {
  const std::string original = read_text(real_run() / "results.json");
  const json document = json::parse(original);
  std::mt19937_64 random(20261130);
  TempDir scratch;
  const fs::path damaged_dir = scratch / "damaged";
  fs::create_directories(damaged_dir);
  int rejected = 0;
  for (int round = 0; round < 150; ++round) {
    const std::string text = round < 120 ? mutate(document, random).dump(1) : damage_text(original, random);
    write_text(damaged_dir / "results.json", text);
    const std::string what = "mutation " + std::to_string(round);
    const Outcome report =
        ladder("report " + damaged_dir.string() + " --out " + (scratch / "report").string());
    expect_clean_end(report, what + ", report");
    rejected += report.exit_code == 2;
    expect_clean_end(ladder("pick " + damaged_dir.string() + " --max-error 1e-3"), what + ", pick");
    expect_clean_end(ladder("compare " + real_run().string() + " " + damaged_dir.string()),
                     what + ", compare");
  }
  // The mutations must reach the checks: most damage is refused, with a message.
  EXPECT_GT(rejected, 60);
}

TEST(DamagedFiles, NoMutatedJournalEndsRunResumeOnASignal) {
  const std::vector<std::string> lines = journal_lines();
  std::mt19937_64 random(30112026);
  TempDir scratch;
  int rejected = 0;
  for (int round = 0; round < 40; ++round) {
    const fs::path copy = scratch / ("run-" + std::to_string(round));
    fs::copy(real_run(), copy, fs::copy_options::recursive);
    const std::size_t line = random() % lines.size();
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string damaged = i != line        ? lines[i]
                                  : round % 4 == 3 ? damage_text(lines[i], random)
                                                   : mutate(json::parse(lines[i]), random).dump();
      text += damaged + "\n";
    }
    write_text(copy / "journal.jsonl", text);
    const Outcome resumed = ladder("run --no-limits --resume " + copy.string());
    expect_clean_end(
        resumed, "journal mutation " + std::to_string(round) + " (line " + std::to_string(line + 1) + ")");
    rejected += resumed.exit_code == 2;
    fs::remove_all(copy);
  }
  EXPECT_GT(rejected, 10);
}

// A journal whose cell records do not match its matrix (a record repeated, renamed, or naming another cell
// than it describes) is refused with exit 2, naming the cell, and left as it was: counted as done, a repeated
// record would make "13 of 12 cells finished" and a resume that ends as interrupted (exit 130).
TEST(DamagedFiles, AJournalWhoseCellsDoNotMatchItsMatrixIsRefusedNamingTheCell) {
  const std::vector<std::string> lines = journal_lines();
  std::size_t cell_line = 0;
  while (cell_line < lines.size() && json::parse(lines[cell_line]).value("kind", "") != "cell") ++cell_line;
  ASSERT_LT(cell_line, lines.size()) << "the run journaled no cell";
  const json record = json::parse(lines[cell_line]);
  const std::string name = record.at("name").get<std::string>();

  json renamed = record, other_cell = record;
  renamed["name"] = "no-such-tier/gauss/n=7";
  other_cell["cell"]["n"] = other_cell["cell"]["n"].get<std::int64_t>() + 1;
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"repeated", lines[cell_line], "its record of cell '" + name + "' comes twice"},
      {"renamed", renamed.dump(),
       "its record of cell 'no-such-tier/gauss/n=7' names no cell of the run's matrix"},
      {"another-cell", other_cell.dump(), "its record of cell '" + name + "' describes another cell"},
  };
  TempDir scratch;
  for (const auto& [what, extra_line, message] : cases) {
    const fs::path copy = scratch / what;
    fs::copy(real_run(), copy, fs::copy_options::recursive);
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i)
      text += (what != "repeated" && i == cell_line ? extra_line : lines[i]) + "\n";
    if (what == "repeated") text += extra_line + "\n";
    write_text(copy / "journal.jsonl", text);
    const std::string results_before = read_text(copy / "results.json");
    const Outcome resumed = ladder("run --no-limits --resume " + copy.string());
    EXPECT_EQ(resumed.exit_code, 2) << what << ":\n" << resumed.output;
    EXPECT_NE(resumed.output.find("is damaged: " + message), std::string::npos) << what << ":\n"
                                                                                << resumed.output;
    EXPECT_TRUE(read_text(copy / "journal.jsonl") == text) << what << ": the journal was changed";
    EXPECT_TRUE(read_text(copy / "results.json") == results_before) << what << ": results.json was changed";
  }
}

// Runs `ladder run` into out_dir and expects it to stop on the full disk with a message and exit 4, with the
// journal and results.json whole; then resumes it elsewhere-free and expects every cell.
void expect_full_disk_handled(const Outcome& stopped, const fs::path& out_dir) {
  EXPECT_EQ(stopped.exit_code, 4) << stopped.output;
  EXPECT_EQ(stopped.output.find("terminate called"), std::string::npos) << stopped.output;
  EXPECT_NE(stopped.output.find("ladder run --resume " + out_dir.string()), std::string::npos)
      << stopped.output;
  EXPECT_NE(stopped.output.find("are finished and safe"), std::string::npos) << stopped.output;
  std::istringstream journal(read_text(out_dir / "journal.jsonl"));
  int whole_lines = 0;
  for (std::string line; std::getline(journal, line); ++whole_lines)
    EXPECT_FALSE(json::parse(line, nullptr, false).is_discarded()) << "journal line " << whole_lines + 1;
  EXPECT_GE(whole_lines, 2) << "the disk filled before any cell: the test measures nothing";
  EXPECT_FALSE(json::parse(read_text(out_dir / "results.json"), nullptr, false).is_discarded());
}

// Once there is room, `ladder run --resume` finishes the run: every cell of small_matrix is in its results.
void expect_resumed_to_every_cell(const fs::path& out_dir) {
  const Outcome resumed = ladder("run --no-limits --resume " + out_dir.string());
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  std::set<std::string> cells;
  const json results = read_json(out_dir / "results.json");
  for (const auto& entry : results.at("benchmarks")) cells.insert(entry.at("cell").get<std::string>());
  EXPECT_EQ(cells.size(), 8u);
}

const char* small_matrix =
    "--tiers naive,streaming,inlined,xsimd --n 1e4,1e5 --reps 3 --min-time 0.002 --no-instructions";

TEST(FullDisk, ARunOnASmallFilesystemStopsWithAMessageAndResumesOnceThereIsRoom) {
  TempDir scratch;
  const fs::path mount_point = scratch / "small-disk";
  fs::create_directories(mount_point);
  if (mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=150k") != 0)
    GTEST_SKIP() << "cannot mount a 150 KiB tmpfs here (" << std::strerror(errno)
                 << "); FullDisk.AFileSizeLimitStopsTheRunTheSameWay covers the same path without privileges";
  const fs::path out_dir = mount_point / "run";
  const Outcome stopped =
      ladder(std::string("run --no-limits ") + small_matrix + " --out " + out_dir.string());
  expect_full_disk_handled(stopped, out_dir);
  const fs::path moved = scratch / "run";  // "make room": the run moves to a disk with room
  fs::copy(out_dir, moved, fs::copy_options::recursive);
  umount(mount_point.c_str());
  expect_resumed_to_every_cell(moved);
}

TEST(FullDisk, AFileSizeLimitStopsTheRunTheSameWay) {
  TempDir scratch;
  const fs::path out_dir = scratch / "run";
  // A write past RLIMIT_FSIZE fails with EFBIG (SIGXFSZ ignored), as a write to a full disk fails with
  // ENOSPC: the limit is inherited by the run and its workers.
  const Outcome stopped =
      run_command("ulimit -f 150; trap '' XFSZ; " + std::string(LADDER_FAULT_BINARY),
                  std::string("run --no-limits ") + small_matrix + " --out " + out_dir.string());
  expect_full_disk_handled(stopped, out_dir);
  expect_resumed_to_every_cell(out_dir);
}

// Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads results.json, cells that did not
// run (a tier that cannot run here, a crashed one) included.
TEST(GoogleBenchmarkTools, ComparePyReadsAResultsFileWithCellsThatDidNotRun) {
  const std::string compare_py = "/usr/share/benchmark/compare.py";
  if (!fs::exists(compare_py))
    GTEST_SKIP() << compare_py
                 << " is not installed (libbenchmark-tools; scripts/install-deps.sh installs it)";
  const json results = read_json(real_run() / "results.json");
  std::set<std::string> statuses;
  for (const auto& entry : results.at("benchmarks")) statuses.insert(entry.at("status").get<std::string>());
  ASSERT_EQ(statuses, (std::set<std::string>{"ok", "unavailable", "crashed"}))
      << "the run must have cells that did not run, or the test proves nothing";
  const std::string file = (real_run() / "results.json").string();
  const Outcome compared = run_command(LADDER_SYSTEM_PYTHON, compare_py + " benchmarks " + file + " " + file);
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_EQ(compared.output.find("Traceback"), std::string::npos) << compared.output;
  EXPECT_NE(compared.output.find("xsimd/gauss/n:100000/threads:1_median"), std::string::npos)
      << compared.output;
  EXPECT_NE(compared.output.find("nowhere/gauss/n:10000/threads:1"), std::string::npos) << compared.output;
  EXPECT_NE(compared.output.find("crashes/gauss/n:10000/threads:1"), std::string::npos) << compared.output;
}

}  // namespace
