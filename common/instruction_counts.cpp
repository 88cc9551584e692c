// Writing and reading the instruction counts, with their FLOPs (instruction_counts.hpp).
#include "instruction_counts.hpp"

#include "optional_json.hpp"

namespace ladder {

using nlohmann::json;

void to_json(json& out, const InstructionCounts& counts) {
  if (!counts.available) {
    out = {{"available", false}, {"reason", counts.reason}};
    return;
  }
  json tiers = json::object();
  for (const auto& tier : counts.tiers)
    tiers[tier.id] = tier.unavailable.empty()
                         ? json{{"per_node", optional_json(tier.per_node)},
                                {"instructions", tier.instructions},
                                {"flops_per_node", optional_json(tier.flops_per_node)},
                                {"fp_instructions_per_node", optional_json(tier.fp_instructions_per_node)}}
                         : json{{"unavailable", tier.unavailable}};
  out = {{"available", true},       {"tool", counts.tool},
         {"target", counts.target}, {"compiler", counts.compiler},
         {"glibc", counts.glibc},   {"integrand", counts.integrand},
         {"a", counts.a},           {"b", counts.b},
         {"n", counts.n},           {"threads", counts.threads},
         {"method", counts.method}, {"flops_method", counts.flops_method},
         {"tiers", tiers}};
  if (!counts.by_integrand.empty()) {
    json by = json::object();
    for (const auto& each : counts.by_integrand) by[each.integrand] = each;
    out["by_integrand"] = by;
  }
}

InstructionCounts read_instruction_counts(const JsonReader& in) {
  InstructionCounts counts;
  counts.available = in.at("available").boolean();
  if (!counts.available) {
    counts.reason = in.at("reason").string();
    return counts;
  }
  counts.tool = in.at("tool").string();
  counts.target = in.at("target").string();
  counts.compiler = in.at("compiler").string();
  counts.glibc = in.at("glibc").string();
  counts.integrand = in.at("integrand").string();
  counts.method = in.at("method").string();
  counts.flops_method = in.string_or("flops_method", "");  // absent before FLOPs were counted
  counts.a = in.at("a").number();
  counts.b = in.at("b").number();
  for (const auto& each : in.at("n").elements()) counts.n.push_back(each.integer());
  counts.threads = in.at("threads").small_integer();
  for (const auto& [id, entry] : in.at("tiers").members()) {
    InstructionCounts::Tier tier{id, std::nullopt, {}, "", std::nullopt, std::nullopt};
    if (const auto why = entry.find("unavailable")) {
      tier.unavailable = why->string();
    } else {
      tier.per_node = entry.optional_number("per_node");
      tier.instructions = entry.at("instructions").numbers();
      tier.flops_per_node = entry.optional_number("flops_per_node");
      tier.fp_instructions_per_node = entry.optional_number("fp_instructions_per_node");
    }
    counts.tiers.push_back(std::move(tier));
  }
  if (const auto by = in.find("by_integrand"))
    for (const auto& [integrand, counted] : by->members()) {
      counts.by_integrand.push_back(read_instruction_counts(counted));
      if (counts.by_integrand.back().available && counts.by_integrand.back().integrand != integrand)
        counted.at("integrand")
            .fail("counts of integrand '" + counts.by_integrand.back().integrand + "' filed under '" +
                  integrand + "'");
    }
  return counts;
}

const InstructionCounts::Tier* InstructionCounts::find(const std::string& tier) const {
  for (const auto& each : tiers)
    if (each.id == tier) return &each;
  return nullptr;
}

const InstructionCounts::Tier* InstructionCounts::find(const std::string& tier,
                                                       const std::string& integrand) const {
  if (!available) return nullptr;
  const InstructionCounts* counted = this;
  if (!by_integrand.empty()) {
    counted = nullptr;
    for (const auto& each : by_integrand)
      if (each.available && each.integrand == integrand) counted = &each;
    if (!counted) return nullptr;
  } else if (!this->integrand.empty() && this->integrand != integrand) {
    return nullptr;
  }
  return counted->find(tier);
}

std::optional<double> InstructionCounts::per_node(const std::string& tier,
                                                  const std::string& integrand) const {
  const Tier* entry = find(tier, integrand);
  return entry ? entry->per_node : std::nullopt;
}

std::optional<double> InstructionCounts::flops_per_node(const std::string& tier,
                                                        const std::string& integrand) const {
  const Tier* entry = find(tier, integrand);
  return entry ? entry->flops_per_node : std::nullopt;
}

}  // namespace ladder
