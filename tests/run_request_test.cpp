// The run's options parsed once (run_request.hpp): each option in its type, each bad value refused with an
// InputError that names it and what is accepted; and a worker's spec (worker_spec.hpp) through JSON and
// back, with the keys the Python peer's worker reads.
#include "run_request.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "errors.hpp"
#include "json_reader.hpp"
#include "registry.hpp"
#include "worker_spec.hpp"

namespace ladder::testing {
namespace {

// The InputError's message for arguments that `change` makes bad, or "" when they parse.
std::string refusal(const std::function<void(RunArguments&)>& change) {
  RunArguments arguments;
  change(arguments);
  try {
    parse_request(arguments);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

void expect_named(const std::string& message, const std::vector<std::string>& parts) {
  ASSERT_FALSE(message.empty()) << "accepted";
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
}

TEST(RunRequest, EachOptionInItsType) {
  RunArguments arguments;
  arguments.sizes = {"1e6", "2^10", "1e6"};
  arguments.threads = {"4", "cores", "all"};
  arguments.integrand = integrands().front().name;
  arguments.a = "-1.5";
  arguments.b = "2";
  arguments.python_limit = "1e5";
  arguments.seed = "18446744073709551615";
  arguments.budget = "15m";
  arguments.limits_tool = "likwid-bench";
  arguments.preset = "quick";
  const RunRequest request = parse_request(arguments);
  EXPECT_EQ(request.sizes, (std::vector<std::int64_t>{1024, 1'000'000})) << "sorted, each once";
  ASSERT_EQ(request.threads.size(), 3u);
  EXPECT_EQ(request.threads[0].kind, ThreadsWanted::Kind::count);
  EXPECT_EQ(request.threads[0].count, 4);
  EXPECT_EQ(request.threads[1].kind, ThreadsWanted::Kind::cores);
  EXPECT_EQ(request.threads[2].kind, ThreadsWanted::Kind::all);
  EXPECT_EQ(request.integrands, (std::vector<std::string>{integrands().front().name}));
  EXPECT_EQ(request.a, -1.5);
  EXPECT_EQ(request.b, 2.0);
  EXPECT_EQ(request.python_limit, 100'000);
  EXPECT_EQ(request.seed, 18446744073709551615u);
  ASSERT_TRUE(request.budget);
  EXPECT_EQ(request.budget->seconds, 900);
  EXPECT_EQ(request.budget->text, "15m");
  EXPECT_EQ(request.limits_tool, LimitsTool::likwid);
  EXPECT_EQ(request.preset, "quick");
  EXPECT_FALSE(request.resume);
  EXPECT_FALSE(request.peers);
}

TEST(RunRequest, UnsetOptionsStayUnset) {
  const RunRequest request = parse_request(RunArguments{});
  EXPECT_FALSE(request.preset || request.integrands || request.a || request.b || request.seed ||
               request.budget || request.python_limit || request.repetitions || request.min_time);
  EXPECT_TRUE(request.sizes.empty() && request.threads.empty() && request.builds.empty());
  EXPECT_EQ(request.limits_tool, LimitsTool::probe) << "Ladder's probes unless --limits-tool says otherwise";
}

TEST(RunRequest, EachBadValueIsNamedWithWhatIsAccepted) {
  expect_named(refusal([](RunArguments& a) { a.sizes = {"1e6", "lots"}; }), {"lots"});
  expect_named(refusal([](RunArguments& a) { a.threads = {"many"}; }), {"many"});
  expect_named(refusal([](RunArguments& a) { a.threads = {"0"}; }), {"0"});
  expect_named(refusal([](RunArguments& a) { a.a = "zero"; }), {"zero"});
  expect_named(refusal([](RunArguments& a) { a.b = "inf"; }), {"inf"});
  expect_named(refusal([](RunArguments& a) { a.python_limit = "big"; }), {"big"});
  expect_named(refusal([](RunArguments& a) { a.integrand = "nonesuch"; }), {"nonesuch"});
  expect_named(refusal([](RunArguments& a) { a.seed = "-3"; }),
               {"--seed '-3'", "whole number from 0 to 2^64 - 1"});
  expect_named(refusal([](RunArguments& a) { a.budget = "2minutes"; }), {"2minutes"});
  expect_named(refusal([](RunArguments& a) { a.limits_tool = "perf"; }), {"perf", "probe"});
  expect_named(refusal([](RunArguments& a) { a.repetitions = 0; }), {"--reps 0", "from 1 to 1000"});
  expect_named(refusal([](RunArguments& a) { a.repetitions = 1001; }), {"--reps 1001"});
  expect_named(refusal([](RunArguments& a) { a.min_time = 0; }), {"--min-time", "above 0 and at most 100"});
  expect_named(refusal([](RunArguments& a) { a.compilers = {"tcc"}; }), {"tcc"});
  expect_named(refusal([](RunArguments& a) { a.arches = {"pentium"}; }), {"pentium"});
  EXPECT_EQ(refusal([](RunArguments& a) { a.sizes = {"1e6"}; }), "");
}

TEST(WorkerSpec, RoundTripsThroughJsonWithThePeersKeys) {
  WorkerSpec spec;
  spec.cell.tier = "naive";
  spec.cell.integrand = "gauss";
  spec.cell.a = -2;
  spec.cell.b = 3;
  spec.cell.n = 4096;
  spec.cell.threads = 2;
  spec.matrix.repetitions = 7;
  spec.matrix.min_time = 0.25;
  spec.matrix.min_warmup_time = 0.125;
  spec.matrix.sizes = {4096};
  spec.matrix.tiers = {"naive"};
  spec.matrix.integrands = {"gauss"};
  Reference reference;
  reference.midpoint = 1.25L;
  reference.midpoint_method = "long double sum";
  reference.absolute_sum = 3;
  spec.reference = reference;
  spec.rounding_bound = 1.5e-12;
  spec.cpus = {0, 2};
  const nlohmann::json written = to_json(spec);
  for (const char* key : {"cell", "matrix", "reference", "rounding_bound", "cpus"})
    EXPECT_TRUE(written.contains(key)) << key;
  EXPECT_EQ(written.at("matrix").at("repetitions"), 7) << "scripts/peers/worker.py reads it";
  const nlohmann::json parsed = nlohmann::json::parse(written.dump());
  const WorkerSpec read = read_worker_spec(JsonReader(parsed, "spec"));
  EXPECT_EQ(nlohmann::json(read.cell), nlohmann::json(spec.cell));
  EXPECT_EQ(Matrix::difference(read.matrix, spec.matrix), "");
  ASSERT_TRUE(read.reference);
  EXPECT_EQ(to_text(*read.reference), to_text(reference));
  EXPECT_EQ(read.rounding_bound, 1.5e-12);
  EXPECT_EQ(read.cpus, spec.cpus);
  EXPECT_EQ(to_json(read), written);
}

// A bound the reference cannot give (a user integrand's, not finite) is written as null and read back as
// not a number, never refused: the user-integrands test's reciprocal cells failed on it once.
TEST(WorkerSpec, ABoundThatIsNotFiniteRoundTripsAsNotANumber) {
  WorkerSpec spec;
  spec.cell.tier = "naive";
  spec.cell.integrand = "gauss";
  spec.cell.n = 3;
  spec.matrix.sizes = {3};
  spec.matrix.tiers = {"naive"};
  spec.matrix.integrands = {"gauss"};
  spec.rounding_bound = std::numeric_limits<double>::quiet_NaN();
  const nlohmann::json parsed = nlohmann::json::parse(to_json(spec).dump());
  EXPECT_TRUE(parsed.at("rounding_bound").is_null());
  EXPECT_TRUE(std::isnan(read_worker_spec(JsonReader(parsed, "spec")).rounding_bound));
}

TEST(WorkerSpec, AMissingCellIsNamed) {
  const nlohmann::json document = {{"matrix", nlohmann::json::object()}};
  try {
    read_worker_spec(JsonReader(document, "spec"));
    FAIL() << "a spec without its cell was read";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("cell"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ladder::testing
