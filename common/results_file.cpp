// Writing and reading results.json (results_file.hpp): the cards, with their vectorization and FLOP records,
// and the whole file: a schema-1 file through its migration (schema_v1.hpp), then an older schema-2 one's
// later fields filled in (schema_v2.hpp), then every field read strictly.
#include "results_file.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "json_reader.hpp"
#include "optional_json.hpp"
#include "quote.hpp"
#include "schema_v1.hpp"
#include "schema_v2.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// A member that is always written, null where there is no value.
std::optional<double> nullable_number(const JsonReader& in, const char* key) {
  const JsonReader member = in.at(key);
  return member.is_null() ? std::nullopt : std::optional<double>(member.number());
}

VectorizationRecord read_vectorization(const JsonReader& in) {
  return {in.at("build").string(),
          in.at("status").string(),
          in.at("evidence").string(),
          in.at("register_bits").small_integer(),
          in.at("lanes").small_integer(),
          in.at("linked").boolean(),
          nullable_number(in, "flops_per_node"),
          nullable_number(in, "fp_instructions_per_node"),
          in.at("flops_evidence").string()};
}

}  // namespace

void to_json(json& out, const VectorizationRecord& entry) {
  out = {{"build", entry.build},
         {"linked", entry.linked},
         {"status", entry.status},
         {"register_bits", entry.register_bits},
         {"lanes", entry.lanes},
         {"evidence", entry.evidence},
         {"flops_per_node", optional_json(entry.flops_per_node)},
         {"fp_instructions_per_node", optional_json(entry.fp_instructions_per_node)},
         {"flops_evidence", entry.flops_evidence}};
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
         {"kernel_header", card.kernel_header},
         {"source_lines", card.source_lines},
         {"shares", card.shares},
         {"shared_lines", card.shared_lines},
         {"flags", card.flags},
         {"heap_bytes_per_node", card.heap_bytes_per_node},
         {"memory_bytes_per_node", card.memory_bytes_per_node},
         {"memory_bytes_counted", card.memory_bytes_counted},
         {"distributed", card.distributed},
         {"environment", card.environment},
         {"peer", card.peer},
         {"language", card.language},
         {"size_limit", optional_json(card.size_limit)},
         {"note", card.note},
         {"max_ulp_error", optional_json(card.max_ulp_error)},
         {"vectorization", card.vectorization}};
  if (!card.per_call_sizes.empty()) out["per_call_sizes"] = card.per_call_sizes;  // only where there are
  if (!card.beside.empty()) out["beside"] = card.beside;
  if (!card.staircase.empty()) out["staircase"] = card.staircase;  // only where set, as beside
  if (card.baseline) out["baseline"] = true;
  if (card.yellow)
    out["yellow"] = {{"lines", card.yellow->lines},
                     {"score", card.yellow->score},
                     {"kernel_lines", card.yellow->kernel_lines}};
  if (card.available) {
    out["available"] = *card.available;
    out["unavailable_reason"] = *card.available ? json(nullptr) : json(card.unavailable_reason);
  }
}

YellowLines read_yellow_lines(const JsonReader& in) {
  return {in.at("lines").small_integer(), in.at("score").small_integer(),
          in.at("kernel_lines").small_integer()};
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
  card.summation = in.at("summation").string();
  card.source_file = in.at("source_file").string();
  card.kernel_header = in.at("kernel_header").string();
  card.shares = in.at("shares").strings();
  card.environment = in.at("environment").strings();
  card.heap_bytes_per_node = in.at("heap_bytes_per_node").number();
  card.memory_bytes_per_node = in.at("memory_bytes_per_node").number();
  card.memory_bytes_counted = in.at("memory_bytes_counted").string();
  card.distributed = in.at("distributed").boolean();
  card.peer = in.at("peer").boolean();
  card.language = in.at("language").string();
  if (const auto limit = in.at("size_limit"); !limit.is_null()) card.size_limit = limit.integer();
  // Written only where there are (a peer measured per call as well, beside the tier it wraps).
  if (const auto sizes = in.find("per_call_sizes"))
    for (const auto& size : sizes->elements()) card.per_call_sizes.push_back(size.integer());
  card.beside = in.string_or("beside", "");
  card.staircase = in.string_or("staircase", "");
  card.baseline = in.boolean_or("baseline", false);
  card.note = in.at("note").string();
  card.max_ulp_error = nullable_number(in, "max_ulp_error");
  for (const auto& entry : in.at("vectorization").elements())
    card.vectorization.push_back(read_vectorization(entry));
  // Written only where the writer knew whether the tier could run on its machine.
  card.available = in.optional_boolean("available");
  card.unavailable_reason = in.optional_string("unavailable_reason").value_or("");
  if (const auto yellow = in.find("yellow"))  // a Cython peer's only
    card.yellow = read_yellow_lines(*yellow);
  return card;
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
  json document = parse_json_document(text.str(), "results file '" + path + "'");
  if (document.is_discarded())
    throw reject(
        "is not valid JSON (cut short, or not a results file); a run in progress rewrites it whole "
        "after every cell, so this file was damaged");
  if (!document.is_object() || !document.contains("schema_version"))
    throw reject("is not a Ladder results file (no schema_version)");
  const json version = document.at("schema_version");
  if (!version.is_number_integer() || version.get<std::int64_t>() < 1 ||
      version.get<std::int64_t>() > results_schema_version)
    throw reject("has schema version " + quote_value(version) + "; this Ladder reads versions 1 to " +
                 std::to_string(results_schema_version));
  try {
    if (version.get<std::int64_t>() == 1) document = migrate_results_v1(document);
    complete_results_v2(document);
    if (version.get<std::int64_t>() < 3) migrate_to_v3(document);
    const JsonReader root(document);
    ResultsFile file;
    file.path = path;
    file.context = read_context_record(root.at("context"));
    for (const auto& card : root.at("tiers").elements()) file.tiers.push_back(read_card_record(card));
    file.instructions = read_instruction_counts(root.at("instructions"));
    for (const auto& cell : root.at("cells").elements()) file.cells.push_back(read_cell_result(cell));
    return file;
  } catch (const SchemaError& problem) {
    throw reject(problem.what());
  }
}

void from_json(const json& in, CardRecord& card) { card = read_card_record(JsonReader(in)); }

}  // namespace ladder
