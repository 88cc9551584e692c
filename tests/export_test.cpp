// `ladder export` in memory and on disk, without building what it writes (tests/export_build_test.sh
// builds it): the files of every tier that exports, what they copy and what they leave out, the options
// each kernel takes, the refusals (each names the bad value, and nothing is written), and replacing an
// earlier export whole.
#include "export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "command.hpp"
#include "embedded.hpp"
#include "errors.hpp"
#include "integrand_source.hpp"
#include "registry.hpp"
#include "results_file.hpp"
#include "sha256.hpp"
#include "template.hpp"
#include "text.hpp"

namespace {

using ladder::exporter::ExportedFile;
using ladder::exporter::ExportRequest;

ExportRequest request_for(const std::string& tier, const std::string& out,
                          const std::string& integrand = "") {
  ExportRequest request;
  request.tier = tier;
  request.integrand = integrand;
  request.name_space = "team";
  request.out = out;
  request.default_cells = {{1'000'000, 1}, {1'000'000, 2}};
  request.build.compiler = "GNU 12.2.0";
  request.build.target = "native";
  request.build.common_flags = "-O3 -DNDEBUG -march=native";
  request.build.ladder_version = "0.1.0";
  request.source.git_commit = "0123456789abcdef";
  request.source.git_dirty = "no";
  request.command_line = "ladder export " + tier;
  return request;
}

const ExportedFile* file(const std::vector<ExportedFile>& files, const std::string& path) {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

// Every tier this build has exports but the distributed one (its kernel needs a launcher and MPI started)
// and the one that dispatches at run time (its kernel is compiled once per architecture, each time in a file
// of its own): export/export.cpp says why.
bool exports(const ladder::TierCard& card) { return !card.distributed && !card.runtime_path; }

std::vector<std::string> exported_tiers() {
  std::vector<std::string> ids;
  for (const auto& tier : ladder::tiers())
    if (exports(tier.card)) ids.push_back(tier.card.id);
  return ids;
}

// ---- templates ----------------------------------------------------------------------------------------
TEST(ExportTemplate, ReplacesPlaceholdersAndKeepsOrDropsBlocks) {
  ladder::exporter::TemplateValues values;
  values.values = {{"NS", "team"}, {"N", "42"}};
  values.flags = {"ON"};
  const std::string text =
      "a @NS@::f(@N@)\n@if ON@\nkept\n@endif@\n@if OFF@\ndropped\n@endif@\n"
      "@if !OFF@\nnegated\n@endif@\nmail me@example.org, @decorator\n";
  EXPECT_EQ(ladder::exporter::expand("t", text, values),
            "a team::f(42)\nkept\nnegated\nmail me@example.org, @decorator\n");
}

TEST(ExportTemplate, AMissingValueOrAnOpenBlockIsABugNamed) {
  ladder::exporter::TemplateValues values;
  EXPECT_THROW(ladder::exporter::expand("t", "@MISSING@\n", values), std::logic_error);
  EXPECT_THROW(ladder::exporter::expand("t", "@if X@\nopen\n", values), std::logic_error);
  EXPECT_THROW(ladder::exporter::expand("t", "@endif@\n", values), std::logic_error);
  try {
    ladder::exporter::expand("CMakeLists.txt.in", "@MISSING@\n", values);
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("CMakeLists.txt.in: no value for @MISSING@"), std::string::npos);
  }
}

// ---- integrands -------------------------------------------------------------------------------------------
TEST(ExportIntegrands, AHeaderNamesItsIntegrandsAsItsRegistrationsQualifyThem) {
  const auto defined = ladder::exporter::integrands_defined_in(
      "struct Helper { int x; };\nstruct A { static constexpr std::string_view name = \"a-one\"; };\n"
      "LADDER_INTEGRAND(A);\nnamespace team { struct B { static constexpr std::string_view name = \"b\"; }; "
      "}\n"
      "LADDER_INTEGRAND(team::B);\n");
  ASSERT_EQ(defined.size(), 2u);
  EXPECT_EQ(defined[0].name, "a-one");
  EXPECT_EQ(defined[0].type, "::A");
  EXPECT_EQ(defined[1].name, "b");
  EXPECT_EQ(defined[1].type, "team::B");
}

TEST(ExportIntegrands, EveryIntegrandOfTheBuildHasItsHeaderEmbedded) {
  for (const auto& info : ladder::integrands()) {
    const auto source = ladder::exporter::find_integrand_source(info.name);
    EXPECT_EQ(source.name, info.name);
    EXPECT_TRUE(source.known.has_value());
    EXPECT_FALSE(source.text.empty());
    EXPECT_EQ(source.built_in, info.source == "built-in") << info.name;
    if (!source.built_in) {
      EXPECT_EQ(source.origin, info.source);
    }
  }
  EXPECT_EQ(ladder::exporter::find_integrand_source("").name, ladder::integrands().front().name);
}

// ---- every tier that exports ----------------------------------------------------------------------------
class EachExportedTier : public ::testing::TestWithParam<std::string> {};

TEST_P(EachExportedTier, CopiesItsKernelAndSharedHeadersAndNothingOfTheHarness) {
  const ladder::testing::TempDir dir;
  const auto& card = ladder::find_tier(GetParam()).card;
  const auto files = ladder::exporter::project_files(request_for(GetParam(), (dir / "out").string()));
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "project_files wrote something";
  const std::string kernel = std::filesystem::path(card.kernel_header).filename().string();
  ASSERT_NE(file(files, "include/team/" + kernel), nullptr) << card.kernel_header;
  for (const char* needed :
       {"CMakeLists.txt", "README.md", "include/team/midpoint.hpp", "include/team/gauss.hpp",
        "src/midpoint.cpp", "src/kernel.hpp", "tests/midpoint_test.cpp", "bench/midpoint_bench.cpp",
        "example/integrate.cpp", ".ladder-export.json"})
    EXPECT_NE(file(files, needed), nullptr) << needed;
  EXPECT_EQ(file(files, "python/module.cpp"), nullptr) << "no --python, no module";
  static const std::regex include(R"re(#include "([^"]+)")re");
  for (const auto& f : files) {
    if (!f.path.starts_with("include/team/")) continue;
    for (std::sregex_iterator it(f.text.begin(), f.text.end(), include), end; it != end; ++it) {
      const std::string included = (*it)[1];
      EXPECT_TRUE(included == "ladder/integrand.hpp" || file(files, "include/team/" + included))
          << f.path << " includes \"" << included << "\", which the export does not hold";
      EXPECT_FALSE(included == "tier.hpp" || included == "registry.hpp" || included == "integrands.hpp")
          << f.path << " includes Ladder's " << included;
    }
    if (f.path != "include/team/ladder/integrand.hpp") {
      EXPECT_EQ(f.text.find("namespace ladder"), std::string::npos)
          << f.path << ": the namespace is not renamed";
      EXPECT_EQ(f.text.find("ladder::"), std::string::npos) << f.path << ": a ladder:: name is left";
    }
  }
  // The flags on the kernel's translation unit only, and exactly the card's: Clang's own only under Clang,
  // and Clang's libmvec for a loop vectorized with -fopenmp-simd, so either compiler builds it as designed.
  const std::string& cmake = file(files, "CMakeLists.txt")->text;
  std::string flags;
  bool openmp_simd = false, veclib = false;
  for (const auto& flag : card.flags) {
    const bool clang_only = flag.starts_with("-fveclib") || flag == "-Wno-error=pass-failed";
    flags += (flags.empty() ? "" : ";") + (clang_only ? "$<$<CXX_COMPILER_ID:Clang>:" + flag + ">" : flag);
    openmp_simd = openmp_simd || flag == "-fopenmp-simd";
    veclib = veclib || flag.starts_with("-fveclib");
  }
  if (openmp_simd && !veclib) flags += ";$<$<CXX_COMPILER_ID:Clang>:-fveclib=libmvec>";
  const std::string kernel_file = card.evaluates.device ? "kernel.cu" : "kernel.cpp";
  if (card.flags.empty())
    EXPECT_EQ(cmake.find("set_source_files_properties"), std::string::npos);
  else
    EXPECT_NE(cmake.find("set_source_files_properties(src/" + kernel_file + " PROPERTIES COMPILE_OPTIONS \"" +
                         flags + "\")"),
              std::string::npos)
        << flags;
  EXPECT_NE(file(files, "src/" + kernel_file), nullptr);
  // A find_package for each library on the card, and none for anything else.
  std::set<std::string> expected;
  for (const auto& library : card.libraries) {
    if (library.starts_with("xsimd")) expected.insert("xsimd");
    if (library.starts_with("OpenMP")) expected.insert("OpenMP");
    if (library.starts_with("oneTBB")) expected.insert("TBB");
    if (library.starts_with("Eigen")) expected.insert("Eigen3");
    if (library.starts_with("CUDA toolkit")) expected.insert("CUDAToolkit");
    if (library.starts_with("Highway")) expected.insert("hwy");
    if (library.starts_with("SLEEF")) expected.insert("PkgConfig");  // no CMake package: pkg_check_modules
  }
  expected.insert({"GTest", "benchmark"});
  std::set<std::string> found;
  static const std::regex find_package(R"(find_package\((\w+))");
  for (std::sregex_iterator it(cmake.begin(), cmake.end(), find_package), end; it != end; ++it)
    found.insert((*it)[1]);
  EXPECT_EQ(found, expected);
  // The README carries the card.
  const std::string& readme = file(files, "README.md")->text;
  EXPECT_NE(readme.find(card.summary), std::string::npos);
  for (const auto& concept_name : card.concepts)
    EXPECT_NE(readme.find(concept_name), std::string::npos) << concept_name;
  EXPECT_NE(readme.find("this export was made without a run"), std::string::npos);
}

TEST_P(EachExportedTier, ItsOptionsAreWhatItsKernelTakes) {
  const ladder::testing::TempDir dir;
  const auto& card = ladder::find_tier(GetParam()).card;
  const auto files = ladder::exporter::project_files(request_for(GetParam(), (dir / "out").string()));
  const std::string& api = file(files, "include/team/midpoint.hpp")->text;
  const std::string& kernel =
      file(files, "include/team/" + std::filesystem::path(card.kernel_header).filename().string())->text;
  EXPECT_EQ(api.find("int threads") != std::string::npos, card.parallel);
  EXPECT_EQ(api.find("bool reproducible") != std::string::npos,
            card.reproducible == ladder::Reproducible::on_request);
  EXPECT_EQ(api.find("std::vector<int> cpus") != std::string::npos,
            kernel.find("std::vector<int> cpus") != std::string::npos);
  const std::string& test = file(files, "tests/midpoint_test.cpp")->text;
  const std::string depth =
      "{{1000003, 1}, " + ladder::format_number("%.17g", card.summation_depth(1000003, 1)) + "}";
  EXPECT_NE(test.find(depth), std::string::npos)
      << "the card's depth at n = 1000003 is not in the test: " << depth;
  // The same bits on every call by default, past one thread, only where the card promises them always: an
  // on-request tier's default reduce joins its tasks in the order they finish.
  const bool same_bits_past_one_thread = test.find("if (threads > 1) continue;") == std::string::npos;
  EXPECT_EQ(same_bits_past_one_thread, !card.parallel || card.reproducible == ladder::Reproducible::always);
}

INSTANTIATE_TEST_SUITE_P(Export, EachExportedTier, ::testing::ValuesIn(exported_tiers()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// ---- refusals: each names the bad value, and nothing is written --------------------------------------
void expect_refused(ExportRequest request, const std::string& named, const std::string& why) {
  try {
    ladder::exporter::project_files(request);
    ADD_FAILURE() << "accepted: " << request.command_line << " (" << request.tier << ", " << request.integrand
                  << ", " << request.name_space << ")";
  } catch (const ladder::InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(named), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
}

TEST(ExportRefuses, UnknownTiersTiersThatDoNotExportAndIntegrandsATierCannotRun) {
  const ladder::testing::TempDir dir;
  const std::string out = (dir / "out").string();
  expect_refused(request_for("turbo", out), "turbo", "xsimd");
  for (const auto& tier : ladder::tiers())
    if (!exports(tier.card)) expect_refused(request_for(tier.card.id, out), tier.card.id, "not exported");
  expect_refused(request_for("tuned-exp", out, "log-atan"), "log-atan", "cannot run");
  const std::string tuned_reason(ladder::probe_for(ladder::integrands()[ladder::find_integrand("log-atan")],
                                                   ladder::find_tier("tuned-exp").card.evaluates)
                                     .error);
  expect_refused(request_for("tuned-exp", out, "log-atan"), "log-atan", tuned_reason);
  expect_refused(request_for("xsimd", out, "no-such-integrand"), "no-such-integrand", "gauss");
  expect_refused(request_for("xsimd", out, (dir / "missing.hpp").string()), "missing.hpp",
                 "not a header file");
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(ExportRefuses, ANamespaceThatIsNotAnIdentifierOrIsTaken) {
  const ladder::testing::TempDir dir;
  for (const std::string bad : {"2fast", "a-b", "__x", "_Upper", "", "with space"}) {
    auto request = request_for("xsimd", (dir / "out").string());
    request.name_space = bad;
    expect_refused(request, "--namespace '" + bad + "'", "not a C++ identifier");
  }
  for (const std::string taken : {"std", "xsimd", "tbb", "class", "Eigen", "testing", "benchmark"}) {
    auto request = request_for("xsimd", (dir / "out").string());
    request.name_space = taken;
    expect_refused(request, "'" + taken + "'", "choose another");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(ExportRefuses, AnOutThatExistsAndIsNotAnEarlierExportAndLeavesItAsItWas) {
  const ladder::testing::TempDir dir;
  std::filesystem::create_directories(dir / "mine");
  ladder::testing::write_text(dir / "mine" / "notes.txt", "my own notes");
  expect_refused(request_for("xsimd", (dir / "mine").string()), (dir / "mine").string(),
                 "is not an earlier export");
  EXPECT_EQ(ladder::testing::read_text(dir / "mine" / "notes.txt"), "my own notes");
  ladder::testing::write_text(dir / "file", "a file");
  expect_refused(request_for("xsimd", (dir / "file").string()), "file", "is not a directory");
}

TEST(ExportRefuses, ARunThatCannotBeReadOrMeasuredNoCellOfTheTier) {
  const ladder::testing::TempDir dir;
  auto request = request_for("xsimd", (dir / "out").string());
  request.from_run = (dir / "no-such-run").string();
  EXPECT_THROW(ladder::exporter::project_files(request), ladder::InputError);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// ---- writing ---------------------------------------------------------------------------------------------
TEST(ExportWrites, AWholeProjectAndReplacesAnEarlierExportWhole) {
  const ladder::testing::TempDir dir;
  const std::string out = (dir / "team").string();
  const auto first = ladder::exporter::project_files(request_for("openmp", out));
  EXPECT_FALSE(ladder::exporter::write_project(out, first));
  for (const auto& f : first) EXPECT_EQ(ladder::testing::read_text(dir / "team" / f.path), f.text) << f.path;
  // A file the earlier export did not write is never deleted: the export is refused, naming it.
  ladder::testing::write_text(dir / "team" / "include" / "team" / "mine.hpp", "a user's own");
  expect_refused(request_for("xsimd", out), "include/team/mine.hpp", "did not write");
  const auto second =
      ladder::exporter::project_files(request_for("openmp", out + "-elsewhere"));  // checked, not written
  EXPECT_THROW(ladder::exporter::write_project(out, second), ladder::InputError);
  EXPECT_EQ(ladder::testing::read_text(dir / "team" / "include" / "team" / "mine.hpp"), "a user's own");
  std::filesystem::remove(dir / "team" / "include" / "team" / "mine.hpp");
  const auto third =
      ladder::exporter::project_files(request_for("xsimd", out));  // an earlier export: accepted
  EXPECT_TRUE(ladder::exporter::write_project(out, third));
  EXPECT_FALSE(std::filesystem::exists(dir / "team" / "include" / "team" / "openmp.hpp"));
  EXPECT_TRUE(std::filesystem::exists(dir / "team" / "include" / "team" / "xsimd.hpp"));
  const auto marker = ladder::testing::read_json(dir / "team" / ladder::exporter::marker_file);
  EXPECT_EQ(marker["tier"], "xsimd");
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.str()))
    left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"team"}) << "a partial or old directory was left beside it";
}

TEST(ExportWrites, WithPythonAModuleAndItsTest) {
  const ladder::testing::TempDir dir;
  auto request = request_for("tbb", (dir / "out").string());
  request.python = true;
  const auto files = ladder::exporter::project_files(request);
  ASSERT_NE(file(files, "python/module.cpp"), nullptr);
  ASSERT_NE(file(files, "python/test_midpoint.py"), nullptr);
  const std::string& module = file(files, "python/module.cpp")->text;
  EXPECT_NE(module.find("PYBIND11_MODULE(team, module)"), std::string::npos);
  EXPECT_NE(module.find("py::call_guard<py::gil_scoped_release>()"), std::string::npos);
  EXPECT_NE(module.find("py::arg(\"threads\") = 1"), std::string::npos);
  EXPECT_NE(module.find("py::arg(\"reproducible\") = false"), std::string::npos);
  EXPECT_NE(file(files, "CMakeLists.txt")->text.find("pybind11_add_module(team_python"), std::string::npos);
}

// ---- from a run ----------------------------------------------------------------------------------------
TEST(ExportFromARun, TheReadmeCarriesTheRunsFiguresAndTheBenchmarkItsSizes) {
  const ladder::testing::TempDir dir;
  const auto unpacked = ladder::testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                                                 "/default_run_results.json.gz > " +
                                                                 (dir / "results.json").string());
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  const auto run = ladder::read_results_file(dir.str());
  auto request = request_for("openmp", (dir / "out").string());
  request.from_run = dir.str();
  const auto files = ladder::exporter::project_files(request);
  const std::string& readme = file(files, "README.md")->text;
  const std::string& bench = file(files, "bench/midpoint_bench.cpp")->text;
  int cells = 0;
  for (const auto& cell : run.cells) {
    if (cell.tier != "openmp" || cell.integrand != "gauss" || !cell.ok()) continue;
    ++cells;
    EXPECT_NE(
        readme.find("| " + ladder::format_count(static_cast<double>(cell.n)) + " | " +
                    std::to_string(cell.threads) + " | " + ladder::format_seconds(cell.median()) + " | "),
        std::string::npos)
        << "n = " << cell.n << ", threads = " << cell.threads;
    EXPECT_NE(bench.find("->Args({" + std::to_string(cell.n) + ", " + std::to_string(cell.threads) + "})"),
              std::string::npos);
  }
  EXPECT_GT(cells, 0) << "the fixture has no openmp cell on gauss";
  // The fixture's run recorded no kernel text (it is older than the kernel headers): the README says so.
  EXPECT_NE(readme.find("variants/kernels/openmp.hpp: the run did not record its text"), std::string::npos);
  EXPECT_NE(readme.find(run.context.cpu_model), std::string::npos);
  EXPECT_EQ(readme.find("this export was made without a run"), std::string::npos);
  // A run without this tier's cells is refused, naming the tier.
  request.tier = "tuned-exp";
  request.integrand = "pi";
  bool tuned_on_pi = false;
  for (const auto& cell : run.cells)
    tuned_on_pi = tuned_on_pi || (cell.tier == "tuned-exp" && cell.integrand == "pi");
  if (!tuned_on_pi) expect_refused(request, "tuned-exp", "measured no cell");
}

// The run's recorded SHA-256 of the kernel header against the text the export copies: the same, no word;
// another, the README says the figures may be for other code, and the command warns.
TEST(ExportFromARun, SaysWhenTheRunMeasuredOtherKernelText) {
  const ladder::testing::TempDir dir;
  const auto unpacked = ladder::testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                                                 "/default_run_results.json.gz > " +
                                                                 (dir / "fixture.json").string());
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  auto results = ladder::testing::read_json(dir / "fixture.json");
  const std::string kernel = "variants/kernels/openmp.hpp", shared = "variants/simd_kernel.hpp";
  auto& sources = results["context"]["source"]["tier_sources"];
  sources[kernel] = ladder::sha256_hex(std::string(*ladder::exporter::embedded(kernel)));
  sources[shared] = ladder::sha256_hex(std::string(*ladder::exporter::embedded(shared)));
  std::filesystem::create_directories(dir / "same");
  ladder::testing::write_text(dir / "same" / "results.json", results.dump());
  auto request = request_for("openmp", (dir / "out").string());
  request.from_run = (dir / "same").string();
  std::vector<std::string> warnings;
  auto files = ladder::exporter::project_files(request, &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(file(files, "README.md")->text.find("may be for other code"), std::string::npos);

  sources[kernel] = std::string(64, '0');
  std::filesystem::create_directories(dir / "other");
  ladder::testing::write_text(dir / "other" / "results.json", results.dump());
  request.from_run = (dir / "other").string();
  files = ladder::exporter::project_files(request, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(kernel + ": the run measured another text (SHA-256 000000000000"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(
      file(files, "README.md")->text.find("**These figures may be for other code than this project's:**"),
      std::string::npos);
}

// ---- the command line ------------------------------------------------------------------------------------
TEST(ExportCommand, WritesTheProjectAndSaysHowToBuildIt) {
  const ladder::testing::TempDir dir;
  const auto done = ladder::testing::run_command(LADDER_BINARY, "export xsimd --out " + (dir / "p").string());
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_NE(done.output.find("midpoint::midpoint"), std::string::npos) << done.output;
  // The hint builds beside the export, not in it: configured as it says, the next export still replaces it.
  const std::string beside = (dir / "p").string() + "-build";
  EXPECT_NE(done.output.find("cmake -S " + (dir / "p").string() + " -B " + beside + " "), std::string::npos)
      << done.output;
  EXPECT_NE(done.output.find("ctest --test-dir " + beside), std::string::npos) << done.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "p" / "include" / "midpoint" / "xsimd.hpp"));
  const auto configured =
      ladder::testing::run_command("cmake", "-S " + (dir / "p").string() + " -B " + beside + " -G Ninja");
  ASSERT_EQ(configured.exit_code, 0) << configured.output;
  const auto again = ladder::testing::run_command(LADDER_BINARY, "export tbb --out " + (dir / "p").string());
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("Replaced the earlier export"), std::string::npos) << again.output;
}

TEST(ExportCommand, BadInputExitsTwoNamingItAndWritesNothing) {
  const ladder::testing::TempDir dir;
  const std::string out = " --out " + (dir / "p").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"export turbo" + out, "unknown tier 'turbo'"},
      {"export mpi" + out, "not exported"},
      {"export dispatch" + out,
       "the dispatch tier is not exported: its kernel is compiled once per architecture"},
      {"export tuned-exp --integrand log-atan" + out, "cannot run the integrand 'log-atan'"},
      {"export eigen --integrand piecewise-branch" + out, "cannot run the integrand 'piecewise-branch'"},
      {"export xsimd --namespace 9lives" + out, "--namespace '9lives' is not a C++ identifier"},
      {"export xsimd --namespace std" + out, "--namespace 'std' is a C++ keyword or the namespace"},
      {"export xsimd --integrand nope" + out, "--integrand 'nope' is unknown"},
      {"export xsimd --from " + (dir / "no-run").string() + out, "no-run"},
      {"export xsimd", "--out is required"},
  };
  for (const auto& [arguments, message] : cases) {
    const auto refused = ladder::testing::run_command(LADDER_BINARY, arguments);
    EXPECT_EQ(refused.exit_code, 2) << arguments << "\n" << refused.output;
    EXPECT_NE(refused.output.find(message), std::string::npos) << arguments << "\n" << refused.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "p")) << arguments << " wrote " << (dir / "p");
  }
}

}  // namespace
