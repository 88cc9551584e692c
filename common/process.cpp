// Starting a program with posix_spawnp and an argv vector, its pipes read by one poll loop (process.hpp).
#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "errors.hpp"
#include "text.hpp"

extern char** environ;

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

// A pipe whose ends are closed on exec: a child started by another thread at the same time never holds
// them, so each pipe's reader sees its end when its own program ends.
struct Pipe {
  int read = -1, write = -1;
  explicit Pipe(bool wanted) {
    int ends[2];
    if (wanted && ::pipe2(ends, O_CLOEXEC) == 0) read = ends[0], write = ends[1];
  }
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// This process's environment with `extra` set on top.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> all;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    bool replaced = false;
    for (const auto& [name, value] : extra)
      replaced = replaced || (text.size() > name.size() && text.substr(0, name.size()) == name &&
                              text[name.size()] == '=');
    if (!replaced) all.emplace_back(text);
  }
  for (const auto& [name, value] : extra) all.push_back(name + "=" + value);
  return all;
}

std::vector<char*> pointers(std::vector<std::string>& words) {
  std::vector<char*> out;
  for (auto& word : words) out.push_back(word.data());
  out.push_back(nullptr);
  return out;
}

// The file actions that put the pipes (or /dev/null) on the child's stdin, stdout and stderr.
void plan_streams(posix_spawn_file_actions_t& actions, const Program& program, const Pipe& in,
                  const Pipe& out, const Pipe& err) {
  if (in.read >= 0) posix_spawn_file_actions_adddup2(&actions, in.read, 0);
  if (out.write >= 0) posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  if (program.stdout_to == Stream::discard)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (err.write >= 0) posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  if (program.stderr_to == Stream::merge) posix_spawn_file_actions_adddup2(&actions, 1, 2);
  if (program.stderr_to == Stream::discard)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
}

// Feeds stdin and reads stdout and stderr until each is done or the deadline passes; true on the deadline.
bool exchange(const Program& program, pid_t pid, int& in, int& out, int& err, Finished& finished,
              std::optional<Clock::time_point> deadline) {
  const std::string& input = program.input ? *program.input : std::string();
  std::size_t written = 0;
  if (in >= 0) ::fcntl(in, F_SETFL, ::fcntl(in, F_GETFL) | O_NONBLOCK);
  char buffer[1 << 16];
  while (in >= 0 || out >= 0 || err >= 0) {
    if (in >= 0 && written == input.size()) {
      close_fd(in);
      continue;
    }
    pollfd fds[3] = {{in, POLLOUT, 0}, {out, POLLIN, 0}, {err, POLLIN, 0}};
    int wait_ms = -1;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) return true;
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    const int ready = ::poll(fds, 3, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    if (ready == 0) continue;  // the deadline, seen at the loop's top
    if (in >= 0 && fds[0].revents) {
      const ssize_t sent = ::write(in, input.data() + written, input.size() - written);
      if (sent > 0) written += static_cast<std::size_t>(sent);
      if (sent < 0 && errno != EAGAIN && errno != EINTR) close_fd(in);  // it stopped reading: EPIPE
    }
    for (int* fd : {&out, &err}) {
      const pollfd& polled = fds[fd == &out ? 1 : 2];
      if (*fd < 0 || !polled.revents) continue;
      const ssize_t got = ::read(*fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        close_fd(*fd);
        continue;
      }
      const std::string_view chunk(buffer, static_cast<std::size_t>(got));
      if (fd == &out && program.on_output)
        program.on_output(chunk);
      else
        (fd == &out ? finished.out : finished.err).append(chunk);
    }
  }
  // Its pipes are closed (or it has none): what is left is to wait for it, up to the deadline.
  while (deadline) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid)
      return false;
    if (Clock::now() >= *deadline) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Whether a process of the group `group` is alive (a zombie is not: it has died, whoever reaps it).
bool group_alive(pid_t group) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    const auto end = stat.rfind(") ");  // the name, in parentheses, may hold anything
    if (end == std::string::npos) continue;
    char state = 0;
    long parent = 0, process_group = 0;
    if (std::sscanf(stat.c_str() + end + 2, "%c %ld %ld", &state, &parent, &process_group) == 3 &&
        process_group == group && state != 'Z')
      return true;
  }
  return false;
}

// A group killed by SIGKILL dies as each of its processes is next scheduled, after the leader's waitpid
// may have returned: wait (at most 2 s) until none is left alive, so that a timeout's "stopped, with what
// it started" holds when run_program returns, even on a loaded machine.
void wait_until_group_dead(pid_t group) {
  for (int tries = 0; tries < 2000 && group_alive(group); ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

std::string Finished::how() const {
  if (!started()) return "could not be started: " + not_started;
  if (timed_out) return "ran past its time limit";
  if (signal != 0) return "was killed by signal " + std::to_string(signal);
  return "exited with " + std::to_string(exit_code);
}

Finished run_program(const Program& program) {
  Finished finished;
  if (program.argv.empty() || program.argv.front().empty()) {
    finished.not_started = "no program named";
    return finished;
  }
  std::vector<std::string> words = program.argv;
  std::vector<char*> argv = pointers(words);
  std::vector<std::string> environment = environment_with(program.environment);
  std::vector<char*> envp = pointers(environment);
  Pipe in(program.input.has_value());
  Pipe out(program.stdout_to == Stream::capture);
  Pipe err(program.stderr_to == Stream::capture);

  // Writing to a program that has stopped reading raises SIGPIPE in the writing thread: held back here for
  // the run (the write then fails with EPIPE), never in the child, which gets the caller's own mask.
  sigset_t pipe_signal, caller_mask;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &caller_mask);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  plan_streams(actions, program, in, out, err);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &caller_mask);
  posix_spawnattr_setpgroup(&attributes, 0);  // used with own_group only
  posix_spawnattr_setflags(&attributes, static_cast<short>(POSIX_SPAWN_SETSIGMASK |
                                                           (program.own_group ? POSIX_SPAWN_SETPGROUP : 0)));
  pid_t pid = 0;
  const int failed = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close_fd(in.read), close_fd(out.write), close_fd(err.write);
  if (failed != 0) {
    finished.not_started = std::strerror(failed);
    close_fd(in.write), close_fd(out.read), close_fd(err.read);
  } else {
    std::optional<Clock::time_point> deadline;
    if (program.timeout_seconds > 0)
      deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(program.timeout_seconds));
    finished.timed_out = exchange(program, pid, in.write, out.read, err.read, finished, deadline);
    if (finished.timed_out) ::kill(program.own_group ? -pid : pid, SIGKILL);
    close_fd(in.write), close_fd(out.read), close_fd(err.read);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) finished.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) finished.signal = WTERMSIG(status);
    if (finished.timed_out && program.own_group) wait_until_group_dead(pid);
  }
  // A SIGPIPE raised by a write above is taken here, unseen, before the caller's mask comes back.
  sigset_t pending;
  sigpending(&pending);
  if (sigismember(&pending, SIGPIPE) && !sigismember(&caller_mask, SIGPIPE)) {
    const timespec now{0, 0};
    ::sigtimedwait(&pipe_signal, nullptr, &now);
  }
  ::pthread_sigmask(SIG_SETMASK, &caller_mask, nullptr);
  return finished;
}

std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
  const char* variable = std::getenv("PATH");
  std::stringstream directories(variable ? variable : "/usr/bin:/bin");
  for (std::string directory; std::getline(directories, directory, ':');) {
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + name;
    struct stat facts {};
    if (::access(candidate.c_str(), X_OK) == 0 && ::stat(candidate.c_str(), &facts) == 0 &&
        !S_ISDIR(facts.st_mode))
      return candidate;
  }
  return "";
}

std::string command_text(const std::vector<std::string>& argv) { return join(argv, " "); }

std::string self_path() {
  std::error_code error;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw Unavailable("cannot find this program's own path: " + error.message());
  return path.string();
}

}  // namespace ladder
