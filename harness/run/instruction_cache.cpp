// Instruction counts kept once per profiling build and machine (instruction_cache.hpp).
#include "instruction_cache.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "atomic_file.hpp"
#include "calibration.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "profiling.hpp"
#include "text.hpp"

namespace ladder {

namespace {
constexpr const char* kept_note = "; kept from an earlier run of this profiling build on this machine";
}  // namespace

std::string instructions_cache_file(const std::vector<std::string>& tiers, const std::string& integrand,
                                    double a, double b) {
  const std::string binary = profiling::profiling_binary();
  struct stat status {};
  ::stat(binary.c_str(), &status);
  std::string identity = binary + "|" + std::to_string(status.st_size) + "|" +
                         std::to_string(status.st_mtime) + "|" + machine_identity() + "|" + integrand + "|" +
                         format_number("%.17g", a) + "|" + format_number("%.17g", b);
  for (const auto& tier : tiers) identity += "|" + tier;
  char name[64];
  std::snprintf(name, sizeof name, "instructions-%016zx.json", std::hash<std::string>{}(identity));
  return cache_directory() + "/" + name;
}

std::optional<InstructionCounts> cached_instructions(const std::vector<std::string>& tiers,
                                                     const std::string& integrand, double a, double b) {
  try {
    const std::string text = read_whole_file(instructions_cache_file(tiers, integrand, a, b), "the cache");
    const auto parsed = parse_json_document(text, "the instruction counts' cache");
    if (parsed.is_discarded()) return std::nullopt;
    InstructionCounts counts = read_instruction_counts(JsonReader(parsed, "instructions"));
    if (!counts.available || counts.integrand != integrand) return std::nullopt;
    if (counts.method.find(kept_note) == std::string::npos) counts.method += kept_note;
    return counts;
  } catch (const std::exception&) {  // absent, not a file, or damaged: counted afresh
    return std::nullopt;
  }
}

void keep_instructions(const std::vector<std::string>& tiers, const InstructionCounts& counts) {
  if (!counts.available) return;
  try {
    std::error_code error;
    std::filesystem::create_directories(cache_directory(), error);
    InstructionCounts kept = counts;
    kept.by_integrand.clear();
    write_file_atomically(instructions_cache_file(tiers, counts.integrand, counts.a, counts.b),
                          nlohmann::json(kept).dump(1) + "\n");
  } catch (const std::exception&) {  // a cache that cannot be written is no error: counted next time too
    return;
  }
}

}  // namespace ladder
