#include "profiling.hpp"

#include <gnu/libc-version.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "build_info.hpp"
#include "errors.hpp"
#include "peers.hpp"
#include "process.hpp"
#include "profiling_flops.hpp"
#include "registry.hpp"
#include "text.hpp"

namespace ladder::profiling {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Output {
  int status = -1;   // the exit code, or -1 when the program did not exit normally
  std::string text;  // stdout and stderr together
};

// Runs a program (no shell, common/process.hpp) with `input` on its stdin and collects what it prints. One
// that cannot be started reads as exit code 127, the reason on its output, where the caller's message
// quotes it: an empty program name is a tool not found.
Output run_merged(const std::vector<std::string>& argv, const std::string& input = "") {
  Program program{argv};
  program.input = input;  // addr2line reads its addresses while it writes its answers
  program.stderr_to = Stream::merge;
  const Finished finished = run_program(program);
  if (!finished.started())
    return {127, "cannot execute '" + argv.front() + "': " + finished.not_started + "\n"};
  return {finished.signal != 0 ? -1 : finished.exit_code, finished.out};
}

std::string last_lines(const std::string& text, int count = 4) {
  std::size_t start = text.size();
  for (int found = 0; start > 0 && found <= count; --start)
    if (text[start - 1] == '\n') ++found;
  return text.substr(start);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// "callgrind (valgrind-3.19.0)", and the -march the profiling build was made for.
std::string tool_name() {
  return "callgrind (" + first_line(run_merged({on_path("valgrind"), "--version"}).text) + ")";
}
std::string target_of(const std::string& binary) { return first_line(run_merged({binary, "target"}).text); }

struct Callgrind {
  std::string file;  // its output file
  double total = 0;  // instructions collected
};

// One profiled call of a tier under callgrind, collecting inside ladder_profiled_call only.
Callgrind callgrind(const std::string& tier, const std::string& integrand, double a, double b, std::int64_t n,
                    bool per_instruction) {
  char name[] = "/tmp/ladder-callgrind-XXXXXX";
  const int descriptor = mkstemp(name);
  if (descriptor < 0)
    throw WriteError("cannot make a temporary file for callgrind's output (" + std::string(name) +
                     "): " + std::strerror(errno));
  close(descriptor);
  std::vector<std::string> argv = {on_path("valgrind"), "--tool=callgrind",
                                   std::string("--callgrind-out-file=") + name,
                                   "--toggle-collect=ladder_profiled_call"};
  if (per_instruction)
    argv.insert(argv.end(), {"--dump-instr=yes", "--compress-pos=no", "--compress-strings=no"});
  argv.insert(argv.end(), {profiling_binary(), "call", tier, integrand, format_number("%.17g", a),
                           format_number("%.17g", b), std::to_string(n), "1"});
  const Output output = run_merged(argv);
  Callgrind result{name};
  std::ifstream in(name);
  std::string line;
  bool found = false;
  while (std::getline(in, line))
    if (line.rfind("summary: ", 0) == 0 || line.rfind("totals: ", 0) == 0) {
      result.total = std::stod(line.substr(line.find(' ') + 1));
      found = true;
    }
  if (output.status != 0 || !found) {
    std::remove(name);
    throw ToolFailed("callgrind on " + tier + " at n = " + std::to_string(n) + " failed (" +
                     (output.status < 0 ? std::string("killed by a signal")
                                        : "exit code " + std::to_string(output.status)) +
                     (found ? "" : ", no instruction total written") + "): " + last_lines(output.text));
  }
  return result;
}

bool is_math_library(const std::string& object) {
  const std::string name = fs::path(object).filename().string();
  return name.rfind("libm.", 0) == 0 || name.rfind("libm-", 0) == 0 || name.rfind("libmvec", 0) == 0;
}

// The inlining chain of each address, innermost frame first: "file:line" strings (addr2line -i).
std::map<std::uint64_t, std::vector<std::pair<std::string, int>>> inline_chains(
    const std::string& binary, const std::vector<std::uint64_t>& addresses) {
  std::string input;
  for (const auto address : addresses) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx\n", static_cast<unsigned long long>(address));
    input += text;
  }
  const Output output = run_merged({"addr2line", "-a", "-i", "-e", binary}, input);
  if (output.status != 0)
    throw ToolFailed("addr2line on " + binary + " failed (exit code " + std::to_string(output.status) +
                     "): " + last_lines(output.text));
  std::map<std::uint64_t, std::vector<std::pair<std::string, int>>> chains;
  std::stringstream lines(output.text);
  std::string line;
  std::uint64_t current = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("0x", 0) == 0 && line.find(':') == std::string::npos) {
      current = std::stoull(line, nullptr, 16);
      continue;
    }
    if (const auto space = line.find(" (discriminator"); space != std::string::npos) line.erase(space);
    const auto colon = line.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string number = line.substr(colon + 1);
    const int at = number.empty() || number == "?" ? 0 : std::atoi(number.c_str());
    chains[current].emplace_back(line.substr(0, colon), at);
  }
  return chains;
}

}  // namespace

std::string source_directory() {
#ifdef LADDER_SOURCE_DIR
  return fs::weakly_canonical(LADDER_SOURCE_DIR).string() + "/";
#else
  return "";
#endif
}

std::string profiling_binary() {
  if (const char* chosen = std::getenv("LADDER_PROFILING_BINARY"); chosen && *chosen) return chosen;
  try {
    return (fs::path(self_path()).parent_path() / "ladder-profiling").string();
  } catch (const Unavailable&) {
    return "";
  }
}

std::string unavailable_reason() {
  if (on_path("valgrind").empty())
    return "valgrind is not installed (Debian package valgrind; scripts/install-deps.sh installs it)";
  const std::string binary = profiling_binary();
  if (binary.empty() || access(binary.c_str(), X_OK) != 0)
    return "the profiling build is missing: no executable " + (binary.empty() ? "ladder-profiling" : binary) +
           " (built with `ladder`; or set LADDER_PROFILING_BINARY)";
  return "";
}

Toolchain toolchain() { return {build_info().compiler, gnu_get_libc_version()}; }

InstructionCounts count_instructions(const std::vector<std::string>& tiers, const std::string& integrand,
                                     double a, double b, std::int64_t small, std::int64_t large) {
  if (const auto reason = unavailable_reason(); !reason.empty())
    return InstructionCounts::not_counted("unavailable: " + reason);
  const std::string binary = profiling_binary();
  const Output listed = run_merged({binary, "list"});
  if (listed.status != 0)
    return InstructionCounts::not_counted("unavailable: " + binary +
                                          " does not run: " + last_lines(listed.text));
  std::vector<std::string> held;
  std::stringstream ids(listed.text);
  for (std::string id; std::getline(ids, id);) held.push_back(id);

  InstructionCounts result;
  result.available = true;
  result.tool = tool_name();
  result.target = target_of(binary);
  result.compiler = toolchain().compiler;
  result.glibc = toolchain().glibc;
  result.integrand = integrand;
  result.a = a;
  result.b = b;
  result.n = {small, large};
  result.threads = 1;
  result.method =
      "instructions executed inside one kernel call (callgrind Ir, after a warm-up call), on the profiling "
      "build, at two sizes: per node = the difference / the difference in n";
  // FLOPs from the same two runs, each instruction's count weighed by the opcode table.
  const std::string no_flops = flops_unavailable_reason();
  result.flops_method = no_flops.empty() ? flops_method(result.target) : "not counted: " + no_flops;
  using Counted = InstructionCounts::Tier;
  const auto unavailable = [](const std::string& id, const std::string& why) {
    return Counted{id, {}, {}, why};
  };
  // Instruction counts do not depend on the load: the runs can share the cores.
  const unsigned parallel = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::future<Counted>> pending;
  for (const auto& id : tiers) {
    if (find_peer(id)) continue;  // not C++: counted by no valgrind
    const Tier& tier = find_tier(id);
    if (std::find(held.begin(), held.end(), id) == held.end()) {
      result.tiers.push_back(unavailable(
          id, "unavailable: not in the profiling build (" +
                  std::string(tier.card.distributed ? "started by an MPI launcher" : "not a CPU tier") +
                  ")"));
      continue;
    }
    if (const auto reason = unsupported_reason(tier, find_integrand(integrand)); !reason.empty()) {
      result.tiers.push_back(
          unavailable(id, "unavailable: it cannot run integrand '" + integrand + "': it " + reason));
      continue;
    }
    if (pending.size() >= parallel) {
      result.tiers.push_back(pending.front().get());
      pending.erase(pending.begin());
    }
    pending.push_back(std::async(std::launch::async, [=] {
      try {
        const auto one = callgrind(id, integrand, a, b, small, no_flops.empty());
        const auto two = callgrind(id, integrand, a, b, large, no_flops.empty());
        const double between = static_cast<double>(large - small);
        Counted counted{id, (two.total - one.total) / between, {one.total, two.total}, ""};
        try {
          if (no_flops.empty()) {
            const auto flops = flops_per_node(executed_flops(one.file), executed_flops(two.file), between);
            counted.flops_per_node = flops.flops, counted.fp_instructions_per_node = flops.fp_instructions;
          }
        } catch (const ToolFailed&) {  // the instructions stand; the FLOPs stay null
        }
        std::remove(one.file.c_str());
        std::remove(two.file.c_str());
        return counted;
      } catch (const std::exception& failure) {
        return Counted{id, {}, {}, std::string("unavailable: ") + failure.what()};
      }
    }));
  }
  for (auto& entry : pending) result.tiers.push_back(entry.get());
  return result;
}

FlopsPerNode count_flops(const std::string& tier, const std::string& integrand, double a, double b,
                         std::int64_t small, std::int64_t large) {
  if (const auto reason = unavailable_reason(); !reason.empty())
    throw Unavailable("cannot count FLOPs: " + reason);
  if (const auto reason = flops_unavailable_reason(); !reason.empty())
    throw Unavailable("cannot count FLOPs: " + reason);
  const auto one = callgrind(tier, integrand, a, b, small, true);
  const auto two = callgrind(tier, integrand, a, b, large, true);
  struct Removed {
    std::string one, two;
    ~Removed() { std::remove(one.c_str()), std::remove(two.c_str()); }
  } removed{one.file, two.file};
  return flops_per_node(executed_flops(one.file), executed_flops(two.file),
                        static_cast<double>(large - small));
}

LineProfile profile_lines(const std::string& tier, const std::string& integrand, double a, double b,
                          std::int64_t n) {
  if (const auto reason = unavailable_reason(); !reason.empty())
    throw Unavailable("cannot profile: " + reason);
  const std::string binary = profiling_binary();
  const Callgrind run = callgrind(tier, integrand, a, b, n, true);

  // The output, uncompressed: "ob=" the object, "cob=" a call's callee object, "calls=" then the call's
  // inclusive cost line, and cost lines "0xADDRESS LINE Ir".
  std::map<std::uint64_t, double> by_address;
  {
    std::ifstream in(run.file);
    const std::string self_object = fs::weakly_canonical(binary).string();
    std::string line, object, callee;
    bool call_cost = false;
    while (std::getline(in, line)) {
      if (line.rfind("ob=", 0) == 0) {
        object = fs::weakly_canonical(line.substr(3)).string();
      } else if (line.rfind("cob=", 0) == 0) {
        callee = line.substr(4);
      } else if (line.rfind("calls=", 0) == 0) {
        call_cost = true;
      } else if (line.rfind("0x", 0) == 0) {
        std::stringstream fields(line);
        std::string address, at;
        double cost = 0;
        fields >> address >> at >> cost;
        const bool ours = object == self_object;
        // A call into libm is charged, whole, to the line that made it (the exp of the scalar tiers); every
        // other call's instructions are counted where they run.
        if (call_cost ? ours && is_math_library(callee) : ours) {
          by_address[std::stoull(address, nullptr, 16)] += cost;
        }
        if (call_cost) callee.clear();
        call_cost = false;
      } else if (line.rfind("fn=", 0) == 0) {
        callee.clear();
      }
    }
  }
  std::remove(run.file.c_str());

  std::vector<std::uint64_t> addresses;
  for (const auto& [address, cost] : by_address) addresses.push_back(address);
  const auto chains = inline_chains(binary, addresses);
  const std::string project = source_directory();
  std::map<std::pair<std::string, int>, double> by_line;
  double on_lines = 0;
  for (const auto& [address, cost] : by_address) {
    const auto chain = chains.find(address);
    if (chain == chains.end()) continue;
    for (const auto& [file, line] : chain->second) {  // the innermost line of the project's own code
      if (line <= 0 || project.empty() || fs::weakly_canonical(file).string().rfind(project, 0) != 0)
        continue;
      by_line[{fs::weakly_canonical(file).string(), line}] += cost;
      on_lines += cost;
      break;
    }
  }

  LineProfile profile;
  profile.tier = tier;
  profile.integrand = integrand;
  profile.n = n;
  profile.total = run.total;
  profile.outside = run.total - on_lines;
  profile.target = target_of(binary);
  profile.tool = tool_name();
  for (const auto& [where, cost] : by_line) profile.lines.push_back({where.first, where.second, cost});
  std::stable_sort(profile.lines.begin(), profile.lines.end(),
                   [](const LineCost& x, const LineCost& y) { return x.instructions > y.instructions; });
  return profile;
}

}  // namespace ladder::profiling
