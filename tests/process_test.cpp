// The one way Ladder starts a program (common/process.hpp): words reach the program as they are, stdin is
// delivered, stdout and stderr are captured apart or merged, an exit code, a signal, a timeout and a program
// that cannot be started are each told apart, and runs in several threads at once keep to their own pipes.
#include "process.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "errors.hpp"

namespace ladder {
namespace {

Finished run(std::vector<std::string> argv) { return run_program(Program{std::move(argv)}); }

TEST(Process, WordsWithSpacesQuotesAndShellCharactersArriveUnchanged) {
  const Finished done = run({"printf", "[%s]", "a b", "it's", "\"q\"", "$HOME", "*", "x;y|z", "", "2>&1"});
  ASSERT_TRUE(done.ok()) << done.how() << done.err;
  EXPECT_EQ(done.out, "[a b][it's][\"q\"][$HOME][*][x;y|z][][2>&1]");
}

TEST(Process, AProgramWithASpaceAndAQuoteInItsPathRuns) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ladder process 'test' " + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto program = dir / "say it's";
  std::filesystem::copy_file("/bin/echo", program, std::filesystem::copy_options::overwrite_existing);
  const Finished done = run({program.string(), "here"});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(done.ok()) << done.how();
  EXPECT_EQ(done.out, "here\n");
}

TEST(Process, StdinIsDeliveredWholeEvenPastAPipesBuffer) {
  std::string input;
  for (int i = 0; input.size() < 1'000'000; ++i) input += std::to_string(i) + " it's a line\n";
  Program cat{{"cat"}};
  cat.input = input;
  const Finished done = run_program(cat);
  ASSERT_TRUE(done.ok()) << done.how();
  EXPECT_EQ(done.out, input);
}

TEST(Process, InputToAProgramThatDoesNotReadItIsNoSignalToLadder) {
  Program ignores{{"true"}};
  ignores.input = std::string(4'000'000, 'x');
  const Finished done = run_program(ignores);
  EXPECT_TRUE(done.ok()) << done.how();
}

TEST(Process, StdoutAndStderrAreCapturedApartOrMergedInOrder) {
  const std::vector<std::string> both = {"sh", "-c", "echo one; echo two >&2; echo three"};
  const Finished apart = run(both);
  EXPECT_EQ(apart.out, "one\nthree\n");
  EXPECT_EQ(apart.err, "two\n");
  Program merged{both};
  merged.stderr_to = Stream::merge;
  const Finished together = run_program(merged);
  EXPECT_EQ(together.out, "one\ntwo\nthree\n");
  EXPECT_EQ(together.err, "");
  Program quiet{both};
  quiet.stderr_to = Stream::discard;
  const Finished discarded = run_program(quiet);
  EXPECT_EQ(discarded.out, "one\nthree\n");
  EXPECT_EQ(discarded.err, "");
}

TEST(Process, OutputIsHandedOverAsItArrivesWhereAsked) {
  Program counting{{"sh", "-c", "for i in 1 2 3; do echo line $i; done; echo bad >&2"}};
  counting.stderr_to = Stream::merge;
  std::string seen;
  counting.on_output = [&](std::string_view chunk) { seen += chunk; };
  const Finished done = run_program(counting);
  EXPECT_TRUE(done.ok());
  EXPECT_EQ(seen, "line 1\nline 2\nline 3\nbad\n");
  EXPECT_EQ(done.out, "");  // handed over, not kept
}

TEST(Process, ExtraEnvironmentIsSetAndReplacesTheSameName) {
  ::setenv("LADDER_PROCESS_TEST_OLD", "old", 1);
  Program shell{
      {"sh", "-c", "printf '%s|%s|%s' \"$LADDER_PROCESS_TEST\" \"$LADDER_PROCESS_TEST_OLD\" \"$HOME\""}};
  shell.environment = {{"LADDER_PROCESS_TEST", "a 'b' c"}, {"LADDER_PROCESS_TEST_OLD", "new"}};
  const Finished done = run_program(shell);
  EXPECT_EQ(done.out, "a 'b' c|new|" + std::string(std::getenv("HOME") ? std::getenv("HOME") : ""));
}

TEST(Process, AnExitCodeAndASignalAreToldApart) {
  const Finished exited = run({"sh", "-c", "exit 3"});
  EXPECT_TRUE(exited.started());
  EXPECT_FALSE(exited.ok());
  EXPECT_EQ(exited.exit_code, 3);
  EXPECT_EQ(exited.signal, 0);
  EXPECT_EQ(exited.how(), "exited with 3");
  const Finished killed = run({"sh", "-c", "kill -TERM $$"});
  EXPECT_FALSE(killed.ok());
  EXPECT_EQ(killed.exit_code, -1);
  EXPECT_EQ(killed.signal, SIGTERM);
  EXPECT_EQ(killed.how(), "was killed by signal " + std::to_string(SIGTERM));
  EXPECT_FALSE(killed.timed_out);
}

TEST(Process, ATimeoutKillsTheProgramWithOrWithoutPipes) {
  for (const Stream stream : {Stream::capture, Stream::discard}) {
    Program sleeper{{"sh", "-c", "echo started; exec sleep 30"}};
    sleeper.timeout_seconds = 0.3;
    sleeper.stdout_to = stream;
    const auto started = std::chrono::steady_clock::now();
    const Finished done = run_program(sleeper);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_TRUE(done.timed_out);
    EXPECT_EQ(done.signal, SIGKILL);
    EXPECT_FALSE(done.ok());
    EXPECT_GE(seconds, 0.29);
    EXPECT_LT(seconds, 10);
    if (stream == Stream::capture) {
      EXPECT_EQ(done.out, "started\n");
    }
  }
  Program quick{{"true"}};
  quick.timeout_seconds = 20;
  quick.stdout_to = quick.stderr_to = Stream::discard;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(run_program(quick).ok());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 5);
}

TEST(Process, AMissingProgramIsNotStartedAndSaysWhy) {
  for (const std::string& missing :
       {std::string("/nonexistent/ladder-no-such-program"), std::string("ladder-no-such-program-on-path")}) {
    const Finished done = run({missing, "x"});
    EXPECT_FALSE(done.started()) << missing;
    EXPECT_FALSE(done.ok());
    EXPECT_EQ(done.not_started, "No such file or directory") << missing;
    EXPECT_EQ(done.how(), "could not be started: No such file or directory");
  }
  EXPECT_FALSE(run({""}).started());
  EXPECT_FALSE(run({}).started());
}

TEST(Process, RunsInSeveralThreadsAtOnceKeepToTheirOwnPipes) {
  std::vector<Finished> done(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < done.size(); ++i)
    threads.emplace_back([&done, i] {
      Program cat{{"sh", "-c", "cat; sleep 0.1"}};
      cat.input = std::string(100'000 + i, static_cast<char>('a' + i));
      done[i] = run_program(cat);
    });
  for (auto& thread : threads) thread.join();
  for (std::size_t i = 0; i < done.size(); ++i) {
    EXPECT_TRUE(done[i].ok()) << i;
    EXPECT_EQ(done[i].out, std::string(100'000 + i, static_cast<char>('a' + i))) << i;
  }
}

TEST(Process, OnPathFindsExecutablesOnly) {
  EXPECT_EQ(std::filesystem::path(on_path("sh")).filename(), "sh");
  EXPECT_EQ(on_path("ladder-no-such-program-on-path"), "");
  EXPECT_EQ(on_path("/bin/sh"), "/bin/sh");
  EXPECT_EQ(on_path("/nonexistent/sh"), "");
}

TEST(Process, SelfPathIsThisTestBinary) {
  EXPECT_EQ(std::filesystem::path(self_path()).filename(), "ladder_process_tests");
  EXPECT_EQ(command_text({"git", "-C", "a b", "status"}), "git -C a b status");
}

}  // namespace
}  // namespace ladder
