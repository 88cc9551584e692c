// The integrands as Ladder lists and records them: `ladder list --integrands` (text and JSON, the same as a
// run's context.integrands) and the context's integrand records, read back as written and named where
// damaged.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "json_reader.hpp"
#include "registry.hpp"
#include "results_file.hpp"

namespace {

using nlohmann::json;
using namespace ladder;
using ladder::testing::lines_of;
using ladder::testing::Outcome;

Outcome ladder_command(const std::string& arguments) {
  return ladder::testing::run_command(LADDER_BINARY, arguments);
}

// Whether the build has this example integrand (examples/integrands/ is built by default).
bool has_example(const std::string& name) {
  return std::any_of(integrands().begin(), integrands().end(),
                     [&](const IntegrandInfo& integrand) { return integrand.name == name; });
}

TEST(IntegrandRecords, ReadBackAsWrittenAndDamageIsNamed) {
  const IntegrandRecord written{
      "piecewise", "", "integrands/piecewise.hpp", false, {{"xsimd", "does not …"}}};
  const json record = written;
  EXPECT_EQ(record, json::parse(R"({"name": "piecewise", "formula": "", "source": "integrands/piecewise.hpp",
                                    "antiderivative": false, "unsupported": {"xsimd": "does not …"}})"));
  const IntegrandRecord read = read_integrand_record(JsonReader(record));
  EXPECT_EQ(read.name, written.name);
  EXPECT_EQ(read.source, written.source);
  EXPECT_EQ(read.antiderivative, written.antiderivative);
  EXPECT_EQ(read.unsupported, written.unsupported);
  for (const char* field : {"name", "formula", "source", "antiderivative", "unsupported"}) {
    json missing = record;
    missing.erase(field);
    try {
      read_integrand_record(JsonReader(missing, "context.integrands[0]"));
      ADD_FAILURE() << field << " left out";
    } catch (const SchemaError& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("context.integrands[0] has no '") + field),
                std::string::npos)
          << error.what();
    }
    json damaged = record;
    damaged[field] = 7;
    try {
      read_integrand_record(JsonReader(damaged, "context.integrands[0]"));
      ADD_FAILURE() << field << " as a number";
    } catch (const SchemaError& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("context.integrands[0].") + field),
                std::string::npos)
          << error.what();
    }
  }
}

TEST(ListIntegrands, ShowsEachIntegrandItsSourceAndTheTiersThatCannotRunIt) {
  const Outcome listed = ladder_command("list --integrands");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  // Each integrand's block, from its name line to the next.
  std::map<std::string, std::string> blocks;
  std::string current;
  for (const auto& line : lines_of(listed.output)) {
    if (!line.empty() && line[0] != ' ') current = line.substr(0, line.find(' '));
    blocks[current] += line + "\n";
  }
  ASSERT_EQ(blocks.size(), integrands().size()) << listed.output;
  for (std::size_t i = 0; i < integrands().size(); ++i) {
    const IntegrandInfo& info = integrands()[i];
    ASSERT_TRUE(blocks.count(info.name)) << info.name << "\n" << listed.output;
    const std::string& block = blocks.at(info.name);
    EXPECT_NE(block.find("from " + info.source + "; antiderivative " +
                         (info.antiderivative ? "given" : "not given")),
              std::string::npos)
        << block;
    EXPECT_NE(block.find(info.antiderivative ? "the integral from its antiderivative"
                                             : "the integral from Boost.Math"),
              std::string::npos)
        << block;
    // "    xsimd, openmp: it does not work on xsimd batches: …": the tiers a reason keeps out, and why.
    std::map<std::string, std::string> listed_reasons;
    for (const auto& line : lines_of(block)) {
      const auto it = line.find(": it ");
      if (line.rfind("    ", 0) != 0 || it == std::string::npos) continue;
      std::istringstream ids(line.substr(4, it - 4));
      for (std::string id; std::getline(ids >> std::ws, id, ',');) listed_reasons[id] = line.substr(it + 5);
    }
    std::map<std::string, std::string> reasons;
    for (const auto& tier : tiers())
      if (const auto reason = unsupported_reason(tier, i); !reason.empty()) reasons[tier.card.id] = reason;
    EXPECT_EQ(listed_reasons, reasons) << info.name << "\n" << block;
    EXPECT_EQ(block.find("every tier") != std::string::npos, reasons.empty()) << block;
  }
  if (!has_example("piecewise-branch"))
    GTEST_SKIP() << "this build has no example integrands (-DLADDER_EXAMPLE_INTEGRANDS=OFF)";
  const std::string& branch = blocks.at("piecewise-branch");
  EXPECT_NE(branch.find("from examples/integrands/"), std::string::npos) << branch;
  EXPECT_NE(branch.find("xsimd, "), std::string::npos) << branch;
  // Why depends on the CPU: with AVX-512 `if (x < c)` on a batch compiles (the mask converts to an integer)
  // and the probe's run finds its wrong value; with AVX2 it does not compile.
  const bool wrong_value =
      branch.find(": it does not work on xsimd batches: its value on xsimd batches at x = ") !=
      std::string::npos;
  const bool no_compile = branch.find(": it does not work on xsimd batches: ") != std::string::npos &&
                          branch.find("error: could not convert") != std::string::npos;
  EXPECT_TRUE(wrong_value || no_compile) << branch;
  EXPECT_NE(branch.find("tiers: naive, "), std::string::npos) << "the scalar tiers run it\n" << branch;
  EXPECT_NE(blocks.at("normal-cdf").find("antiderivative given"), std::string::npos)
      << blocks.at("normal-cdf");
}

TEST(ListIntegrands, JsonCarriesTheSameAsTheResultsContext) {
  const Outcome listed = ladder_command("list --integrands --json");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  const json all = json::parse(listed.output);
  ASSERT_EQ(all.size(), integrands().size());
  for (std::size_t i = 0; i < integrands().size(); ++i) {
    const IntegrandInfo& info = integrands()[i];
    const IntegrandRecord record = read_integrand_record(JsonReader(all[i]));
    EXPECT_EQ(record.name, info.name);
    EXPECT_EQ(record.formula, info.formula);
    EXPECT_EQ(record.source, info.source);
    EXPECT_EQ(record.antiderivative, info.antiderivative != nullptr);
    std::vector<std::string> runs_in;
    for (const auto& tier : tiers()) {
      const auto reason = unsupported_reason(tier, i);
      if (reason.empty())
        runs_in.push_back(tier.card.id);
      else
        EXPECT_EQ(record.unsupported.at(tier.card.id), reason) << info.name << " × " << tier.card.id;
    }
    EXPECT_EQ(all[i].at("tiers").get<std::vector<std::string>>(), runs_in) << info.name;
    EXPECT_TRUE(all[i].at("references").contains("integral")) << info.name;
  }
  const Outcome names = ladder_command("list --integrands --ids");
  ASSERT_EQ(names.exit_code, 0) << names.output;
  std::vector<std::string> expected;
  for (const auto& integrand : integrands()) expected.push_back(integrand.name);
  EXPECT_EQ(lines_of(names.output), expected);
}

}  // namespace
