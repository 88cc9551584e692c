// Integrands as a dimension of `ladder run` and `ladder plan` (issue 16): --integrand takes a list, each
// name checked; every integrand gets its cells, its references, its calibration and its instruction counts;
// a tier that cannot run an integrand has its cells recorded unavailable, with the reason, and no worker;
// the results' context says where each integrand came from; and a run journaled before integrands were a
// dimension still resumes. `ladder list --integrands` and the context's records: integrands_list_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "calibration.hpp"
#include "command.hpp"
#include "json_reader.hpp"
#include "matrix.hpp"
#include "peers.hpp"
#include "plan.hpp"
#include "registry.hpp"
#include "results_file.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using namespace ladder;
using ladder::testing::lines_of;
using ladder::testing::medians;
using ladder::testing::Outcome;
using ladder::testing::read_json;
using ladder::testing::read_text;
using ladder::testing::run_and_read;
using ladder::testing::TempDir;
using ladder::testing::write_text;

Outcome ladder_command(const std::string& arguments) {
  return ladder::testing::run_command(LADDER_BINARY, arguments);
}

const char* few_repetitions = "--reps 2 --min-time 0.005";

// The journal's cell records, by cell name.
std::map<std::string, json> journaled_cells(const fs::path& journal) {
  std::map<std::string, json> cells;
  for (const auto& line : lines_of(read_text(journal))) {
    const json record = json::parse(line);
    if (record.value("kind", "") == "cell") cells[record.at("name")] = record;
  }
  return cells;
}

const IntegrandInfo& integrand_named(const std::string& name) { return integrands()[find_integrand(name)]; }

// Whether the build has this example integrand (examples/integrands/ is built by default).
bool has_example(const std::string& name) {
  return std::any_of(integrands().begin(), integrands().end(),
                     [&](const IntegrandInfo& integrand) { return integrand.name == name; });
}

TEST(IntegrandList, NamesAreCheckedKeptInOrderAndAGivenTwiceRunsOnce) {
  EXPECT_EQ(parse_integrands("gauss"), std::vector<std::string>{"gauss"});
  EXPECT_EQ(parse_integrands("pi,gauss,pi,sin,gauss"), (std::vector<std::string>{"pi", "gauss", "sin"}));
  try {
    parse_integrands("gauss,cosh");
    ADD_FAILURE() << "cosh is no integrand";
  } catch (const InputError& error) {
    EXPECT_NE(
        std::string(error.what()).find("unknown integrand 'cosh'; known integrands: " + integrand_names()),
        std::string::npos)
        << error.what();
  }
  for (const char* list : {"", "gauss,", ",gauss", "gauss,,pi"}) {
    try {
      parse_integrands(list);
      ADD_FAILURE() << "'" << list << "' has an empty name";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("has an empty name"), std::string::npos) << error.what();
    }
  }
}

TEST(IntegrandList, BadNamesAreRefusedBeforeAnythingIsWrittenOrPlanned) {
  TempDir dir;
  const std::string out = " --out " + dir.str() + "/out";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run --no-limits --integrand gauss,cosh" + out,
       "unknown integrand 'cosh'; known integrands: " + integrand_names()},
      {"run --no-limits --integrand gauss,,pi" + out, "--integrand 'gauss,,pi' has an empty name"},
      {"plan --integrand cosh,gauss", "unknown integrand 'cosh'; known integrands: " + integrand_names()},
  };
  for (const auto& [arguments, message] : cases) {
    const Outcome outcome = ladder_command(arguments);
    EXPECT_EQ(outcome.exit_code, 2) << arguments << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(message), std::string::npos) << arguments << "\n" << outcome.output;
    EXPECT_EQ(outcome.output.find("calibrating"), std::string::npos) << arguments << ": refused before";
    EXPECT_FALSE(fs::exists(dir / "out")) << arguments << ": nothing written";
  }
}

TEST(IntegrandMatrix, EveryTierMeetsEveryIntegrand) {
  Matrix matrix;
  matrix.tiers = {"naive", "openmp"};
  matrix.integrands = {"gauss", "pi", "sin"};
  matrix.sizes = {1000, 2000};
  matrix.threads = {1, 2};
  matrix.cpus = 2;
  std::map<std::string, int> by_integrand;
  for (const auto& cell : matrix.cells()) ++by_integrand[cell.integrand];
  // naive: 2 sizes; openmp: 2 sizes × 2 thread counts; for each integrand.
  EXPECT_EQ(by_integrand, (std::map<std::string, int>{{"gauss", 6}, {"pi", 6}, {"sin", 6}}));
  EXPECT_EQ(Matrix::from_json(JsonReader(matrix.to_json())).integrands, matrix.integrands);
}

TEST(IntegrandMatrix, AMatrixJournaledWithOneIntegrandReadsAsAListOfOne) {
  Matrix matrix;
  matrix.tiers = {"naive"};
  matrix.integrands = {"pi"};
  matrix.sizes = {1000};
  matrix.threads = {1};
  json old = matrix.to_json();
  old.erase("integrands");
  old["integrand"] = "pi";
  EXPECT_EQ(Matrix::from_json(JsonReader(old)).integrands, std::vector<std::string>{"pi"});

  json none = old;
  none.erase("integrand");
  try {
    Matrix::from_json(JsonReader(none, "matrix"));
    ADD_FAILURE() << "a matrix without an integrand";
  } catch (const SchemaError& error) {
    EXPECT_NE(std::string(error.what()).find("matrix has no 'integrand'"), std::string::npos) << error.what();
  }
  json empty = matrix.to_json();
  empty["integrands"] = json::array();
  try {
    Matrix::from_json(JsonReader(empty, "matrix"));
    ADD_FAILURE() << "a matrix with no integrands";
  } catch (const SchemaError& error) {
    EXPECT_NE(std::string(error.what()).find("matrix.integrands: expected at least one integrand"),
              std::string::npos)
        << error.what();
  }
}

// The Python peers write out the built-in integrands again (scripts/peers/peers.py): a user integrand's
// cells on a peer are unavailable, with why, before a worker starts.
TEST(IntegrandMatrix, APythonPeerRunsTheBuiltInIntegrandsOnly) {
  if (!has_example("rational"))
    GTEST_SKIP() << "this build has no example integrands (-DLADDER_EXAMPLE_INTEGRANDS=OFF)";
  try {
    load_peers("python");
  } catch (const InputError& error) {
    GTEST_SKIP() << "the Python peers cannot be listed here: " << error.what();
  }
  ASSERT_FALSE(loaded_peers().empty());
  const std::string peer = loaded_peers().front().card.id;
  EXPECT_EQ(unsupported_reason(peer, "gauss"), "");
  EXPECT_EQ(unsupported_reason(peer, "poly"), "");
  const std::string reason = unsupported_reason(peer, "rational");
  EXPECT_NE(reason.find("built-in integrands only (gauss, pi, sin, poly)"), std::string::npos) << reason;
  Matrix matrix;
  matrix.tiers = {peer};
  matrix.integrands = {"rational"};
  const CellKey cell{{peer, "rational", 1000, 1, 1}, 0, 1, false};
  EXPECT_EQ(not_attempted(cell, matrix, 0),
            std::make_pair(CellStatus::unavailable,
                           "tier '" + peer + "' cannot run integrand 'rational': it " + reason));
}

// The plan costs each integrand by its own calibration: a function that costs 10× gauss a node makes its
// cells (and its references) 10× dearer.
TEST(IntegrandPlan, EachIntegrandIsCostedByItsOwnCalibration) {
  Matrix matrix;
  matrix.tiers = {"naive"};
  matrix.integrands = {"gauss", "pi"};
  matrix.sizes = {1'000'000};
  matrix.threads = {1};
  matrix.repetitions = 3;
  matrix.min_time = 0.001;
  matrix.min_warmup_time = 0.001;
  Calibration calibration;
  calibration.tiers[tier_key("naive", "gauss")] = {1e-9, 0.1, 1e7};
  calibration.tiers[tier_key("naive", "pi")] = {1e-8, 0.1, 1e7};
  calibration.reference_seconds_per_node["gauss"] = 1e-8;
  calibration.reference_seconds_per_node["pi"] = 1e-7;
  PlanSettings settings;
  settings.instructions = false;
  const Estimate estimate = ladder::estimate(matrix, calibration, settings);
  ASSERT_EQ(estimate.cells.size(), 2u);
  std::map<std::string, double> timed;
  for (const auto& cell : estimate.cells) {
    EXPECT_EQ(cell.source, "calibration") << cell.name;
    timed[cell.cell.integrand] = cell.parts.timed;
  }
  // A call of 1 ms (gauss) or 10 ms (pi), each at least the minimum time: one call a repetition.
  EXPECT_NEAR(timed.at("gauss"), 3 * 0.001, 1e-12);
  EXPECT_NEAR(timed.at("pi"), 3 * 0.01, 1e-12);
  double references = -1;
  for (const auto& [name, seconds] : estimate.parts)
    if (name == "references") references = seconds;
  EXPECT_NEAR(references, (1e-8 + 1e-7) * 1e6, 1e-12) << "each integrand's reference at its own cost";
  EXPECT_EQ(estimate.cells.front().cell.integrand, "gauss") << "in the order the integrands were given";
}

// gauss and a second integrand: rational (an example, whose exact integral is Boost.Math's quadrature) when
// the examples are built, else pi. Each gets its cells, its reference, its context, and the run's report.md
// answers for each.
TEST(IntegrandRun, TwoIntegrandsGetTheirCellsReferencesAndContext) {
  TempDir dir;
  const bool rational = has_example("rational");
  const std::string second = rational ? "rational" : "pi";
  const auto run = run_and_read(LADDER_BINARY,
                                "--preset quick --no-limits --tiers naive,xsimd --integrand gauss," + second +
                                    " --n 1e4 " + std::string(few_repetitions),
                                dir / "out");
  ASSERT_EQ(run.outcome.exit_code, 0) << run.outcome.output;
  const json& context = run.results.at("context");
  EXPECT_EQ(context.at("matrix").at("integrands"), (json{"gauss", second}));
  const auto cells = medians(run.results);
  // rational, (x² + 6x + 12) / (x² − 6x + 12) = 1 + 6 (2x − 6) / (x² − 6x + 12) + 36 / ((x − 3)² + 3), on
  // [0, 1]: 1 + 6 ln(7/12) + 36/√3 (atan(−2/√3) − atan(−3/√3)).
  const long double root3 = std::sqrt(3.0L);
  const long double rational_integral =
      1 + 6 * std::log(7.0L / 12) + 36 / root3 * (std::atan(-2 / root3) - std::atan(-3 / root3));
  const std::map<std::string, long double> exact = {
      {"gauss", std::sqrt(std::numbers::pi_v<long double>) / 2 * std::erf(1.0L)},
      {second, rational ? rational_integral : std::numbers::pi_v<long double>}};
  for (const char* tier : {"naive", "xsimd"})
    for (const auto& [integrand, integral] : exact) {
      const std::string name = std::string(tier) + "/" + integrand + "/n:10000/threads:1";
      ASSERT_TRUE(cells.count(name)) << name << "\n" << run.outcome.output;
      const json& cell = cells.at(name);
      EXPECT_EQ(cell.at("status"), "ok") << name;
      EXPECT_EQ(cell.at("integrand"), integrand) << name;
      EXPECT_NEAR(cell.at("exact").get<double>(), static_cast<double>(integral), 1e-15 * integral) << name;
      EXPECT_LT(std::fabs(cell.at("rel_error").get<double>()), 1e-8) << name << ": h² = 1e-8";
      EXPECT_TRUE(cell.at("within_rounding_bound").get<bool>()) << name;
      if (integrand == "rational") {
        // No antiderivative: the quadrature's, through the worker and into the results.
        EXPECT_EQ(cell.value("exact_method", "").rfind("Boost.Math tanh_sinh in ", 0), 0u) << cell.dump();
        ASSERT_TRUE(cell.contains("exact_error_estimate")) << cell.dump();
        EXPECT_LT(cell.at("exact_error_estimate").get<double>(), 1e-15) << name;
      }
    }
  EXPECT_EQ(cells.size(), 4u);

  const ResultsFile file = read_results_file((dir / "out").string());
  ASSERT_EQ(file.context.integrands.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const IntegrandRecord& record = file.context.integrands[i];
    const IntegrandInfo& info = integrand_named(i == 0 ? "gauss" : second);
    EXPECT_EQ(record.name, info.name);
    EXPECT_EQ(record.formula, info.formula);
    EXPECT_EQ(record.source, info.source);
    EXPECT_EQ(record.antiderivative, info.antiderivative != nullptr);
    EXPECT_TRUE(record.unsupported.empty()) << record.name;
  }
  // The summary at the end has a column for the integrand.
  const auto header = run.outcome.output.find("integrand");
  ASSERT_NE(header, std::string::npos) << run.outcome.output;
  EXPECT_NE(run.outcome.output.find("xsimd            " + second + " "), std::string::npos)
      << run.outcome.output;
  // The run's report answers for each integrand: the section, and a row each.
  const std::string md = read_text(dir / "out" / "report.md");
  const std::size_t section = md.find("## The answer for each integrand");
  ASSERT_NE(section, std::string::npos) << md.substr(0, 3000);
  for (const std::string& integrand : {std::string("gauss"), second})
    EXPECT_NE(md.find("\n| " + integrand + " | " + integrand_named(integrand).source + " | ", section),
              std::string::npos)
        << integrand << "\n"
        << md.substr(section, 3000);
}

TEST(IntegrandRun, ATierThatCannotRunAnIntegrandIsUnavailableWithItsReasonAndNoWorker) {
  if (!has_example("piecewise-branch"))
    GTEST_SKIP() << "this build has no example integrands (-DLADDER_EXAMPLE_INTEGRANDS=OFF)";
  const std::string reason = unsupported_reason(find_tier("xsimd"), find_integrand("piecewise-branch"));
  ASSERT_NE(reason, "") << "piecewise-branch branches on a batch: the xsimd tier cannot run it";
  TempDir dir;
  const auto run = run_and_read(LADDER_BINARY,
                                "--tiers xsimd --integrand gauss,piecewise-branch --n 1e4,2e4 --no-limits " +
                                    std::string(few_repetitions),
                                dir / "out");
  ASSERT_EQ(run.outcome.exit_code, 0) << "unavailable is no failure\n" << run.outcome.output;
  const auto cells = medians(run.results);
  const auto journal = journaled_cells(dir / "out/journal.jsonl");
  for (const char* n : {"10000", "20000"}) {
    const std::string name = std::string("xsimd/piecewise-branch/n:") + n + "/threads:1";
    ASSERT_TRUE(cells.count(name)) << name;
    EXPECT_EQ(cells.at(name).at("status"), "unavailable") << name;
    EXPECT_EQ(cells.at(name).at("reason"),
              "tier 'xsimd' cannot run integrand 'piecewise-branch': it " + reason);
    EXPECT_FALSE(journal.at(name).at("worker").contains("wall_seconds")) << name << ": no worker was started";
    const std::string gauss = std::string("xsimd/gauss/n:") + n + "/threads:1";
    EXPECT_EQ(cells.at(gauss).at("status"), "ok") << gauss;
    EXPECT_TRUE(journal.at(gauss).at("worker").contains("wall_seconds")) << gauss << ": its worker ran";
  }
  const ResultsFile file = read_results_file((dir / "out").string());
  ASSERT_EQ(file.context.integrands.size(), 2u);
  const IntegrandRecord& branch = file.context.integrands[1];
  EXPECT_EQ(branch.name, "piecewise-branch");
  EXPECT_EQ(branch.source, integrand_named("piecewise-branch").source);
  EXPECT_NE(branch.source.find("examples/integrands/"), std::string::npos) << branch.source;
  EXPECT_EQ(branch.antiderivative, integrand_named("piecewise-branch").antiderivative != nullptr);
  EXPECT_EQ(branch.unsupported, (std::map<std::string, std::string>{{"xsimd", reason}}));
  EXPECT_TRUE(file.context.integrands[0].unsupported.empty());

  // The plan says the same before anything runs.
  const Outcome plan = ladder_command(
      "plan --tiers xsimd --integrand gauss,piecewise-branch --n 1e4 --no-instructions --json");
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  const json planned = json::parse(plan.output.substr(plan.output.find('{')));
  bool found = false;
  for (const auto& cell : planned.at("cells"))
    if (cell.at("integrand") == "piecewise-branch") {
      found = true;
      EXPECT_EQ(cell.at("status"), "unavailable");
      EXPECT_EQ(cell.at("reason"), "tier 'xsimd' cannot run integrand 'piecewise-branch': it " + reason);
    }
  EXPECT_TRUE(found) << plan.output;
}

// Instructions a node are counted with each integrand of the run.
TEST(IntegrandRun, InstructionsAreCountedWithEachIntegrand) {
  TempDir dir;
  const Outcome outcome = ladder_command("run --no-limits --tiers naive --integrand gauss,pi --n 1e3 " +
                                         std::string(few_repetitions) + " --out " + (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json instructions = read_json(dir / "out/results.json").at("instructions");
  ASSERT_TRUE(instructions.at("available").get<bool>()) << instructions.dump(2);
  EXPECT_EQ(instructions.at("integrand"), "gauss") << "the first integrand's counts where they always were";
  const json& by_integrand = instructions.at("by_integrand");
  std::map<std::string, double> per_node;
  for (const char* integrand : {"gauss", "pi"}) {
    ASSERT_TRUE(by_integrand.contains(integrand)) << by_integrand.dump(2);
    EXPECT_EQ(by_integrand.at(integrand).at("integrand"), integrand);
    per_node[integrand] = by_integrand.at(integrand).at("tiers").at("naive").at("per_node").get<double>();
    EXPECT_GT(per_node[integrand], 0) << integrand;
  }
  // exp(-x²) goes through libm's exp; 4/(1 + x²) is a handful of instructions: different counts.
  EXPECT_NE(per_node.at("gauss"), per_node.at("pi"));
}

// A run journaled before integrands were a dimension (schema 1: its matrix has one `integrand`, its context
// no `integrands`) resumes, and its results read.
TEST(IntegrandRun, ARunJournaledWithOneIntegrandResumes) {
  TempDir dir;
  const std::string out = (dir / "out").string();
  // --remeasure 0: a journal of that time has no cell measured again.
  const auto first =
      run_and_read(LADDER_BINARY,
                   "--tiers naive --integrand pi --n 1e3,2e3,3e3 --remeasure 0 --rounds 1 --no-limits " +
                       std::string(few_repetitions),
                   dir / "out");
  ASSERT_EQ(first.outcome.exit_code, 0) << first.outcome.output;
  // Made old: the header's matrix as it was written then, and the last cell not yet run.
  std::vector<std::string> lines = lines_of(read_text(dir / "out/journal.jsonl"));
  json header = json::parse(lines.front());
  header["schema_version"] = 1;
  header["matrix"].erase("integrands");
  header["matrix"]["integrand"] = "pi";
  header["context"].erase("integrands");
  lines.front() = header.dump();
  std::string removed;
  for (auto line = lines.begin() + 1; line != lines.end(); ++line)
    if (json::parse(*line).value("kind", "") == "cell") {
      removed = json::parse(*line).at("name");
      lines.erase(line);
      break;
    }
  ASSERT_FALSE(removed.empty());
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  write_text(dir / "out/journal.jsonl", text);

  const Outcome resumed = ladder_command("run --no-limits --resume " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("1 cells"), std::string::npos) << "one cell left\n" << resumed.output;
  const json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results.at("context").at("run").at("status"), "complete");
  const auto cells = medians(results);
  EXPECT_EQ(cells.size(), 3u);
  ASSERT_TRUE(cells.count(removed));
  EXPECT_EQ(cells.at(removed).at("status"), "ok");
  EXPECT_EQ(journaled_cells(dir / "out/journal.jsonl").size(), 3u) << "each cell once";
  const ResultsFile file = read_results_file(out);
  EXPECT_TRUE(file.context.integrands.empty()) << "an old run's context has none, and reads";

  // Matrix options on --resume are compared with the old matrix read as a list of one.
  const Outcome other = ladder_command("run --no-limits --resume " + out + " --integrand pi,gauss");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("holds another matrix (integrands"), std::string::npos) << other.output;
}

}  // namespace
