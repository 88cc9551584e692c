#include "results_file.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "schema_v1.hpp"

namespace ladder {

using nlohmann::json;

namespace {

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

VectorizationRecord read_vectorization(const JsonReader& in) {
  return {in.string_or("build", ""),       in.string_or("status", ""),
          in.string_or("evidence", ""),    in.small_integer_or("register_bits", 0),
          in.small_integer_or("lanes", 0), in.boolean_or("linked", false)};
}

WarningRecord read_warning(const JsonReader& in) {
  WarningRecord warning{in.string_or("kind", ""), in.string_or("message", ""), {}};
  if (const auto cells = in.find("cells")) warning.cells = cells->strings();
  return warning;
}

ContextRecord read_context(const JsonReader& in) {
  ContextRecord context;
  context.host_name = in.at("host_name").string();
  context.cpu_model = in.at("cpu_model").string();
  context.logical_cpus = in.at("logical_cpus").small_integer();
  if (const auto simd = in.find("simd")) context.kernels_use = simd->string_or("kernels_use", "");
  context.compiler = in.string_or("compiler", "");
  context.common_flags = in.string_or("common_flags", "");
  context.memory_total_bytes = in.optional_number("memory_total_bytes");
  if (const auto hypervisor = in.find("hypervisor"))
    context.hypervisor = hypervisor->boolean_or("present", false);
  if (const auto topology = in.find("topology")) context.topology = Topology::from_json(*topology);
  const JsonReader run = in.at("run");
  context.label = run.string_or("label", "");
  context.started = run.string_or("started", "");
  context.status = run.string_or("status", "");
  if (const auto budget = run.find("budget")) context.budget = read_budget_record(*budget);
  if (const auto matrix = in.find("matrix")) context.repetitions = matrix->small_integer_or("repetitions", 0);
  if (const auto warnings = in.find("warnings"))
    for (const auto& warning : warnings->elements()) context.warnings.push_back(read_warning(warning));
  if (const auto integrands = in.find("integrands"))
    for (const auto& integrand : integrands->elements())
      context.integrands.push_back(read_integrand_record(integrand));
  if (const auto source = in.find("source")) {
    context.git_commit = source->string_or("git_commit", "unknown");
    context.git_branch = source->string_or("git_branch", "unknown");
    context.git_dirty = source->string_or("git_dirty", "unknown");
    if (const auto files = source->find("tier_sources"))
      for (const auto& [file, digest] : files->members()) context.tier_sources[file] = digest.string();
  }
  if (const auto libraries = in.find("libraries"))
    for (const auto& [name, version] : libraries->members()) context.libraries[name] = version.string();
  context.build_type = in.string_or("build_type", "");
  context.finished = run.optional_string("finished").value_or("");  // null until the run ends
  context.physical_cores = in.small_integer_or("physical_cores", 0);
  return context;
}

}  // namespace

void to_json(json& out, const VectorizationRecord& entry) {
  out = {{"build", entry.build},   {"linked", entry.linked},
         {"status", entry.status}, {"register_bits", entry.register_bits},
         {"lanes", entry.lanes},   {"evidence", entry.evidence}};
}

void to_json(json& out, const BudgetRecord& budget) {
  out = {{"budget", budget.text},
         {"budget_seconds", budget.seconds},
         {"estimated_seconds_before", budget.estimated_seconds_before},
         {"estimated_seconds", budget.estimated_seconds},
         {"dropped", budget.dropped},
         {"floor",
          {{"repetitions", budget.floor.repetitions},
           {"min_time", budget.floor.min_time},
           {"min_warmup_time", budget.floor.min_warmup_time}}}};
}

BudgetRecord read_budget_record(const JsonReader& in) {
  BudgetRecord budget;
  budget.text = in.at("budget").string();
  budget.seconds = in.at("budget_seconds").number();
  budget.estimated_seconds_before = in.at("estimated_seconds_before").number();
  budget.estimated_seconds = in.at("estimated_seconds").number();
  budget.dropped = in.at("dropped").strings();
  const JsonReader floor = in.at("floor");
  budget.floor.repetitions = floor.at("repetitions").small_integer();
  budget.floor.min_time = floor.at("min_time").number();
  budget.floor.min_warmup_time = floor.at("min_warmup_time").number();
  return budget;
}

void to_json(json& out, const IntegrandRecord& integrand) {
  out = {{"name", integrand.name},
         {"formula", integrand.formula},
         {"source", integrand.source},
         {"antiderivative", integrand.antiderivative},
         {"unsupported", integrand.unsupported}};
}

IntegrandRecord read_integrand_record(const JsonReader& in) {
  IntegrandRecord integrand;
  integrand.name = in.at("name").string();
  integrand.formula = in.at("formula").string();
  integrand.source = in.at("source").string();
  integrand.antiderivative = in.at("antiderivative").boolean();
  for (const auto& [tier, reason] : in.at("unsupported").members())
    integrand.unsupported[tier] = reason.string();
  return integrand;
}

void to_json(json& out, const CardRecord& card) {
  out = {{"id", card.id},
         {"rung", card.rung},
         {"summary", card.summary},
         {"libraries", card.libraries},
         {"concepts", card.concepts},
         {"learning_time", card.learning_time},
         {"parallel", card.parallel},
         {"reproducible", card.reproducible},
         {"summation", card.summation},
         {"source_file", card.source_file},
         {"source_lines", card.source_lines},
         {"shares", card.shares},
         {"shared_lines", card.shared_lines},
         {"flags", card.flags},
         {"heap_bytes_per_node", card.heap_bytes_per_node},
         {"distributed", card.distributed},
         {"environment", card.environment},
         {"peer", card.peer},
         {"language", card.language},
         {"size_limit", card.size_limit ? json(*card.size_limit) : json(nullptr)},
         {"note", card.note},
         {"max_ulp_error", optional_json(card.max_ulp_error)},
         {"vectorization", card.vectorization}};
  if (card.available) {
    out["available"] = *card.available;
    out["unavailable_reason"] = *card.available ? json(nullptr) : json(card.unavailable_reason);
  }
}

CardRecord read_card_record(const JsonReader& in) {
  CardRecord card;
  card.id = in.at("id").string();
  card.rung = in.at("rung").small_integer();
  card.summary = in.at("summary").string();
  card.learning_time = in.at("learning_time").string();
  card.reproducible = in.at("reproducible").string();
  card.source_lines = in.at("source_lines").small_integer();
  card.shared_lines = in.at("shared_lines").small_integer();
  card.libraries = in.at("libraries").strings();
  card.concepts = in.at("concepts").strings();
  card.flags = in.at("flags").strings();
  card.parallel = in.at("parallel").boolean();
  card.summation = in.string_or("summation", "");
  card.source_file = in.string_or("source_file", "");
  if (const auto shares = in.find("shares")) card.shares = shares->strings();
  if (const auto environment = in.find("environment")) card.environment = environment->strings();
  card.heap_bytes_per_node = in.number_or("heap_bytes_per_node", 0);
  card.distributed = in.boolean_or("distributed", false);
  card.peer = in.boolean_or("peer", false);
  card.language = in.string_or("language", "C++");
  if (const auto limit = in.find("size_limit"); limit && !limit->is_null())
    card.size_limit = limit->integer();
  card.note = in.string_or("note", "");
  card.max_ulp_error = in.optional_number("max_ulp_error");
  if (const auto vectorization = in.find("vectorization"))
    for (const auto& entry : vectorization->elements())
      card.vectorization.push_back(read_vectorization(entry));
  card.available = in.optional_boolean("available");
  card.unavailable_reason = in.optional_string("unavailable_reason").value_or("");
  return card;
}

InstructionCounts read_instruction_counts(const JsonReader& in) {
  InstructionCounts counts;
  counts.all = in.object();
  counts.available = in.at("available").boolean();
  if (!counts.available) {
    counts.reason = in.string_or("reason", "unavailable: not recorded by this version of Ladder");
    return counts;
  }
  counts.tool = in.string_or("tool", "");
  counts.target = in.string_or("target", "");
  counts.integrand = in.string_or("integrand", "");
  if (const auto n = in.find("n"))
    for (const auto& each : n->elements()) counts.n.push_back(each.integer());
  const auto tiers_of = [](const JsonReader& counted) {
    std::vector<InstructionCounts::Tier> tiers;
    if (const auto listed = counted.find("tiers"))
      for (const auto& [id, entry] : listed->members())
        tiers.push_back({id, entry.optional_number("per_node"), entry.string_or("unavailable", "")});
    return tiers;
  };
  counts.tiers = tiers_of(in);
  if (const auto by = in.find("by_integrand"))
    for (const auto& [integrand, counted] : by->members())
      if (counted.boolean_or("available", false)) counts.by_integrand[integrand] = tiers_of(counted);
  return counts;
}

std::optional<double> InstructionCounts::per_node(const std::string& tier,
                                                  const std::string& integrand) const {
  if (!available) return std::nullopt;
  const std::vector<Tier>* counted = &tiers;
  if (!by_integrand.empty()) {
    const auto found = by_integrand.find(integrand);
    if (found == by_integrand.end()) return std::nullopt;
    counted = &found->second;
  } else if (!this->integrand.empty() && this->integrand != integrand) {
    return std::nullopt;
  }
  for (const auto& each : *counted)
    if (each.id == tier) return each.per_node;
  return std::nullopt;
}

void to_json(json& out, const WarningRecord& warning) {
  out = {{"kind", warning.kind}, {"message", warning.message}, {"cells", warning.cells}};
}

ResultsFile read_results_file(const std::string& where) {
  namespace fs = std::filesystem;
  std::error_code error;
  const std::string path =
      fs::is_directory(where, error) ? (fs::path(where) / "results.json").string() : where;
  auto reject = [&](const std::string& problem) -> InputError {
    return InputError("results file '" + path + "': " + problem);
  };
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw reject("cannot be read (does it exist? give a `ladder run --out` directory or its results.json)");
  std::stringstream text;
  text << in.rdbuf();
  json document = json::parse(text.str(), nullptr, false);
  if (document.is_discarded())
    throw reject(
        "is not valid JSON (cut short, or not a results file); a run in progress rewrites it whole "
        "after every cell, so this file was damaged");
  if (!document.is_object() || !document.contains("schema_version"))
    throw reject("is not a Ladder results file (no schema_version)");
  const json version = document.at("schema_version");
  if (!version.is_number_integer() || version.get<std::int64_t>() < 1 ||
      version.get<std::int64_t>() > results_schema_version)
    throw reject("has schema version " + version.dump() + "; this Ladder reads versions 1 to " +
                 std::to_string(results_schema_version));
  try {
    if (version.get<std::int64_t>() == 1) document = migrate_results_v1(document);
    const JsonReader root(document);
    ResultsFile file;
    file.path = path;
    file.context = read_context(root.at("context"));
    for (const auto& card : root.at("tiers").elements()) file.tiers.push_back(read_card_record(card));
    if (const auto instructions = root.find("instructions"))
      file.instructions = read_instruction_counts(*instructions);
    else
      file.instructions.reason = "unavailable: not recorded by this version of Ladder";
    for (const auto& cell : root.at("cells").elements()) file.cells.push_back(read_cell_result(cell));
    return file;
  } catch (const SchemaError& problem) {
    throw reject(problem.what());
  }
}

void from_json(const json& in, CardRecord& card) { card = read_card_record(JsonReader(in)); }

}  // namespace ladder
