#include "runner.hpp"

#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "matrix.hpp"
#include "peers.hpp"
#include "process_stats.hpp"
#include "profiling.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "results.hpp"
#include "sizes.hpp"
#include "text.hpp"
#include "worker.hpp"

namespace ladder {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) { interrupted = 1; }

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a wait in progress returns at once
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::string now_iso() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string clock_text(double seconds) {
  const long whole = std::lround(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
  return text;
}

// ---- the matrix from the command line -----------------------------------------------------------------

Matrix requested_matrix(const RunArguments& args, const Matrix* resumed) {
  const std::string peers = args.peers.value_or(resumed ? resumed->peers : "");
  if (!peers.empty()) load_peers(peers);  // their cards join the registry before any tier is named
  Matrix matrix;
  if (resumed && !args.preset) {
    matrix = *resumed;
  } else {
    const Preset& preset = find_preset(args.preset.value_or("standard"));
    for (const auto& tier : tiers()) matrix.tiers.push_back(tier.card.id);
    matrix.python_limit = preset.python_limit;
    matrix.integrand = integrands().front().name;
    matrix.sizes = preset.sizes;
    for (int count = 1; count <= logical_cpus(); ++count) matrix.threads.push_back(count);
    matrix.repetitions = preset.repetitions;
    matrix.min_time = preset.min_time;
    matrix.min_warmup_time = preset.min_warmup_time;
    matrix.seed = resumed ? resumed->seed : std::random_device{}();
    matrix.cpus = logical_cpus();
    matrix.ranks = matrix.cpus >= 2 ? std::vector<int>{1, 2} : std::vector<int>{1};
  }
  if (!args.tiers.empty()) {
    matrix.tiers.clear();
    bool named_a_peer = false;
    for (const auto& id : args.tiers) {
      named_a_peer = find_tier(id).card.peer || named_a_peer;  // throws, listing the known tiers
      if (std::find(matrix.tiers.begin(), matrix.tiers.end(), id) == matrix.tiers.end())
        matrix.tiers.push_back(id);
    }
    if (!peers.empty() && !named_a_peer)  // --peers with C++ tiers named: every peer joins them
      for (const auto& tier : tiers())
        if (tier.card.peer) matrix.tiers.push_back(tier.card.id);
  }
  matrix.peers = peers;
  if (args.python_limit) matrix.python_limit = parse_size(*args.python_limit);
  if (args.integrand) matrix.integrand = integrands()[find_integrand(*args.integrand)].name;
  if (args.a) matrix.a = parse_real("a", *args.a);
  if (args.b) matrix.b = parse_real("b", *args.b);
  if (!args.sizes.empty()) {
    matrix.sizes.clear();
    for (const auto& text : args.sizes) matrix.sizes.push_back(parse_size(text));
    std::sort(matrix.sizes.begin(), matrix.sizes.end());
    matrix.sizes.erase(std::unique(matrix.sizes.begin(), matrix.sizes.end()), matrix.sizes.end());
  }
  if (!args.threads.empty()) {
    matrix.threads.clear();
    for (const auto& text : args.threads) {
      if (text == "all") {
        for (int count = 1; count <= logical_cpus(); ++count) matrix.threads.push_back(count);
        continue;
      }
      matrix.threads.push_back(parse_threads(text));
    }
    std::sort(matrix.threads.begin(), matrix.threads.end());
    matrix.threads.erase(std::unique(matrix.threads.begin(), matrix.threads.end()), matrix.threads.end());
  }
  if (args.repetitions) {
    if (*args.repetitions < 1 || *args.repetitions > 1000)
      throw InputError("--reps " + std::to_string(*args.repetitions) +
                       " is out of range; repetitions are a whole number from 1 to 1000");
    matrix.repetitions = *args.repetitions;
  }
  if (args.min_time) {
    if (!(*args.min_time > 0 && *args.min_time <= 100))
      throw InputError(
          "--min-time " + std::to_string(*args.min_time) +
          " is out of range; it is the seconds a repetition runs at least, above 0 and at most 100");
    matrix.min_time = *args.min_time;
    matrix.min_warmup_time = std::min(matrix.min_warmup_time, *args.min_time);
  }
  if (args.seed) matrix.seed = *args.seed;
  if (!args.ranks.empty()) {
    if (!distributed::built())
      throw InputError("--ranks: this build has no distributed tier (MPI was not found when it was built)");
    matrix.ranks.clear();
    for (const auto& text : args.ranks) matrix.ranks.push_back(parse_count("ranks", text));
    std::sort(matrix.ranks.begin(), matrix.ranks.end());
    matrix.ranks.erase(std::unique(matrix.ranks.begin(), matrix.ranks.end()), matrix.ranks.end());
    matrix.ranks_given = true;
  }
  if (args.reproducible) matrix.reproducible = true;
  if (matrix.tiers.empty()) throw InputError("no tiers to run");
  return matrix;
}

// ---- the output directory -------------------------------------------------------------------------------

struct Paths {
  std::string dir, journal, json, csv, work;
};

Paths paths_in(const std::string& dir) {
  return {dir, dir + "/journal.jsonl", dir + "/results.json", dir + "/results.csv", dir + "/.work"};
}

// Checked before any cell runs: the directory can be made and written, and holds nothing we would lose.
void prepare_directory(const std::string& dir, bool resuming, bool force) {
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw InputError("--out '" + dir + "' is a file, not a directory");
  if (!resuming) {
    if (fs::exists(dir, error) && !fs::is_empty(dir, error) && !force)
      throw InputError("--out '" + dir + "' is not empty; give --resume " + dir +
                       " to finish the run it holds, --force to replace its results, or another --out");
    fs::create_directories(dir, error);
    if (error) throw InputError("cannot create --out '" + dir + "': " + error.message());
  }
  const std::string probe = dir + "/.ladder-write-test-" + std::to_string(getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError("cannot write in --out '" + dir + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

// ---- thread binding ---------------------------------------------------------------------------------------

// How a worker's threads are placed. Two traps are avoided here:
// - libgomp pins the thread that loads it as soon as OMP_PROC_BIND is set, so an orchestrator started
//   with OMP_PROC_BIND would hand every worker a one-CPU mask (fork inherits it), and every tier would
//   quietly run on one core: each worker starts from every CPU the run may use (the union of OpenMP's
//   places, or the mask the run started with).
// - the same pinning of the main thread in a worker whose tier is not OpenMP's would confine oneTBB's
//   threads, which inherit the main thread's mask: OMP_PROC_BIND and OMP_PLACES are given only to the
//   tiers whose card asks for them, and removed for the others.
struct ThreadBinding {
  cpu_set_t cpus;
  std::vector<std::string> set, unset;

  static cpu_set_t run_cpus() {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    const int places = omp_get_num_places();
    for (int place = 0; place < places; ++place) {
      std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
      omp_get_place_proc_ids(place, ids.data());
      for (const int id : ids) CPU_SET(id, &cpus);
    }
    if (CPU_COUNT(&cpus) == 0) sched_getaffinity(0, sizeof cpus, &cpus);
    return cpus;
  }

  static ThreadBinding for_tier(const TierCard& card, const cpu_set_t& cpus) {
    ThreadBinding binding{cpus, {}, {}};
    for (const auto& variable : card.environment) {
      const auto name = variable.substr(0, variable.find('='));
      if (!std::getenv(name.c_str())) binding.set.push_back(variable);
    }
    const bool openmp =
        std::any_of(card.environment.begin(), card.environment.end(),
                    [](const std::string& variable) { return variable.rfind("OMP_", 0) == 0; });
    if (!openmp)
      for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES"})
        if (std::getenv(name)) binding.unset.push_back(name);
    return binding;
  }

  // In the worker, before exec.
  void apply() const {
    sched_setaffinity(0, sizeof cpus, &cpus);
    for (const auto& variable : set) putenv(const_cast<char*>(variable.c_str()));
    for (const auto& name : unset) unsetenv(name.c_str());
  }

  json describe() const {
    json environment = json::object();
    for (const auto& variable : set) {
      const auto equals = variable.find('=');
      environment[variable.substr(0, equals)] = variable.substr(equals + 1) + " (set by ladder)";
    }
    for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY"})
      if (const char* value = std::getenv(name); value && !environment.contains(name))
        environment[name] = std::find(unset.begin(), unset.end(), name) != unset.end()
                                ? std::string(value) + " (removed: this tier does not use OpenMP)"
                                : std::string(value) + " (from the environment)";
    return environment;
  }
};

std::string cpu_list(const cpu_set_t& cpus) {
  std::vector<std::string> ids;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &cpus)) ids.push_back(std::to_string(cpu));
  return join(ids, ",");
}

// ---- one worker -------------------------------------------------------------------------------------------

struct WorkerOutcome {
  std::string status;
  std::string reason;
  json measurement;
  json worker;  // wall and CPU seconds, how it ended, the machine's other load
};

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

WorkerOutcome run_worker_process(const std::string& executable, const Cell& cell, const Matrix& matrix,
                                 const Reference& ref, const ThreadBinding& binding,
                                 const std::string& hostfile, const std::string& result_file, double timeout,
                                 std::int64_t memory_limit) {
  const TierCard& card = find_tier(cell.tier).card;
  const std::string spec = json{{"cell", cell_to_json(cell)},
                                {"matrix", matrix.to_json()},
                                {"reference", to_text(ref)},
                                {"rounding_bound", rounding_bound(card, ref, cell.n, cell.threads)}}
                               .dump();
  // A distributed tier's worker starts once per rank, under the MPI launcher; a peer's is its own program.
  std::vector<std::string> command;
  if (card.distributed)
    command = distributed::launch_command(cell.ranks, cell.threads, matrix.cpus, hostfile);
  if (card.peer) {
    command = {"/usr/bin/env", python_interpreter(), card.runner};
  } else {
    command.insert(command.end(), {executable, "worker"});
  }
  const std::size_t launcher_words = card.distributed ? command.size() - 2 : 0;
  command.insert(command.end(), {"--spec", spec, "--result", result_file});
  std::vector<char*> arguments;
  for (auto& argument : command) arguments.push_back(argument.data());
  arguments.push_back(nullptr);
  int output[2];
  if (pipe2(output, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  ::unlink(result_file.c_str());
  const auto machine_before = process::machine_time();
  const auto oom_before = oom_kills();
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
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
    _exit(127);
  }
  ::close(output[1]);
  setpgid(pid, pid);

  std::string captured;
  int status = 0;
  rusage usage{};
  bool timed_out = false, stopped_by_us = false, finished = false;
  Clock::time_point stopped_at{};
  while (!finished) {
    pollfd watch{output[0], POLLIN, 0};
    if (poll(&watch, 1, 100) > 0) {
      char buffer[4096];
      const ssize_t count = ::read(output[0], buffer, sizeof buffer);
      if (count > 0) captured = tail(captured + std::string(buffer, static_cast<std::size_t>(count)), 8192);
    }
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) {
      finished = true;
      break;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (!stopped_by_us && (interrupted || elapsed > timeout)) {
      timed_out = !interrupted;
      stopped_by_us = true;
      stopped_at = Clock::now();
      kill(-pid, SIGTERM);  // an MPI launcher passes it on to its ranks
    }
    if (stopped_by_us && Clock::now() - stopped_at > std::chrono::seconds(3)) kill(-pid, SIGKILL);
  }
  char buffer[4096];
  ssize_t count = 0;
  fcntl(output[0], F_SETFL, O_NONBLOCK);  // a process the worker started may still hold the pipe
  while ((count = ::read(output[0], buffer, sizeof buffer)) > 0)
    captured = tail(captured + std::string(buffer, static_cast<std::size_t>(count)), 8192);
  ::close(output[0]);
  kill(-pid, SIGKILL);  // anything the worker left behind in its group

  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const auto machine_after = process::machine_time();
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  WorkerOutcome outcome;
  outcome.worker = {{"wall_seconds", wall}, {"cpu_seconds", cpu}};
  if (launcher_words)
    outcome.worker["launcher"] = join({command.begin(), command.begin() + launcher_words}, " ");
  if (machine_before && machine_after && wall > 0) {
    const double busy = machine_after->busy - machine_before->busy;
    const double steal = machine_after->steal - machine_before->steal;
    outcome.worker["other_load_cores"] = std::max(0.0, std::round((busy - cpu) / wall * 100) / 100);
    outcome.worker["steal_fraction"] = std::max(0.0, steal / (machine_after->total - machine_before->total));
  } else {
    outcome.worker["other_load_cores"] = 0.0;
    outcome.worker["steal_fraction"] = 0.0;
  }

  if (WIFEXITED(status)) outcome.worker["ended"] = "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) outcome.worker["ended"] = "signal " + signal_text(WTERMSIG(status));

  std::ifstream result(result_file);
  json reported = json::parse(result, nullptr, false);
  ::unlink(result_file.c_str());
  const std::string output_tail = tail(captured, 600);
  const std::string with_output = output_tail.empty() ? "" : "; its last output: " + output_tail;

  if (interrupted && stopped_by_us) {
    outcome.status = "interrupted";
  } else if (timed_out) {
    outcome.status = "timeout";
    outcome.reason =
        "still running after " + format_seconds(timeout) + " (--cell-timeout); stopped" + with_output;
  } else if (!reported.is_discarded() && reported.is_object() && reported.contains("status")) {
    outcome.status = reported.at("status");
    if (outcome.status == "ok") {
      reported.erase("status");
      outcome.measurement = std::move(reported);
    } else {
      outcome.reason = reported.value("reason", std::string());
    }
  } else if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const auto oom_after = oom_kills();
    if (signal == SIGKILL && oom_before && oom_after && *oom_after > *oom_before) {
      outcome.status = "out_of_memory";
      outcome.reason = "killed by the kernel's out-of-memory killer" + with_output;
    } else if (signal == SIGKILL) {
      outcome.status = "killed";
      outcome.reason = "killed by SIGKILL (the out-of-memory killer or another process)" + with_output;
    } else {
      outcome.status = "crashed";
      outcome.reason = "the worker died of " + signal_text(signal) + with_output;
    }
  } else {
    outcome.status = "failed";
    outcome.reason =
        "the worker exited with code " + std::to_string(WEXITSTATUS(status)) + " and no result" + with_output;
  }
  return outcome;
}

// ---- progress ---------------------------------------------------------------------------------------------

class Progress {
 public:
  Progress(std::size_t total, std::size_t done) : total_(total), done_(done), start_(Clock::now()) {
    terminal_ = isatty(STDOUT_FILENO);
  }

  void starting(const Cell& cell) {
    if (!terminal_) return;
    const int width = 24;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    std::printf("\r\033[K[%s%s] %zu/%zu  %s  %s elapsed%s", std::string(filled, '#').c_str(),
                std::string(width - filled, '.').c_str(), done_, total_, cell.name().c_str(),
                clock_text(elapsed()).c_str(), remaining().c_str());
    std::fflush(stdout);
  }

  void finished(const json& event) {
    ++done_;
    ++measured_;
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                       event.at("name").get<std::string>() + ": " + event.at("status").get<std::string>();
    if (event.at("status") == "ok") {
      const auto& measurement = event.at("measurement");
      const double median = measurement.at("aggregates").at("median").at("real_time").get<double>() * 1e-9;
      const double n = event.at("cell").at("n").get<double>();
      char figures[160];
      std::snprintf(figures, sizeof figures, ", median %s (%.3g ns a node), heap %s",
                    format_seconds(median).c_str(), median * 1e9 / n,
                    format_bytes(measurement.at("memory").at("peak_heap_bytes").get<double>()).c_str());
      line += figures;
    } else {
      line += " — " + event.value("reason", std::string());
    }
    if (terminal_) std::printf("\r\033[K");
    std::printf("%s  (%s elapsed)\n", line.c_str(), clock_text(elapsed()).c_str());
    std::fflush(stdout);
  }

  void clear() {
    if (terminal_) std::printf("\r\033[K"), std::fflush(stdout);
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  std::string remaining() const {
    if (measured_ == 0) return "";
    return ", about " + clock_text(elapsed() / measured_ * (total_ - done_)) + " left";
  }
  std::size_t total_, done_, measured_ = 0;
  Clock::time_point start_;
  bool terminal_;
};

// ---- the run
// ------------------------------------------------------------------------------------------------

std::string executable_path() {
  std::error_code error;
  const auto path = fs::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find this program's own path: " + error.message());
  return path.string();
}

void write_results(const Paths& paths, const Journal& journal, const json& run) {
  const json document = results_document(journal, run);
  write_file_atomically(paths.json, document.dump(2) + "\n");
  write_file_atomically(paths.csv, results_csv(document));
}

void print_summary(const Journal& journal, const json& run, const Paths& paths) {
  std::printf("\n%-16s %12s %7s %5s  %-13s %11s %11s %10s %11s\n", "tier", "n", "threads", "ranks", "status",
              "median", "ns/node", "rel error", "peak heap");
  std::vector<const json*> cells;
  for (const auto& event : journal.events)
    if (event.at("kind") == "cell") cells.push_back(&event);
  std::sort(cells.begin(), cells.end(), [](const json* x, const json* y) {
    const auto key = [](const json* e) {
      return std::make_tuple(e->at("cell").at("n").get<std::int64_t>(), e->at("rung").get<int>(),
                             e->at("cell").value("ranks", 1), e->at("cell").at("threads").get<int>());
    };
    return key(x) < key(y);
  });
  for (const json* event : cells) {
    const auto& cell = event->at("cell");
    std::string median = "-", per_node = "-", error = "-", heap = "-";
    if (event->at("status") == "ok") {
      const auto& measurement = event->at("measurement");
      const double seconds = measurement.at("aggregates").at("median").at("real_time").get<double>() * 1e-9;
      median = format_seconds(seconds);
      char text[32];
      std::snprintf(text, sizeof text, "%.3g", seconds * 1e9 / cell.at("n").get<double>());
      per_node = text;
      if (!measurement.at("rel_error").is_null()) {
        std::snprintf(text, sizeof text, "%.2e", measurement.at("rel_error").get<double>());
        error = text;
      }
      heap = format_bytes(measurement.at("memory").at("peak_heap_bytes").get<double>());
    }
    std::printf("%-16s %12lld %7d %5d  %-13s %11s %11s %10s %11s\n",
                cell.at("tier").get<std::string>().c_str(),
                static_cast<long long>(cell.at("n").get<std::int64_t>()), cell.at("threads").get<int>(),
                cell.value("ranks", 1), event->at("status").get<std::string>().c_str(), median.c_str(),
                per_node.c_str(), error.c_str(), heap.c_str());
  }
  const json found = warnings(journal, run);
  if (!found.empty()) std::printf("\nwarnings:\n");
  for (const auto& warning : found) {
    std::printf("  %s: %s\n", warning.at("kind").get<std::string>().c_str(),
                warning.at("message").get<std::string>().c_str());
    std::size_t shown = 0;
    for (const auto& cell : warning.at("cells")) {
      if (++shown > 8) {
        std::printf("    … and %zu more (see results.json)\n", warning.at("cells").size() - 8);
        break;
      }
      std::printf("    %s\n", cell.get<std::string>().c_str());
    }
  }
  if (run.contains("this_session")) {
    const auto& session = run.at("this_session");
    const double wall = session.at("wall_seconds"), measured = session.at("measured_seconds");
    std::printf(
        "\ntime: %s wall, of which %s inside Google Benchmark's timed repetitions (%.0f %% harness: "
        "process start, warm-up, iteration sizing, the memory pass, the references)\n",
        format_seconds(wall).c_str(), format_seconds(measured).c_str(),
        wall > 0 ? 100 * (wall - measured) / wall : 0.0);
  }
  std::printf("\nresults: %s, %s (one row a cell), journal %s\n", paths.json.c_str(), paths.csv.c_str(),
              paths.journal.c_str());
}

}  // namespace

int run_matrix(const RunArguments& args) {
  const bool resuming = args.resume.has_value();
  if (resuming && args.force)
    throw InputError("--resume and --force do not go together: resume keeps the results");
  if (!(args.cell_timeout > 0)) throw InputError("--cell-timeout must be a number of seconds above 0");
  const Paths paths = paths_in(resuming ? *args.resume : args.out);
  if (!cpu_runs_this_build())
    throw InputError("this binary's kernels use " + build_info().instruction_set +
                     ", which this CPU lacks (it has " + best_instruction_set() +
                     "): rebuild here, or with -DLADDER_ARCH=x86-64-v3 (or lower) for a portable binary");

  Journal journal;
  Matrix matrix;
  if (resuming) {
    if (!fs::is_directory(paths.dir)) throw InputError("--resume '" + paths.dir + "' is not a directory");
    journal = read_journal(paths.journal, false);
    const Matrix recorded = Matrix::from_json(journal.header.at("matrix"));
    matrix = requested_matrix(args, &recorded);
    if (const auto difference = Matrix::difference(matrix, recorded); !difference.empty())
      throw InputError("--resume '" + paths.dir + "' holds another matrix (" + difference +
                       "); resume it without matrix options, or start a new run in another --out");
    prepare_directory(paths.dir, true, false);
    journal = read_journal(paths.journal, true);
  } else {
    matrix = requested_matrix(args, nullptr);
    matrix.cells();  // checks every tier id before anything is written
    prepare_directory(paths.dir, false, args.force);
  }

  const std::vector<Cell> cells = matrix.cells();
  std::set<std::string> done;
  for (const auto& event : journal.events)
    if (event.at("kind") == "cell") done.insert(event.at("name").get<std::string>());

  if (resuming) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const json resume = {
        {"kind", "resume"}, {"at", now_iso()}, {"host_name", host}, {"command_line", args.command_line}};
    append_journal(paths.journal, resume);
    journal.events.push_back(resume);
  } else {
    journal.header = {{"kind", "run"},
                      {"schema_version", results_schema_version},
                      {"started", now_iso()},
                      {"label", args.label},
                      {"preset", args.preset.value_or("standard")},
                      {"command_line", args.command_line},
                      {"load_average_before", load_average()},
                      {"matrix", matrix.to_json()},
                      {"context", machine_context()},
                      {"tiers", tier_cards(matrix.tiers)}};
    if (args.instructions) {
      std::printf("counting instructions a node under callgrind (--no-instructions skips this) …\n");
      std::fflush(stdout);
      journal.header["instructions"] =
          profiling::count_instructions(matrix.tiers, matrix.integrand, matrix.a, matrix.b);
    } else {
      journal.header["instructions"] = {{"available", false}, {"reason", "not counted: --no-instructions"}};
    }
    write_file_atomically(paths.journal, journal.header.dump() + "\n");
  }
  std::error_code error;
  fs::create_directories(paths.work, error);

  const std::string executable = executable_path();
  const cpu_set_t run_cpus = ThreadBinding::run_cpus();
  json run = {
      {"label", journal.header.at("label")},
      {"preset", journal.header.at("preset")},
      {"started", journal.header.at("started")},
      {"status", "running"},
      {"cells_total", cells.size()},
      {"cells_done", done.size()},
      {"cell_timeout_seconds", args.cell_timeout},
      {"worker_cpus", cpu_list(run_cpus)},
      {"hostfile", args.hostfile.empty() ? json(nullptr) : json(args.hostfile)},
      {"thread_binding",
       "OpenMP tiers: OMP_PROC_BIND=close, OMP_PLACES=cores unless the environment sets them (each "
       "cell's environment is in its entry); oneTBB tiers: a task_arena of the requested size, threads "
       "not pinned; every worker starts with all of worker_cpus"},
      {"interleaving",
       "cells run in a shuffled order (matrix seed); each cell's repetitions run in "
       "its own worker, with Google Benchmark's random interleaving on"}};
  write_results(paths, journal, run);

  catch_interrupts();
  Progress progress(cells.size(), done.size());
  const auto started = Clock::now();
  double measured_seconds = 0;
  bool any_failed = false;
  std::map<std::pair<std::string, std::int64_t>, Reference> references;  // one interval a run
  for (const auto& cell : cells) {
    if (interrupted) break;
    if (done.count(cell.name())) continue;
    const Tier& tier = find_tier(cell.tier);
    json event = {{"kind", "cell"},
                  {"name", cell.name()},
                  {"cell", cell_to_json(cell)},
                  {"rung", tier.card.rung},
                  {"oversubscribed", distributed::oversubscribed(cell.ranks, cell.threads, matrix.cpus)}};

    const double predicted = tier.card.heap_bytes_per_node * static_cast<double>(cell.n);
    const auto available = process::available_memory().value_or(0);
    if (const auto reason = unavailable_reason(tier); !reason.empty()) {
      event.update(
          {{"status", "unavailable"}, {"reason", "tier '" + cell.tier + "' cannot run here: " + reason}});
    } else if (available > 0 && predicted > 0.9 * static_cast<double>(available)) {
      char reason[256];
      std::snprintf(reason, sizeof reason,
                    "not attempted: it needs about %s (%g bytes a node × %lld nodes) and the machine has %s "
                    "available",
                    format_bytes(predicted).c_str(), tier.card.heap_bytes_per_node,
                    static_cast<long long>(cell.n), format_bytes(static_cast<double>(available)).c_str());
      event.update({{"status", "skipped"}, {"reason", reason}});
    } else if (tier.card.size_limit && cell.n > std::min(tier.card.size_limit, matrix.python_limit)) {
      event.update({{"status", "skipped"},
                    {"reason", "not attempted: " + tier.card.language + " at n = " + std::to_string(cell.n) +
                                   " would take minutes; the limit is " +
                                   std::to_string(std::min(tier.card.size_limit, matrix.python_limit)) +
                                   " nodes (--python-limit)"}});
    } else {
      progress.starting(cell);
      const std::int64_t limit = static_cast<std::int64_t>(0.9 * static_cast<double>(available)) +
                                 (std::int64_t{512} << 20) + (std::int64_t{16} << 20) * cell.threads;
      const auto key = std::make_pair(cell.integrand, cell.n);
      if (!references.count(key))
        references[key] = reference(integrands()[find_integrand(cell.integrand)], {cell.a, cell.b}, cell.n);
      const ThreadBinding binding = ThreadBinding::for_tier(tier.card, run_cpus);
      WorkerOutcome outcome =
          run_worker_process(executable, cell, matrix, references.at(key), binding, args.hostfile,
                             paths.work + "/cell-" + std::to_string(getpid()) + ".json", args.cell_timeout,
                             available > 0 ? limit : RLIM_INFINITY);
      if (outcome.status == "interrupted") break;
      event["status"] = outcome.status;
      if (!outcome.reason.empty()) event["reason"] = outcome.reason;
      if (outcome.status == "ok") {
        event["measurement"] = outcome.measurement;
        measured_seconds += outcome.measurement.at("measured_seconds").get<double>();
      } else {
        any_failed = true;
      }
      event["worker"] = outcome.worker;
      event["worker"]["environment"] = binding.describe();
    }
    if (!event.contains("worker")) event["worker"] = {{"other_load_cores", 0.0}, {"steal_fraction", 0.0}};
    event["finished"] = now_iso();
    append_journal(paths.journal, event);
    journal.events.push_back(event);
    done.insert(cell.name());
    progress.finished(event);
    run["cells_done"] = done.size();
    run["updated"] = now_iso();
    write_results(paths, journal, run);
  }
  progress.clear();

  const double wall = std::chrono::duration<double>(Clock::now() - started).count();
  const bool complete = done.size() == cells.size();
  run["status"] = complete ? "complete" : "interrupted";
  run["updated"] = now_iso();
  run["finished"] = complete ? json(now_iso()) : json(nullptr);
  run["load_average_after"] = load_average();
  run["this_session"] = {{"wall_seconds", wall},
                         {"measured_seconds", measured_seconds},
                         {"harness_seconds", wall - measured_seconds},
                         {"note",
                          "measured: the time Google Benchmark spent in its timed repetitions; the rest "
                          "is process start, warm-up, iteration sizing, the memory pass and the "
                          "references"}};
  write_results(paths, journal, run);
  fs::remove_all(paths.work, error);
  print_summary(journal, run, paths);
  try {  // the report, from the results file just written, as `ladder report DIR` would make it
    const auto written = report::write_report({report::load_run(paths.json)}, paths.dir);
    std::printf(
        "report: %s\n",
        join(written.size() >= 2 ? std::vector<std::string>(written.end() - 2, written.end()) : written, ", ")
            .c_str());
  } catch (const std::exception& failure) {
    std::printf("report: not written: %s\n", failure.what());
  }
  if (!complete) {
    std::printf(
        "\ninterrupted: %zu of %zu cells are finished and saved; `ladder run --resume %s` runs the rest\n",
        done.size(), cells.size(), paths.dir.c_str());
    return 130;
  }
  bool failed_cells = any_failed;
  for (const auto& event : journal.events)
    if (event.at("kind") == "cell") {
      const std::string status = event.at("status");
      failed_cells = failed_cells || (status != "ok" && status != "skipped" && status != "unavailable");
    }
  return failed_cells ? 1 : 0;
}

}  // namespace ladder
