// Issue 37, `ladder export` against bad and damaged input: headers with long runs of characters (read without
// recursion), headers without a registration, namespaces that cannot compile, --out paths with a trailing
// '/', '.', long names and Latin-1 bytes, a directory with a stray or damaged marker or with a user's own
// files (never replaced), the new export swapped in with one exchange, and the temporaries a stopped export
// left swept by the next one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "errors.hpp"
#include "export.hpp"
#include "export_commands.hpp"
#include "integrand_source.hpp"
#include "out_directory.hpp"

namespace {

namespace fs = std::filesystem;
using ladder::testing::entries;
using ladder::testing::export_to;
using ladder::testing::read_text;
using ladder::testing::run_command;
using ladder::testing::shell_quoted;
using ladder::testing::TempDir;
using ladder::testing::write_text;

const std::string ladder_binary = LADDER_BINARY;

const std::string integrand_body = "{ static constexpr std::string_view name = \"long-one\"; };\n";

// ---- D2: headers are read without recursion -----------------------------------------------------------
TEST(ExportHeaders, LongRunsOfCharactersAreReadWithoutOverflowingTheStack) {
  const std::string spaces(100'000, ' '), letters(100'000, 'x');
  auto defined =
      ladder::exporter::integrands_defined_in("struct A" + spaces + integrand_body + "LADDER_INTEGRAND(A);");
  ASSERT_EQ(defined.size(), 1u);
  EXPECT_EQ(defined[0].type, "::A");
  defined = ladder::exporter::integrands_defined_in("struct A { static constexpr std::string_view name = \"" +
                                                    letters + "\"; };\nLADDER_INTEGRAND(A);");
  ASSERT_EQ(defined.size(), 1u);
  EXPECT_EQ(defined[0].name, letters);
  const std::string type = "T" + letters;
  defined = ladder::exporter::integrands_defined_in("struct " + type + " " + integrand_body +
                                                    "LADDER_INTEGRAND(" + type + ");");
  ASSERT_EQ(defined.size(), 1u);
  EXPECT_EQ(defined[0].type, "::" + type);
  // Comments and strings are not read as code.
  defined = ladder::exporter::integrands_defined_in(
      "// struct B { name = \"no\" };\nconst char* s = \"struct C {\";\nstruct A " + integrand_body +
      "/* LADDER_INTEGRAND(B); */ LADDER_INTEGRAND(team::A);");
  ASSERT_EQ(defined.size(), 1u);
  EXPECT_EQ(defined[0].type, "team::A");
}

TEST(ExportHeaders, TheCommandTakesOrRefusesALongRunAndNeverCrashes) {
  const TempDir dir;
  const std::string spaces(30'000, ' ');
  write_text(dir / "long.hpp", "struct A" + spaces + integrand_body + "LADDER_INTEGRAND(A);\n");
  const auto done = export_to(dir / "out", "--integrand " + shell_quoted(dir / "long.hpp"));
  EXPECT_EQ(done.exit_code, 0) << done.output;
  write_text(dir / "name.hpp", "struct A { static constexpr std::string_view name = \"" +
                                   std::string(30'000, 'n') + "\"; };\nLADDER_INTEGRAND(A);\n");
  const auto named = export_to(dir / "out2", "--integrand " + shell_quoted(dir / "name.hpp"));
  EXPECT_TRUE(named.exit_code == 0 || named.exit_code == 2) << named.exit_code << named.output.substr(0, 400);
}

TEST(ExportHeaders, AHeaderOfManyIntegrandsIsNotListedWhole) {
  const TempDir dir;
  std::string text;
  for (int i = 0; i < 20'000; ++i)
    text += "struct S" + std::to_string(i) + " { static constexpr std::string_view name = \"s" +
            std::to_string(i) + "\"; };\nLADDER_INTEGRAND(S" + std::to_string(i) + ");\n";
  write_text(dir / "many.hpp", text);
  const auto refused = export_to(dir / "out", "--integrand " + shell_quoted(dir / "many.hpp"));
  EXPECT_EQ(refused.exit_code, 2) << refused.output.substr(0, 400);
  EXPECT_NE(refused.output.find("defines 20000 integrands"), std::string::npos)
      << refused.output.substr(0, 400);
  EXPECT_NE(refused.output.find("and 19992 more"), std::string::npos) << refused.output.substr(0, 400);
  EXPECT_LT(refused.output.size(), 1000u);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// ---- D13: a header without its registration ------------------------------------------------------------
TEST(ExportHeaders, AHeaderWithoutItsRegistrationIsRefused) {
  const TempDir dir;
  write_text(dir / "unregistered.hpp", "struct A " + integrand_body);
  const auto refused = export_to(dir / "out", "--integrand " + shell_quoted(dir / "unregistered.hpp"));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("has no LADDER_INTEGRAND(Type); line"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// ---- D11: namespaces that cannot compile ---------------------------------------------------------------
TEST(ExportNamespaces, MacrosAndGlobalNamesAreRefusedWithTheReason) {
  const TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"errno", "defines it as a macro"},
      {"assert", "declares it in the global namespace or defines it"},
      {"stdin", "global namespace"},
      {"offsetof", "global namespace"},
      {"sync", "global namespace"},
      {"main", "main()"},
      {"linux", "GCC predefines it"},
      {"unix", "GCC predefines it"},
      {"i386", "GCC predefines it"},
      {"NULL", "capitals only"},
      {"EOF", "capitals only"},
      {"M_PI", "capitals only"},
      {"SYS_read", "begins with capitals and '_'"},
      {"Py_None", "Python"}};
  for (const auto& [ns, why] : cases) {
    const auto refused = export_to(dir / "out", "--namespace " + ns);
    EXPECT_EQ(refused.exit_code, 2) << ns << ": " << refused.output;
    EXPECT_NE(refused.output.find("--namespace '" + ns + "' cannot be the exported code's namespace"),
              std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find(why), std::string::npos) << ns << ": " << refused.output;
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
  for (const std::string fine : {"team", "fast_math_team", "Acme", "hpc2", "Physics_v2"}) {
    const auto done = export_to(dir / fine, "--namespace " + fine);
    EXPECT_EQ(done.exit_code, 0) << fine << ": " << done.output;
  }
}

// ---- D6: a marker that is no manifest, and a user's own files -------------------------------------------
TEST(ExportOut, AStrayOrDamagedMarkerIsRefusedAndNothingIsDeleted) {
  const TempDir dir;
  for (const std::string marker : {"", "{}", "not json", "{\"files\": [1]}"}) {
    fs::create_directories(dir / "proj");
    write_text(dir / "proj" / "notes.txt", "precious");
    write_text(dir / "proj" / ladder::exporter::marker_file, marker);
    const auto refused = export_to(dir / "proj");
    EXPECT_EQ(refused.exit_code, 2) << "marker '" << marker << "': " << refused.output;
    EXPECT_NE(refused.output.find(".ladder-export.json"), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("no earlier export's manifest"), std::string::npos) << refused.output;
    EXPECT_EQ(read_text(dir / "proj" / "notes.txt"), "precious") << "marker '" << marker << "'";
  }
  EXPECT_EQ(entries(dir.str()), std::vector<std::string>{"proj"});
}

TEST(ExportOut, AnEarlierExportHoldingAUsersFilesIsNotReplaced) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "proj").exit_code, 0);
  const std::string before = read_text(dir / "proj" / ladder::exporter::marker_file);
  write_text(dir / "proj" / "notes.txt", "precious");
  fs::create_directories(dir / "proj" / "build" / "CMakeFiles");
  write_text(dir / "proj" / "build" / "CMakeCache.txt", "a build");
  for (int i = 0; i < 30; ++i)
    write_text(dir / "proj" / "src" / ("mine" + std::to_string(i) + ".cpp"), "mine");
  const auto refused = export_to(dir / "proj", "", "xsimd");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("holds 32 file(s) or folder(s) it did not write"), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("build/"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("and 27 more"), std::string::npos) << refused.output;
  EXPECT_LT(refused.output.size(), 1000u);
  EXPECT_EQ(read_text(dir / "proj" / "notes.txt"), "precious");
  EXPECT_EQ(read_text(dir / "proj" / "build" / "CMakeCache.txt"), "a build");
  EXPECT_EQ(read_text(dir / "proj" / ladder::exporter::marker_file), before) << "the export was replaced";
  // Without them it is replaced.
  fs::remove_all(dir / "proj" / "build");
  fs::remove(dir / "proj" / "notes.txt");
  for (int i = 0; i < 30; ++i) fs::remove(dir / "proj" / "src" / ("mine" + std::to_string(i) + ".cpp"));
  const auto replaced = export_to(dir / "proj", "", "xsimd");
  EXPECT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_TRUE(fs::exists(dir / "proj" / "include" / "midpoint" / "xsimd.hpp"));
  EXPECT_EQ(entries(dir.str()), std::vector<std::string>{"proj"});
}

// ---- D7: one exchange, and the temporaries of a stopped export swept -----------------------------------
// A stale temporary as a stopped export leaves it: a manifest and some of the files it lists.
void stale_copy(const fs::path& path, const std::string& extra = "") {
  fs::create_directories(path / "include" / "midpoint");
  write_text(path / ladder::exporter::marker_file,
             "{\"files\": [\"CMakeLists.txt\", \"include/midpoint/a.hpp\"]}");
  write_text(path / "include" / "midpoint" / "a.hpp", "half");
  if (!extra.empty()) write_text(path / extra, "a user's");
}

TEST(ExportOut, TheNextExportSweepsWhatAStoppedOneLeftAndNothingElse) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "proj").exit_code, 0);
  const int gone = 999'999'999;  // above any pid_max: no such process
  const std::string pid = std::to_string(gone);
  stale_copy(dir / (".proj.partial-" + pid + "-1"));
  stale_copy(dir / (".proj.old-" + pid + "-2"));
  stale_copy(dir / (".proj.old-" + pid + "-3"), "mine.txt");               // holds an unlisted file: kept
  fs::create_directories(dir / (".proj.partial-" + pid + "-4"));           // no manifest yet: swept too
  stale_copy(dir / (".proj.partial-x-5"));                                 // not Ladder's naming: kept
  stale_copy(dir / (".other.partial-" + pid + "-6"));                      // another export's: kept
  stale_copy(dir / (".proj.partial-" + std::to_string(getpid()) + "-7"));  // a live process's: kept
  const auto done = export_to(dir / "proj", "", "xsimd");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  std::vector<std::string> left = {".other.partial-" + pid + "-6", ".proj.old-" + pid + "-3",
                                   ".proj.partial-" + std::to_string(getpid()) + "-7", ".proj.partial-x-5",
                                   "proj"};
  std::sort(left.begin(), left.end());
  EXPECT_EQ(entries(dir.str()), left);
}

// The target is swapped with the new export in one renameat2(RENAME_EXCHANGE), never renamed away first
// (a kill between two renames left no export at all). Read from strace, where it is installed.
TEST(ExportOut, AnEarlierExportIsSwappedOutInOneExchange) {
  if (run_command("strace", "-V").exit_code != 0) GTEST_SKIP() << "strace is not installed: not checked here";
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "proj").exit_code, 0);
  const auto traced =
      run_command("strace", "-f -e trace=rename,renameat,renameat2 -o " + shell_quoted(dir / "log") + " " +
                                ladder_binary + " export xsimd --out " + shell_quoted(dir / "proj"));
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string log = read_text(dir / "log");
  EXPECT_NE(log.find("RENAME_EXCHANGE"), std::string::npos) << log;
  const std::string target = "\"" + (dir / "proj").string() + "\"";
  EXPECT_EQ(log.find("(" + target), std::string::npos) << "the target was renamed away: " << log;
  EXPECT_EQ(log.find(target + ", AT_FDCWD"), std::string::npos) << "the target was renamed away: " << log;
  EXPECT_TRUE(fs::exists(dir / "proj" / "include" / "midpoint" / "xsimd.hpp"));
}

// ---- D12 and D4: the --out path -------------------------------------------------------------------------
TEST(ExportOut, ATrailingSlashDotLongNamesAndLatin1BytesWork) {
  const TempDir dir;
  auto done = run_command(ladder_binary, "export inlined --out " + shell_quoted(dir / "newdir") + "/");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_TRUE(fs::exists(dir / "newdir" / ladder::exporter::marker_file));
  fs::create_directories(dir / "here");
  done = run_command("cd " + shell_quoted(dir / "here") + " && " + ladder_binary, "export inlined --out .");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_TRUE(fs::exists(dir / "here" / ladder::exporter::marker_file));
  done = run_command("cd " + shell_quoted(dir / "here") + " && " + ladder_binary, "export xsimd --out .");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_TRUE(fs::exists(dir / "here" / "include" / "midpoint" / "xsimd.hpp"));
  for (const std::size_t size : {250u, 255u}) {
    const std::string name(size, 'n');
    done = export_to(dir / name);
    EXPECT_EQ(done.exit_code, 0) << size << ": " << done.output;
    EXPECT_TRUE(fs::exists(dir / name / ladder::exporter::marker_file)) << size;
    done = export_to(dir / name, "", "xsimd");  // replaced: the temporaries fit too
    EXPECT_EQ(done.exit_code, 0) << size << ": " << done.output;
  }
  const std::string latin1 = "r\xe9sultats";
  done = export_to(dir / latin1);
  EXPECT_EQ(done.exit_code, 0) << done.output;
  const auto marker = ladder::testing::read_json(dir / latin1 / ladder::exporter::marker_file);
  EXPECT_EQ(marker["tier"], "inlined");
  done = export_to(dir / latin1, "", "xsimd");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  std::vector<std::string> expected = {"here", "newdir", latin1, std::string(250, 'n'),
                                       std::string(255, 'n')};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(entries(dir.str()), expected) << "a temporary was left beside them";
}

TEST(ExportOut, AFailedExportLeavesNothingNewBehind) {
  const TempDir dir;
  const auto failed = export_to(dir / "new" / "parents" / std::string(256, 'n'));  // one byte too long
  EXPECT_NE(failed.exit_code, 0) << failed.output;
  EXPECT_TRUE(failed.exit_code == 2 || failed.exit_code == 4) << failed.exit_code << failed.output;
  EXPECT_TRUE(entries(dir.str()).empty()) << "left: " << entries(dir.str()).front();
}

}  // namespace
