// Reading a results file, strictly: a report must never be made from a file it misunderstands.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "registry.hpp"
#include "report.hpp"
#include "results.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;

[[noreturn]] void reject(const std::string& path, const std::string& problem) {
  throw InputError("results file '" + path + "': " + problem);
}

template <class T>
T field(const std::string& path, const json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) reject(path, where + " has no '" + key + "'");
  try {
    return object.at(key).get<T>();
  } catch (const json::exception&) {
    reject(path, where + ": '" + key + "' has the wrong type (" + object.at(key).dump() + ")");
  }
}

std::optional<double> optional_number(const json& entry, const char* key) {
  if (!entry.contains(key) || entry.at(key).is_null()) return std::nullopt;
  return entry.at(key).get<double>();
}

// A number that may be missing or null (a peer cannot count allocations): 0 then.
double number(const json& entry, const char* key) {
  return entry.contains(key) && entry.at(key).is_number() ? entry.at(key).get<double>() : 0.0;
}

double seconds(const json& time) { return time.is_number() ? time.get<double>() * 1e-9 : 0; }

Card read_card(const std::string& path, const json& in) {
  Card card;
  card.id = field<std::string>(path, in, "id", "a tier card");
  const std::string where = "the card of '" + card.id + "'";
  card.rung = field<int>(path, in, "rung", where);
  card.summary = field<std::string>(path, in, "summary", where);
  card.learning_time = field<std::string>(path, in, "learning_time", where);
  card.reproducible = field<std::string>(path, in, "reproducible", where);
  card.source_lines = field<int>(path, in, "source_lines", where);
  card.shared_lines = field<int>(path, in, "shared_lines", where);
  card.libraries = field<std::vector<std::string>>(path, in, "libraries", where);
  card.concepts = field<std::vector<std::string>>(path, in, "concepts", where);
  card.flags = field<std::vector<std::string>>(path, in, "flags", where);
  card.parallel = field<bool>(path, in, "parallel", where);
  card.distributed = in.value("distributed", false);
  card.peer = in.value("peer", false);
  card.language = in.value("language", "C++");
  for (const auto& entry : in.value("vectorization", json::array()))
    card.vectorization.push_back({entry.value("build", ""), entry.value("status", ""),
                                  entry.value("evidence", ""), entry.value("register_bits", 0),
                                  entry.value("lanes", 0), entry.value("linked", false)});
  if (in.contains("max_ulp_error") && in.at("max_ulp_error").is_number())
    card.accuracy =
        "its own exp: at most " + format_number("%.2f", in.at("max_ulp_error").get<double>()) + " ulp";
  card.note = in.value("note", "");
  return card;
}

}  // namespace

const Card* Run::card(const std::string& tier) const {
  for (const auto& each : cards)
    if (each.id == tier) return &each;
  return nullptr;
}

std::vector<std::int64_t> Run::sizes() const {
  std::set<std::int64_t> all;
  for (const auto& cell : cells)
    if (cell.ok()) all.insert(cell.n);
  return {all.begin(), all.end()};
}

Run load_run(const std::string& where) {
  namespace fs = std::filesystem;
  const std::string path = fs::is_directory(where) ? (fs::path(where) / "results.json").string() : where;
  std::ifstream in(path);
  if (!in)
    reject(path, "cannot be read (does it exist? give a `ladder run --out` directory or its results.json)");
  const json document = json::parse(in, nullptr, false);
  if (document.is_discarded())
    reject(path,
           "is not valid JSON (cut short, or not a results file); a run in progress rewrites it whole "
           "after every cell, so this file was damaged");
  if (!document.is_object() || !document.contains("schema_version"))
    reject(path, "is not a Ladder results file (no schema_version)");
  const int version =
      document.at("schema_version").is_number_integer() ? document.at("schema_version").get<int>() : -1;
  if (version != results_schema_version)
    reject(path, "has schema version " + document.at("schema_version").dump() +
                     "; this Ladder reads version " + std::to_string(results_schema_version));

  Run run;
  run.path = path;
  run.context = field<json>(path, document, "context", "the file");
  const json& context = run.context;
  run.machine = field<std::string>(path, context, "host_name", "the context");
  run.cpu = field<std::string>(path, context, "cpu_model", "the context");
  run.cpus = field<int>(path, context, "logical_cpus", "the context");
  run.instruction_set = context.value("simd", json::object()).value("kernels_use", "");
  const json& run_info = field<json>(path, context, "run", "the context");
  run.label = run_info.value("label", "");
  run.started = run_info.value("started", "");
  run.status = run_info.value("status", "");
  run.repetitions = context.value("matrix", json::object()).value("repetitions", 0);
  for (const auto& warning : context.value("warnings", json::array()))
    run.warnings.push_back(warning.value("kind", "") + ": " + warning.value("message", "") +
                           (warning.value("cells", json::array()).empty()
                                ? ""
                                : " (" + std::to_string(warning.at("cells").size()) + " cells)"));
  for (const auto& card : field<json>(path, document, "tiers", "the file"))
    run.cards.push_back(read_card(path, card));

  const json instructions = document.value("instructions", json::object());
  if (instructions.value("available", false)) {
    run.instructions_method = instructions.value("tool", "") +
                              " on the -march=" + instructions.value("target", "") + " profiling build, " +
                              instructions.value("integrand", "") +
                              ", n = " + instructions.value("n", json::array()).dump() + ", 1 thread";
    for (auto& card : run.cards) {
      const json entry = instructions.value("tiers", json::object()).value(card.id, json::object());
      if (entry.contains("per_node") && entry.at("per_node").is_number())
        card.instructions_per_node = entry.at("per_node").get<double>();
      else
        card.instructions_unavailable =
            entry.value("unavailable", card.peer ? "not a C++ tier" : "not counted");
    }
  } else {
    run.instructions_unavailable =
        instructions.value("reason", "unavailable: not recorded by this version of Ladder");
  }

  std::map<std::string, Cell> cells;  // by cell name, in the order they appear
  std::vector<std::string> order;
  for (const auto& entry : field<json>(path, document, "benchmarks", "the file")) {
    const std::string name = field<std::string>(path, entry, "cell", "a benchmark entry");
    if (!cells.count(name)) {
      order.push_back(name);
      Cell& cell = cells[name];
      const std::string where = "the entry of cell '" + name + "'";
      cell.name = name;
      cell.tier = field<std::string>(path, entry, "tier", where);
      cell.rung = field<int>(path, entry, "rung", where);
      cell.integrand = field<std::string>(path, entry, "integrand", where);
      cell.n = field<std::int64_t>(path, entry, "n", where);
      cell.threads = field<int>(path, entry, "threads", where);
      cell.ranks = entry.value("ranks", 1);
      cell.oversubscribed = entry.value("oversubscribed", false);
      cell.status = field<std::string>(path, entry, "status", where);
      cell.reason = entry.value("reason", "");
      if (!run.card(cell.tier))
        reject(path, "cell '" + name + "' is of tier '" + cell.tier + "', which has no card");
    }
    Cell& cell = cells[name];
    if (!cell.ok()) continue;
    const std::string run_type = field<std::string>(path, entry, "run_type", "cell '" + name + "'");
    if (run_type == "iteration") {
      cell.repetitions.push_back(seconds(entry.at("real_time")));
      continue;
    }
    const std::string aggregate = field<std::string>(path, entry, "aggregate_name", "cell '" + name + "'");
    if (aggregate == "cv") cell.cv = entry.at("real_time").get<double>();
    if (aggregate == "mean") cell.mean = seconds(entry.at("real_time"));
    if (aggregate == "stddev") cell.stddev = seconds(entry.at("real_time"));
    if (aggregate == "min") cell.min = seconds(entry.at("real_time"));
    if (aggregate == "max") cell.max = seconds(entry.at("real_time"));
    if (aggregate != "median") continue;
    cell.median = seconds(entry.at("real_time"));
    cell.cpu_median = seconds(entry.at("cpu_time"));
    cell.rel_error = optional_number(entry, "rel_error");
    cell.rounding_error = optional_number(entry, "rounding_error");
    cell.exact = number(entry, "exact");
    cell.midpoint = number(entry, "midpoint");
    cell.rounding_bound = number(entry, "rounding_bound");
    cell.peak_heap = number(entry, "peak_heap_bytes");
    cell.peak_rss = number(entry, "peak_rss_bytes");
    cell.minor_faults = number(entry, "minor_faults");
    cell.major_faults = number(entry, "major_faults");
    cell.allocations = number(entry, "allocations");
    cell.instruction_set = entry.contains("instruction_set") && entry.at("instruction_set").is_string()
                               ? entry.at("instruction_set").get<std::string>()
                               : "";
    if (entry.contains("reproducible") && entry.at("reproducible").is_boolean())
      cell.reproducible = entry.at("reproducible").get<bool>();
    const json counters = entry.value("counters", json::object());
    if (counters.value("available", false)) {
      auto figure = [&](const char* key) {
        return counters.contains(key) && counters.at(key).is_number()
                   ? std::optional(counters.at(key).get<double>())
                   : std::nullopt;
      };
      cell.ipc = figure("ipc");
      cell.hw_instructions_per_node = figure("instructions_per_node");
      cell.cache_misses = figure("cache_misses");
      cell.branch_misses = figure("branch_misses");
    } else {
      cell.counters_unavailable =
          counters.value("reason", "unavailable: not recorded by this version of Ladder");
    }
    if (entry.contains("memory_timeline")) {
      const json& timeline = entry.at("memory_timeline");
      cell.timeline_seconds = timeline.value("seconds", std::vector<double>{});
      cell.timeline_rss = timeline.value("rss_bytes", std::vector<double>{});
      cell.timeline_cpu = timeline.value("cpu_seconds", std::vector<double>{});
      if (cell.timeline_rss.size() != cell.timeline_seconds.size() ||
          cell.timeline_cpu.size() != cell.timeline_seconds.size())
        reject(path, "cell '" + name + "': its memory timeline's series differ in length");
    }
  }
  for (const auto& name : order) {
    const Cell& cell = cells.at(name);
    if (cell.ok() && (cell.median <= 0 || cell.repetitions.empty()))
      reject(path, "cell '" + name + "' is ok but has no median or no repetitions: the file is incomplete");
    run.cells.push_back(cell);
  }
  return run;
}

}  // namespace ladder::report
