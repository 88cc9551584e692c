#include "worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <vector>

#include "distributed.hpp"
#include "emulation_check.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "peers.hpp"
#include "process_stats.hpp"
#include "quote.hpp"
#include "text.hpp"
#include "worker_spec.hpp"

namespace ladder {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

volatile std::sig_atomic_t interrupt_seen = 0;
extern "C" void on_interrupt(int) { interrupt_seen = 1; }

}  // namespace

bool interrupted() { return interrupt_seen != 0; }

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a wait in progress returns at once
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

namespace {

std::string signal_text(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  const char* description = strsignal(signal);
  return std::string("SIG") + (abbreviation ? abbreviation : std::to_string(signal).c_str()) + " (" +
         (description ? description : "?") + ")";
}

// The kernel's count of out-of-memory kills in this process's cgroup (cgroup v2), when readable.
std::optional<long> oom_kills() {
  std::ifstream cgroup("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cgroup, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  std::ifstream events("/sys/fs/cgroup" + path + "/memory.events");
  std::string key;
  long value = 0;
  while (events >> key >> value)
    if (key == "oom_kill") return value;
  return std::nullopt;
}

std::string tail(const std::string& text, std::size_t size) {
  std::string trimmed = text.size() > size ? "…" + text.substr(text.size() - size) : text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  return trimmed;
}

// A worker process, started: its id and the pipe of its output; or, where exec failed, why (errno).
struct Started {
  pid_t pid = -1;
  int output = -1;
  int exec_error = 0;
};

// Forks and executes `command` on the cell's CPUs, in a process group of its own, with the memory limit.
// A second pipe, closed by a successful exec, brings back exec's errno when it fails: a worker that cannot
// start is said to be one, not mistaken for a worker that ran and exited with code 127.
Started start_worker(std::vector<std::string>& command, const CellKey& cell, const ThreadBinding& binding,
                     std::int64_t memory_limit) {
  std::vector<char*> arguments;
  for (auto& argument : command) arguments.push_back(argument.data());
  arguments.push_back(nullptr);
  const auto cannot_start = [&](const std::string& call) {
    return ToolFailed("cannot start the worker of cell '" + cell_name(cell) + "': " + call + ": " +
                      std::strerror(errno));
  };
  int output[2], exec_error[2];
  if (pipe2(output, O_CLOEXEC) != 0) throw cannot_start("pipe");
  if (pipe2(exec_error, O_CLOEXEC) != 0) {
    const auto failure = cannot_start("pipe");
    ::close(output[0]), ::close(output[1]);
    throw failure;
  }
  // The one fork outside common/process.hpp: the child sets its limits and CPU mask before exec, which no
  // posix_spawn attribute can do.
  const pid_t pid = fork();
  if (pid < 0) {
    const auto failure = cannot_start("fork");
    for (const int end : {output[0], output[1], exec_error[0], exec_error[1]}) ::close(end);
    throw failure;
  }
  if (pid == 0) {
    binding.apply();
    setpgid(0, 0);                     // its own group: a timeout kills everything it started
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // and it dies with the run
    const rlimit limit{static_cast<rlim_t>(memory_limit), static_cast<rlim_t>(memory_limit)};
    setrlimit(RLIMIT_DATA, &limit);
    dup2(output[1], STDOUT_FILENO);
    dup2(output[1], STDERR_FILENO);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(arguments[0], arguments.data());
    const int reason = errno;
    [[maybe_unused]] const ssize_t written = ::write(exec_error[1], &reason, sizeof reason);
    _exit(127);
  }
  ::close(output[1]);
  ::close(exec_error[1]);
  setpgid(pid, pid);
  Started started{pid, output[0], 0};
  ssize_t count = 0;
  do {  // end of file at once when exec succeeded; its errno when it did not
    count = ::read(exec_error[0], &started.exec_error, sizeof started.exec_error);
  } while (count < 0 && errno == EINTR);
  ::close(exec_error[0]);
  if (count != static_cast<ssize_t>(sizeof started.exec_error)) {
    started.exec_error = 0;
    return started;
  }
  ::close(started.output);
  int status = 0;
  waitpid(pid, &status, 0);
  return started;
}

// The worker's command line: the spec of its cell, under the MPI launcher for a distributed tier; a peer's
// is its own program. `launcher_words`: how many words of it are the launcher's.
std::vector<std::string> worker_command(const std::string& executable, const CellKey& cell,
                                        const Matrix& matrix, const Reference& ref,
                                        const ThreadBinding& binding, const std::string& hostfile,
                                        const std::string& result_file, std::size_t& launcher_words,
                                        const std::optional<std::int64_t>& iterations) {
  const TierCard& card = find_card(cell.tier);
  const std::string spec =
      dump_json(to_json(WorkerSpec{cell, matrix, ref, rounding_bound(card, ref, cell.n, cell.threads),
                                   binding.worker_cpus(), iterations}));
  std::vector<std::string> command;
  if (card.distributed)
    command = distributed::launch_command(cell.ranks, cell.threads, matrix.cpus, hostfile, binding.cores);
  launcher_words = command.size();
  if (const PeerCard* peer = find_peer(cell.tier)) {
    command = {"/usr/bin/env", python_interpreter(), peer->runner};
  } else {
    // Under qemu-user, through the same emulator and its options: the machine may not know how to run an
    // aarch64 program by itself (binfmt_misc).
    const std::vector<std::string> emulator = emulator_words();
    command.insert(command.end(), emulator.begin(), emulator.end());
    command.insert(command.end(), {executable, "worker"});
  }
  command.insert(command.end(), {"--spec", spec, "--result", result_file});
  return command;
}

// A worker as it ended: its wait status and usage, its output's last 8 KiB, and whether the runner
// stopped it (a timeout, or an interrupt).
struct Watched {
  int status = 0;
  rusage usage{};
  bool timed_out = false, stopped_by_us = false;
  std::string captured;
};

// Reads the worker's output until it ends; past `timeout` seconds (or on an interrupt) its group gets
// SIGTERM, then SIGKILL 3 s later.
Watched watch(const Started& started, Clock::time_point start, double timeout) {
  Watched watched;
  Clock::time_point stopped_at{};
  while (true) {
    pollfd output{started.output, POLLIN, 0};
    if (poll(&output, 1, 100) > 0) {
      char buffer[4096];
      const ssize_t count = ::read(started.output, buffer, sizeof buffer);
      if (count > 0)
        watched.captured =
            tail(watched.captured + std::string(buffer, static_cast<std::size_t>(count)), 8192);
    }
    if (wait4(started.pid, &watched.status, WNOHANG, &watched.usage) == started.pid) break;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (!watched.stopped_by_us && (interrupted() || elapsed > timeout)) {
      watched.timed_out = !interrupted();
      watched.stopped_by_us = true;
      stopped_at = Clock::now();
      kill(-started.pid, SIGTERM);  // an MPI launcher passes it on to its ranks
    }
    if (watched.stopped_by_us && Clock::now() - stopped_at > std::chrono::seconds(3))
      kill(-started.pid, SIGKILL);
  }
  char buffer[4096];
  ssize_t count = 0;
  fcntl(started.output, F_SETFL, O_NONBLOCK);  // a process the worker started may still hold the pipe
  while ((count = ::read(started.output, buffer, sizeof buffer)) > 0)
    watched.captured = tail(watched.captured + std::string(buffer, static_cast<std::size_t>(count)), 8192);
  ::close(started.output);
  kill(-started.pid, SIGKILL);  // anything the worker left behind in its group
  return watched;
}

// How the cell ended, from what the worker wrote (read as strictly as a results file) or, where it wrote
// nothing, from how it ended.
void classify(WorkerOutcome& outcome, const Watched& watched, const std::string& result_file, double timeout,
              const std::optional<long>& oom_before) {
  std::ifstream result(result_file);
  const std::string text((std::istreambuf_iterator<char>(result)), std::istreambuf_iterator<char>());
  json reported(json::value_t::discarded);
  std::string unreadable;  // why a result the worker wrote cannot be read at all
  try {
    reported = parse_json_document(text, "the worker's result");
  } catch (const SchemaError& problem) {
    unreadable = problem.what();
  }
  ::unlink(result_file.c_str());
  const std::string output_tail = tail(watched.captured, 600);
  const std::string with_output = output_tail.empty() ? "" : "; its last output: " + output_tail;
  const int status = watched.status;
  if (interrupted() && watched.stopped_by_us) {
    outcome.interrupted = true;
  } else if (watched.timed_out) {
    outcome.status = CellStatus::timeout;
    outcome.reason =
        "still running after " + format_seconds(timeout) + " (--cell-timeout); stopped" + with_output;
  } else if (!unreadable.empty()) {
    outcome.status = CellStatus::failed;
    outcome.reason = "the worker wrote a result Ladder cannot read: " + unreadable;
  } else if (!reported.is_discarded() && reported.is_object() && reported.contains("status")) {
    // A result the worker cannot stand behind fails.
    try {
      const JsonReader in(reported, "the worker's result");
      outcome.status = read_cell_status(in.at("status"));
      if (outcome.status == CellStatus::ok) {
        outcome.measurement = read_measurement(in);
        // The aggregates are always aggregate()'s, from the repetitions: a Python peer computes its own.
        outcome.measurement->aggregates = aggregate(outcome.measurement->repetitions);
      } else {
        outcome.reason = in.string_or("reason", "");
      }
    } catch (const SchemaError& problem) {
      outcome.status = CellStatus::failed;
      outcome.reason = std::string("the worker wrote a result Ladder cannot read: ") + problem.what();
    }
  } else if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const auto oom_after = oom_kills();
    if (signal == SIGKILL && oom_before && oom_after && *oom_after > *oom_before) {
      outcome.status = CellStatus::out_of_memory;
      outcome.reason = "killed by the kernel's out-of-memory killer" + with_output;
    } else if (signal == SIGKILL) {
      outcome.status = CellStatus::killed;
      outcome.reason = "killed by SIGKILL (the out-of-memory killer or another process)" + with_output;
    } else {
      outcome.status = CellStatus::crashed;
      outcome.reason = "the worker died of " + signal_text(signal) + with_output;
    }
  } else {
    outcome.status = CellStatus::failed;
    outcome.reason =
        "the worker exited with code " + std::to_string(WEXITSTATUS(status)) + " and no result" + with_output;
  }
}

}  // namespace

WorkerOutcome run_worker_process(const std::string& executable, const CellKey& cell, const Matrix& matrix,
                                 const Reference& ref, const ThreadBinding& binding,
                                 const std::string& hostfile, const std::string& result_file, double timeout,
                                 std::int64_t memory_limit, const std::optional<std::int64_t>& iterations) {
  std::size_t launcher_words = 0;
  std::vector<std::string> command = worker_command(executable, cell, matrix, ref, binding, hostfile,
                                                    result_file, launcher_words, iterations);
  ::unlink(result_file.c_str());
  const auto machine_before = process::machine_time();
  const process::Usage runner_before = process::self_usage();
  const auto oom_before = oom_kills();
  const auto start = Clock::now();
  const Started started = start_worker(command, cell, binding, memory_limit);
  WorkerOutcome outcome;
  outcome.pid = started.pid;
  if (started.exec_error) {
    const std::string program = command.front();
    outcome.worker.ended = "not started";
    outcome.reason = "the worker could not be started: cannot execute '" + program +
                     "': " + std::strerror(started.exec_error);
    // The runner names its own file as /proc/self/exe does, which adds " (deleted)" once that file is
    // deleted or replaced (a rebuild during the run).
    if (program.ends_with(" (deleted)"))
      outcome.reason +=
          " (this program's file was deleted or replaced after the run started, by a rebuild "
          "perhaps: start the run again)";
    return outcome;
  }
  const Watched watched = watch(started, start, timeout);

  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const auto machine_after = process::machine_time();
  const process::Usage runner_after = process::self_usage();
  const rusage& usage = watched.usage;
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  outcome.worker.wall_seconds = wall;
  outcome.worker.cpu_seconds = cpu;
  if (launcher_words)
    outcome.worker.launcher = join({command.begin(), command.begin() + launcher_words}, " ");
  if (machine_before && machine_after && wall > 0) {
    const double busy = machine_after->busy - machine_before->busy;
    const double steal = machine_after->steal - machine_before->steal;
    // Not other work: the worker's CPU time and the runner's own while it started and watched the worker
    // (a short round's process start is tens of milliseconds of the runner's time beside it).
    const double runner = (runner_after.user_seconds + runner_after.system_seconds) -
                          (runner_before.user_seconds + runner_before.system_seconds);
    // /proc/stat counts each CPU's time in ticks: over the worker's life the sum may be off by one tick a
    // CPU, which over a 50 ms round is a third of a core. The figure is the least other load the counters
    // show.
    const double resolution =
        static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)) / static_cast<double>(sysconf(_SC_CLK_TCK));
    outcome.worker.other_load_cores =
        std::max(0.0, std::round((busy - cpu - runner - resolution) / wall * 100) / 100);
    // Steal likewise: the least the counters show (on a 0.6 s round of 2 CPUs a tick a CPU is 1.7 %).
    outcome.worker.steal_fraction =
        std::max(0.0, (steal - resolution) / (machine_after->total - machine_before->total));
  }
  if (WIFEXITED(watched.status))
    outcome.worker.ended = "exit code " + std::to_string(WEXITSTATUS(watched.status));
  if (WIFSIGNALED(watched.status)) outcome.worker.ended = "signal " + signal_text(WTERMSIG(watched.status));
  classify(outcome, watched, result_file, timeout, oom_before);
  return outcome;
}

}  // namespace ladder
