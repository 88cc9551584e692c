// Issue 50, what `ladder export` keeps and what it refuses: a user's edits to the files an earlier export
// wrote (the manifest keeps each file's SHA-256), a manifest without hashes or made by hand, the copies a
// stopped export left beside --out (removed when they hold only what an export writes, whatever stopped it
// and when), a --from run made under emulation, and a file system that refuses the write.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"
#include "export.hpp"
#include "export_commands.hpp"
#include "out_directory.hpp"
#include "registry.hpp"

namespace {

namespace fs = std::filesystem;
using ladder::exporter::marker_file;
using namespace ladder::testing;  // export_to, entries, run_command, read_text, TempDir, …

// The file, and the directories above it.
void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  ladder::testing::write_text(path, text);
}

const std::string ladder_binary = LADDER_BINARY;

bool says(const Outcome& outcome, const std::string& text) {
  return outcome.output.find(text) != std::string::npos;
}

// ---- T5-7: edits to exported files ---------------------------------------------------------------------
TEST(ExportKeeps, AFileTheUserEditedIsNeverReplaced) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "p").exit_code, 0);
  const auto manifest = ladder::testing::read_json(dir / "p" / marker_file);
  ASSERT_TRUE(manifest.contains("sha256")) << manifest.dump(1);
  EXPECT_EQ(manifest["sha256"].size(), manifest["files"].size());
  write_file(dir / "p" / "CMakeLists.txt", read_text(dir / "p" / "CMakeLists.txt") + "# ours\n");
  fs::remove(dir / "p" / "src" / "kernel.cpp");
  fs::create_symlink("/etc/hostname", dir / "p" / "src" / "kernel.cpp");  // a link is no file it wrote
  const auto refused = export_to(dir / "p", "", "xsimd");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(says(refused, "2 file(s) (CMakeLists.txt, src/kernel.cpp) differ from what it wrote"))
      << refused.output;
  EXPECT_TRUE(says(refused, "give another --out")) << refused.output;
  EXPECT_NE(read_text(dir / "p" / "CMakeLists.txt").find("# ours"), std::string::npos);
  EXPECT_EQ(ladder::testing::read_json(dir / "p" / marker_file)["tier"], "inlined");
  // With the edits moved away (a file the export wrote that is missing loses nothing), it is replaced.
  fs::rename(dir / "p" / "CMakeLists.txt", dir / "CMakeLists.ours");
  fs::remove(dir / "p" / "src" / "kernel.cpp");
  const auto replaced = export_to(dir / "p", "", "xsimd");
  EXPECT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_TRUE(fs::exists(dir / "p" / "include" / "midpoint" / "xsimd.hpp"));
  EXPECT_EQ(entries(dir.str()), (std::vector<std::string>{"CMakeLists.ours", "p"}));
}

// A manifest without hashes (an older Ladder's) vouches for nothing: a file is replaced only where the new
// export writes the same bytes. A manifest made by hand that lists a user's file never gets it deleted.
TEST(ExportKeeps, AManifestWithoutHashesOrMadeByHandReplacesOnlyWhatWouldBeRewrittenAsItIs) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "p").exit_code, 0);
  auto manifest = ladder::testing::read_json(dir / "p" / marker_file);
  manifest.erase("sha256");
  write_file(dir / "p" / marker_file, manifest.dump(1));
  const auto same = export_to(dir / "p");  // the same command: every file the same bytes
  EXPECT_EQ(same.exit_code, 0) << same.output;
  write_file(dir / "p" / marker_file, manifest.dump(1));
  const auto other = export_to(dir / "p", "", "xsimd");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_TRUE(says(other, "keeps no SHA-256 of the files")) << other.output;
  EXPECT_TRUE(says(other, "include/midpoint/inlined.hpp")) << other.output;
  EXPECT_TRUE(fs::exists(dir / "p" / "include" / "midpoint" / "inlined.hpp"));

  // By hand: a user's notes listed, with and without a hash for the other files.
  write_file(dir / "q" / "notes.txt", "precious");
  for (const bool hashed : {true, false}) {
    nlohmann::json hand = {{"files", {"notes.txt"}}};
    if (hashed) hand["sha256"] = nlohmann::json::object();
    write_file(dir / "q" / marker_file, hand.dump());
    const auto refused = export_to(dir / "q");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_TRUE(says(refused, "1 file(s) (notes.txt)")) << refused.output;
    EXPECT_EQ(read_text(dir / "q" / "notes.txt"), "precious");
  }
  write_file(dir / "q" / marker_file, R"({"files": [], "sha256": {"notes.txt": "abc"}})");
  const auto bad = export_to(dir / "q");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(says(bad, "which is no SHA-256 (64 hex digits)")) << bad.output;
  EXPECT_EQ(read_text(dir / "q" / "notes.txt"), "precious");
}

// ---- T5-16: what stopped exports left beside --out --------------------------------------------------------
TEST(ExportKeeps, TheCopiesOfAStoppedExportAreRemovedWhateverTheyHoldOfAnExport) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "k").exit_code, 0);
  const std::string gone = "999999999-";  // above any pid_max: no such process
  const std::string live = std::to_string(getpid()) + "-";
  auto copy = [&](const std::string& name) { return dir / (".k." + name); };
  fs::create_directories(copy("partial-" + gone + "1"));  // stopped before it wrote anything
  write_file(copy("partial-" + gone + "2") / "include" / "midpoint" / "xsimd.hpp", "half");  // no manifest
  write_file(copy("partial-" + gone + "3") / marker_file,
             "{\"files\": [\"CMakeL");  // a manifest half-written
  write_file(copy("partial-" + gone + "3") / "include" / "midpoint" / "ladder" / "integrand.hpp", "x");
  write_file(copy("old-" + gone + "4") / "src" / "kernel.cpp", "a sweep stopped half-way");
  fs::create_directories(copy("old-" + gone + "4") / "tests");
  // include/NS/ holds a header of any name (the integrand's is the user's choice): notes.txt is taken as one.
  write_file(copy("partial-" + gone + "6") / "include" / "midpoint" / "notes.txt", "x");
  // Kept: a live process's, and each that holds something no export writes (a file, a folder, a link).
  write_file(copy("partial-" + live + "5") / "CMakeLists.txt", "a live export's");
  write_file(copy("partial-" + gone + "7") / "include" / "mine.txt", "a user's");
  write_file(copy("partial-" + gone + "8") / "src" / "kernel.cpp", "x");
  write_file(copy("partial-" + gone + "8") / "src" / "mine.cpp", "a user's");
  fs::create_directories(copy("old-" + gone + "9") / "build");
  fs::create_directories(copy("old-" + gone + "10"));
  fs::create_symlink("/etc", copy("old-" + gone + "10") / "include");
  const auto done = export_to(dir / "k", "", "xsimd");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  std::vector<std::string> left = {".k.partial-" + live + "5", ".k.partial-" + gone + "7",
                                   ".k.partial-" + gone + "8", ".k.old-" + gone + "9",
                                   ".k.old-" + gone + "10",    "k"};
  std::sort(left.begin(), left.end());
  EXPECT_EQ(entries(dir.str()), left);
  EXPECT_EQ(read_text(copy("partial-" + gone + "8") / "src" / "mine.cpp"), "a user's");
}

// A killed export that its parent has not reaped yet is a zombie: kill(pid, 0) still answers for it, but it
// writes nothing more, so its copy is swept like a gone process's (as found: `timeout -s KILL` under an init
// that reaps late left every copy of the killed exports in place).
TEST(ExportKeeps, TheCopyOfAKilledExportNotYetReapedIsRemoved) {
  const TempDir dir;
  ASSERT_EQ(export_to(dir / "k").exit_code, 0);
  const pid_t zombie = fork();
  if (zombie == 0) _exit(0);
  ASSERT_GT(zombie, 0);
  siginfo_t exited{};  // waits for the child's exit and leaves it unreaped (WNOWAIT): a zombie
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(zombie), &exited, WEXITED | WNOWAIT), 0);
  const fs::path copy = dir / (".k.partial-" + std::to_string(zombie) + "-1");
  write_file(copy / "include" / "midpoint" / "xsimd.hpp", "half");
  const auto done = export_to(dir / "k", "", "xsimd");
  EXPECT_EQ(done.exit_code, 0) << done.output;
  EXPECT_FALSE(fs::exists(copy));
  waitpid(zombie, nullptr, 0);
}

// Every path any export writes is one the sweep takes for an export's (export/project.cpp keeps the list).
TEST(ExportKeeps, EveryFileAnExportWritesIsAPathTheSweepKnows) {
  const TempDir dir;
  for (const auto& tier : ladder::tiers()) {
    if (tier.card.distributed || tier.card.runtime_path) continue;
    ladder::exporter::ExportRequest request;
    request.tier = tier.card.id;
    request.out = (dir / "out").string();
    request.python = true;
    request.default_cells = {{1000, 1}};
    for (const auto& file : ladder::exporter::project_files(request)) {
      EXPECT_TRUE(ladder::exporter::exported_path(file.path, false)) << tier.card.id << ": " << file.path;
      for (fs::path up = fs::path(file.path).parent_path(); !up.empty(); up = up.parent_path())
        EXPECT_TRUE(ladder::exporter::exported_path(up.string(), true)) << up;
    }
  }
  for (const std::string path : {"build", "include/x.hpp", "include/ns/sub/x.hpp", "notes.txt", "src/a.cpp"})
    EXPECT_FALSE(ladder::exporter::exported_path(path, false) || ladder::exporter::exported_path(path, true))
        << path;
}

// ---- T5-13: --from a run under emulation ---------------------------------------------------------------
TEST(ExportKeeps, AnEmulatedRunsTimesAreRefusedAsTheReportRefusesThem) {
  const TempDir dir;
  const auto ran =
      run_command("LADDER_TEST_EMULATION=runner=/bin/ls,machine=none " + ladder_binary,
                  "run --tiers inlined --n 1e5 --threads 1 --no-limits --no-instructions --out " +
                      shell_quoted(dir / "em"));
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const auto refused = export_to(dir / "x", "--from " + shell_quoted(dir / "em"));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(says(refused, "--from '" + (dir / "em").string() + "' ran under emulation (/bin/ls:"))
      << refused.output;
  EXPECT_TRUE(says(refused, "Export without --from")) << refused.output;
  EXPECT_FALSE(fs::exists(dir / "x"));
}

// ---- T5-18: a file system that refuses the write -------------------------------------------------------
// A read-only and a full tmpfs, mounted in a user and mount namespace of the test's own (skipped where the
// kernel does not allow one): exit 4, a plain message naming --out and the reason, nothing left.
TEST(ExportKeeps, AReadOnlyOrFullFileSystemIsSaidPlainly) {
  const TempDir dir;
  const auto mounted = [&](const std::string& options, const fs::path& out) {
    return run_command("unshare",
                       "-rm sh -c " + shell_quoted("mount -t tmpfs -o " + options + " tmpfs " + dir.str() +
                                                   " && " + ladder_binary + " export inlined --out " +
                                                   out.string() + "; echo exit=$?; ls -A " + dir.str()));
  };
  if (run_command("unshare", "-rm sh -c " + shell_quoted("mount -t tmpfs tmpfs " + dir.str())).exit_code != 0)
    GTEST_SKIP() << "no user and mount namespace here: not checked";
  const auto read_only = mounted("ro", dir / "y");
  EXPECT_TRUE(says(read_only, "exit=4")) << read_only.output;
  EXPECT_TRUE(says(read_only, "cannot write the export to --out " + (dir / "y").string() +
                                  ": Read-only file system (writing its copy beside it, in " + dir.str() +
                                  "); nothing was changed there"))
      << read_only.output;
  EXPECT_FALSE(says(read_only, "filesystem error")) << read_only.output;
  EXPECT_TRUE(read_only.output.ends_with("exit=4\n")) << "something was left: " << read_only.output;
  const auto full = mounted("size=8k", dir / "deep" / "z");
  EXPECT_TRUE(says(full, "exit=4")) << full.output;
  EXPECT_TRUE(says(full, "--out " + (dir / "deep" / "z").string() + ": No space left on device"))
      << full.output;
  EXPECT_TRUE(full.output.ends_with("exit=4\n")) << "something was left: " << full.output;
}

}  // namespace
