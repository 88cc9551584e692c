// The builds of `ladder ab`'s revisions (harness/builds/revisions.hpp, builds.hpp, build_steps.hpp), on tiny
// checkouts that stand in for Ladder: their CMake project makes a stand-in worker, a script that describes
// itself as this build and says in a comment which files it was made from, so a build takes a second and
// the worker a folder holds names the source it was really built from.
//   - two checkouts' uncommitted changes are built apart, each from its own files (issue 50, T5-1), and a
//     build folder asked for another source than the one it was configured from is configured again;
//   - a folder whose configure was stopped (a CMakeCache.txt, no build file) is configured again (T5-3);
//   - a repository that is not Ladder is refused at once, before anything is written, and a failed build
//     says its folder may be removed (T5-20);
//   - the build lock is not held by a program started under it once the run lets it go (T5-5);
//   - a revision or --repo is quoted short and without raw escapes; an ambiguous short hash is called so
//     (T5-18).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "build_steps.hpp"
#include "builds.hpp"
#include "command.hpp"
#include "errors.hpp"
#include "process.hpp"
#include "revisions.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::TempDir;
using testing::write_text;

// Runs `script` with sh in `dir`; the test fails when it does.
void shell(const fs::path& dir, const std::string& script) {
  Program program{{"sh", "-c", "cd \"$0\" && " + script, dir.string()}};
  program.stderr_to = Stream::merge;
  const Finished done = run_program(program);
  ASSERT_TRUE(done.ok()) << script << ": " << done.how() << ": " << done.out;
}

// The stand-in worker's script: it describes itself as this build; `made_from` is its comment.
std::string worker_script(const std::string& made_from) {
  return "#!/bin/sh\n# made from " + made_from + "\ncat <<'END'\n" + describe_this_build().to_json().dump() +
         "\nEND\n";
}

// A stand-in for Ladder's sources in `dir`: harness/worker_main.cpp (empty: the layout before the rooms), and
// a CMake project whose ladder-worker target copies worker.sh into the build folder.
void write_stand_in(const fs::path& dir, const std::string& made_from) {
  fs::create_directories(dir / "harness");
  write_text(dir / "harness" / "worker_main.cpp", "");
  write_text(dir / "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(stand_in NONE)\n"
             "add_custom_target(ladder-worker COMMAND ${CMAKE_COMMAND} -E copy "
             "${CMAKE_SOURCE_DIR}/worker.sh ${CMAKE_BINARY_DIR}/ladder-worker)\n");
  write_text(dir / "worker.sh", worker_script(made_from));
  fs::permissions(dir / "worker.sh", fs::perms::owner_all, fs::perm_options::add);
}

// A git checkout of the stand-in, its one commit made.
void commit_stand_in(const fs::path& dir) {
  write_stand_in(dir, "the commit");
  shell(dir, "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m stand-in");
}

class RevisionBuilds : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("LADDER_BUILDS_DIR", (dir_ / "builds").c_str(), 1); }
  void TearDown() override { ::unsetenv("LADDER_BUILDS_DIR"); }
  TempDir dir_;
};

TEST_F(RevisionBuilds, TwoCheckoutsUncommittedChangesAreEachBuiltFromTheirOwnFiles) {
  commit_stand_in(dir_ / "a");
  shell(dir_.str(), "git clone -q a b");
  std::map<std::string, std::string> workers;
  for (const std::string checkout : {"a", "b"}) {
    write_text(dir_ / checkout / "worker.sh", worker_script("checkout " + checkout + "'s change"));
    const std::string top = checkout_top((dir_ / checkout).string());
    const Revision changed = resolve_revision(top, ".");
    ASSERT_TRUE(changed.dirty);
    const PreparedBuild build = prepare_revision(top, changed, false, {"inlined"});
    workers[checkout] = build.executable;
    EXPECT_NE(read_text(build.executable).find("made from checkout " + checkout + "'s change"),
              std::string::npos)
        << "checkout " << checkout << "'s worker was built from other files: " << build.executable;
  }
  EXPECT_NE(workers["a"], workers["b"]);
}

TEST_F(RevisionBuilds, AFolderConfiguredFromOtherSourcesIsConfiguredAgainAndThenReused) {
  write_stand_in(dir_ / "one", "source one");
  write_stand_in(dir_ / "two", "source two");
  const std::string folder = (dir_ / "builds" / "shared").string();
  const PreparedBuild one = prepare_worker_from((dir_ / "one").string(), folder, "one");
  EXPECT_NE(read_text(one.executable).find("made from source one"), std::string::npos);
  const PreparedBuild two = prepare_worker_from((dir_ / "two").string(), folder, "two");
  EXPECT_NE(read_text(two.executable).find("made from source two"), std::string::npos)
      << "the folder configured from source one built it";
  EXPECT_GT(two.configure_seconds, 0);
  const PreparedBuild again = prepare_worker_from((dir_ / "two").string(), folder, "two");
  EXPECT_EQ(again.configure_seconds, 0) << "a folder configured from these sources is configured again";
  EXPECT_NE(read_text(again.executable).find("made from source two"), std::string::npos);
}

TEST_F(RevisionBuilds, AFolderWhoseConfigureWasStoppedIsConfiguredAgain) {
  write_stand_in(dir_ / "src", "the sources");
  const fs::path folder = dir_ / "builds" / "stopped";
  // What a configure stopped between CMake's cache and its build file leaves: CMakeCache.txt, no build.ninja.
  std::vector<std::string> configure = {"cmake", "-S", (dir_ / "src").string(), "-B",
                                        (folder / "tree").string()};
  if (!on_path("ninja").empty()) configure.insert(configure.end(), {"-G", "Ninja"});
  const Finished configured = run_program(Program{configure});
  ASSERT_TRUE(configured.ok()) << configured.how() << configured.out << configured.err;
  for (const char* build_file : {"build.ninja", "Makefile"}) fs::remove(folder / "tree" / build_file);
  ASSERT_TRUE(fs::exists(folder / "tree" / "CMakeCache.txt"));
  try {
    const PreparedBuild build = prepare_worker_from((dir_ / "src").string(), folder.string(), "stopped");
    EXPECT_NE(read_text(build.executable).find("made from the sources"), std::string::npos);
    EXPECT_GT(build.configure_seconds, 0);
  } catch (const InputError& failed) {
    ADD_FAILURE() << "a half-configured folder stays broken: " << failed.what();
  }
}

TEST_F(RevisionBuilds, AFailedBuildKeepsItsFolderForItsLogAndSaysItMayBeRemoved) {
  write_stand_in(dir_ / "src", "the sources");
  write_text(dir_ / "src" / "CMakeLists.txt", "message(FATAL_ERROR \"broken on purpose\")\n");
  const std::string folder = (dir_ / "builds" / "broken").string();
  try {
    prepare_worker_from((dir_ / "src").string(), folder, "broken");
    ADD_FAILURE() << "a build that cannot configure was made";
  } catch (const InputError& failed) {
    const std::string message = failed.what();
    EXPECT_NE(message.find("broken on purpose"), std::string::npos) << message;
    EXPECT_NE(message.find(folder + "/build.log"), std::string::npos) << message;
    EXPECT_NE(message.find(folder + " is kept for it and may be removed"), std::string::npos) << message;
  }
  EXPECT_TRUE(fs::exists(folder + "/build.log"));
}

TEST_F(RevisionBuilds, ARepositoryThatIsNotLadderIsRefusedBeforeAnythingIsWritten) {
  shell(dir_.str(),
        "git init -q other && git -C other -c user.name=t -c user.email=t@t commit -q "
        "--allow-empty -m other");
  const testing::Outcome ab = testing::run_command(
      LADDER_BINARY, "ab --repo " + (dir_ / "other").string() + " --base HEAD --head HEAD --tiers inlined");
  EXPECT_EQ(ab.exit_code, 2) << ab.output;
  EXPECT_NE(ab.output.find(
                "of " + (dir_ / "other").string() +
                " is not Ladder: it has neither harness/worker/worker_main.cpp nor harness/worker_main.cpp"),
            std::string::npos)
      << ab.output;
  EXPECT_FALSE(fs::exists(dir_ / "builds")) << "a refused repository left builds behind";
  const std::string top = checkout_top((dir_ / "other").string());
  EXPECT_THROW(resolve_revision(top, "."), InputError);  // its working tree, clean, is HEAD
}

// Ladder since harness/ has rooms (issue 51): the worker's main in harness/worker/, none at the top. `ladder
// ab` compares revisions from before and after the move, so both layouts are Ladder, committed or not.
TEST_F(RevisionBuilds, ACheckoutWithTheWorkersMainInItsRoomIsLadder) {
  fs::create_directories(dir_ / "rooms" / "harness" / "worker");
  write_text(dir_ / "rooms" / "harness" / "worker" / "worker_main.cpp", "");
  shell(dir_ / "rooms",
        "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m rooms");
  const std::string top = checkout_top((dir_ / "rooms").string());
  for (const std::string revision : {"HEAD", "."}) {  // the commit, then the working tree
    try {
      resolve_revision(top, revision);
    } catch (const InputError& refused) {
      ADD_FAILURE() << revision << " was refused: " << refused.what();
    }
  }
}

// A revision or --repo value, whole, in a message: the message stays short and no escape reaches the
// terminal.
void expect_quoted_short(const std::string& message) {
  EXPECT_LT(message.size(), 600u) << message.size() << " characters";
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << message.substr(0, 300);
  EXPECT_EQ(message.find('\n'), std::string::npos) << message.substr(0, 300);
}

TEST_F(RevisionBuilds, ALongRevisionOrRepoWithEscapesIsQuotedShort) {
  commit_stand_in(dir_ / "repo");
  const std::string top = checkout_top((dir_ / "repo").string());
  const std::string junk = "x\x1b[2J\n" + std::string(5000, 'a');
  for (const std::string& revision : {junk, "-" + junk}) try {
      resolve_revision(top, revision);
      ADD_FAILURE() << "a junk revision was accepted";
    } catch (const InputError& refused) {
      expect_quoted_short(refused.what());
      EXPECT_NE(std::string(refused.what()).find("x\\x1b[2J\\naaaa"), std::string::npos) << refused.what();
    }
  try {
    checkout_top((dir_ / junk).string());
    ADD_FAILURE() << "a junk --repo was accepted";
  } catch (const InputError& refused) {
    expect_quoted_short(refused.what());
  }
}

TEST_F(RevisionBuilds, AnAmbiguousShortHashIsCalledAmbiguous) {
  commit_stand_in(dir_ / "repo");
  // 1500 commits (one git process): two of them share their first four hex digits, whatever they are.
  shell(dir_ / "repo",
        "i=0; while [ $i -lt 1500 ]; do i=$((i+1)); printf 'commit refs/heads/many\\ncommitter t <t@t> "
        "1700000000 +0000\\ndata <<X\\nc%s\\nX\\n\\n' $i; done | git fast-import --quiet && "
        "git rev-list many | cut -c1-4 | sort | uniq -d | head -n 1 > ../shared-prefix");
  std::string prefix = read_text(dir_ / "shared-prefix");
  prefix = prefix.substr(0, prefix.find('\n'));
  ASSERT_EQ(prefix.size(), 4u) << "no two of 1500 commits share a short hash";
  try {
    resolve_revision(checkout_top((dir_ / "repo").string()), prefix);
    ADD_FAILURE() << "the ambiguous " << prefix << " was taken for one commit";
  } catch (const InputError& refused) {
    const std::string message = refused.what();
    EXPECT_NE(message.find("revision '" + prefix + "' is ambiguous"), std::string::npos) << message;
    EXPECT_EQ(message.find("unknown revision"), std::string::npos) << message;
  }
}

TEST(BuildLockTest, AProgramStartedUnderItDoesNotHoldItOnceTheRunLetsItGo) {
  const TempDir dir;
  int exec_done[2];
  ASSERT_EQ(::pipe2(exec_done, O_CLOEXEC), 0);
  pid_t child = -1;
  {
    const BuildLock lock(dir.str());
    child = ::fork();
    if (child == 0) {  // a compiler the build started: it outlives the lock's holder
      ::execlp("sleep", "sleep", "60", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ASSERT_GT(child, 0);
  ::close(exec_done[1]);
  char byte = 0;
  EXPECT_EQ(::read(exec_done[0], &byte, 1), 0);  // end of file: the child's copy closed at its exec
  ::close(exec_done[0]);
  const int fd = ::open((dir / ".lock").c_str(), O_RDWR | O_CLOEXEC);
  const bool taken = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  if (fd >= 0) ::close(fd);
  EXPECT_TRUE(taken) << "the lock is still held by the program started under it";
}

}  // namespace
}  // namespace ladder
