// FLOPs from callgrind's per-instruction counts and objdump's opcodes (profiling_flops.hpp).
#include "profiling_flops.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "errors.hpp"
#include "flop_table.hpp"
#include "process.hpp"

namespace ladder::profiling {
namespace {

std::string objdump_program() { return on_path("objdump"); }

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// The weight of each instruction of `object` in [start, stop): objdump's lines "  6ebb0:\tvaddsd …".
std::map<std::uint64_t, FlopWeight> weights(const std::string& object, std::uint64_t start,
                                            std::uint64_t stop) {
  Program objdump{{objdump_program(), "-d", "--no-show-raw-insn", "--start-address=" + hex(start),
                   "--stop-address=" + hex(stop), object}};
  objdump.stderr_to = Stream::merge;
  const Finished finished = run_program(objdump);
  if (!finished.started()) throw ToolFailed("cannot run objdump on " + object + ": " + finished.not_started);
  const std::string& text = finished.out;
  if (!finished.ok())
    throw ToolFailed("objdump on " + object + " failed: " + text.substr(0, text.find('\n')));
  std::map<std::uint64_t, FlopWeight> found;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(":\t");
    if (colon == std::string::npos) continue;
    char* end = nullptr;
    const std::uint64_t address = std::strtoull(line.c_str(), &end, 16);
    if (end != line.c_str() + colon) continue;
    std::istringstream words(line.substr(colon + 2));
    std::string mnemonic, operands;
    words >> mnemonic;
    std::getline(words >> std::ws, operands);
    if (const FlopWeight weight = flop_weight(mnemonic, operands); weight.fp_instruction)
      found[address] = weight;
  }
  return found;
}

}  // namespace

std::string flops_unavailable_reason() {
  return objdump_program().empty() ? "objdump is not installed (Debian package binutils)" : "";
}

std::string flops_method(const std::string& target) {
  return "callgrind --dump-instr=yes on the -march=" + target +
         " profiling build: each instruction executed inside the kernel call, in the binary and in the "
         "libraries it calls (libm's exp included), weighed by an opcode table read from objdump (" +
         std::string(flops_convention) +
         "); a node = the difference between the two sizes / their difference in n";
}

ExecutedFlops executed_flops(const std::string& callgrind_file) {
  // Each object's executed addresses and their counts. Callgrind names an address by its place in the
  // object's file (the load bias taken off), which is where objdump finds it. After "calls=", the next
  // cost line is the call's inclusive cost, charged to the call instruction: not an execution count.
  std::map<std::string, std::map<std::uint64_t, double>> executed;
  {
    std::ifstream in(callgrind_file);
    std::string line, object;
    bool call_cost = false;
    while (std::getline(in, line)) {
      if (line.rfind("ob=", 0) == 0) {
        object = line.substr(3);
      } else if (line.rfind("calls=", 0) == 0) {
        call_cost = true;
      } else if (line.rfind("0x", 0) == 0) {
        if (!call_cost) {
          std::istringstream fields(line);
          std::string address, at;
          double count = 0;
          fields >> address >> at >> count;
          executed[object][std::stoull(address, nullptr, 16)] += count;
        }
        call_cost = false;
      }
    }
  }
  ExecutedFlops result;
  for (const auto& [object, counts] : executed) {
    // Code callgrind cannot place in a file ("???": valgrind's own redirections, a few instructions around
    // malloc and free) has no disassembly to weigh; it does no floating-point work.
    if (access(object.c_str(), R_OK) != 0) continue;
    // Runs of nearby addresses (gaps under 64 KiB) are disassembled together: not the whole binary.
    auto cluster = counts.begin();
    while (cluster != counts.end()) {
      auto end = cluster;
      for (auto next = std::next(end); next != counts.end() && next->first - end->first < (1u << 16); ++next)
        end = next;
      const auto weighed = weights(object, cluster->first, end->first + 16);
      for (auto it = cluster; it != std::next(end); ++it)
        if (const auto weight = weighed.find(it->first); weight != weighed.end()) {
          result.flops += it->second * weight->second.flops;
          result.fp_instructions += it->second;
          result.flops_by_object[object] += it->second * weight->second.flops;
        }
      cluster = std::next(end);
    }
  }
  return result;
}

FlopsPerNode flops_per_node(const ExecutedFlops& small, const ExecutedFlops& large, double nodes_between) {
  FlopsPerNode slope;
  slope.flops = (large.flops - small.flops) / nodes_between;
  slope.fp_instructions = (large.fp_instructions - small.fp_instructions) / nodes_between;
  for (const auto& [object, flops] : large.flops_by_object) {
    const auto before = small.flops_by_object.find(object);
    slope.flops_by_object[object] =
        (flops - (before == small.flops_by_object.end() ? 0 : before->second)) / nodes_between;
  }
  return slope;
}

}  // namespace ladder::profiling
