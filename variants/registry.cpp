#include "registry.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "quote.hpp"

namespace ladder {
namespace {

std::vector<Tier>& registered() {
  static std::vector<Tier> tiers;  // filled by the tiers' static Registration objects
  return tiers;
}

std::vector<EvaluationKind>& registered_kinds() {
  static std::vector<EvaluationKind> kinds;  // with the tiers: each card's `evaluates`, once
  return kinds;
}

bool same_row(const EvaluationKind& x, const EvaluationKind& y) {
  return x.id == y.id && x.words == y.words && x.ulps_of == y.ulps_of &&
         x.built_ins_only == y.built_ins_only && x.built_in == y.built_in && x.device == y.device;
}

// What an integrand gives, and null for what it leaves out.
template <class F>
IntegrandInfo describe() {
  IntegrandInfo info;
  info.name = std::string(F::name);
  info.source = std::string(IntegrandBuild<F>::source);
  if constexpr (requires { F::formula; }) info.formula = std::string(F::formula);
  info.value = [](long double x) -> long double { return F{}(x); };
  if constexpr (HasAntiderivative<F>)
    info.antiderivative = [](long double x) -> long double { return F::antiderivative(x); };
  if constexpr (requires(long double x) { F::derivative1(x) + F::derivative3(x) + F::magnitude(x); }) {
    info.derivative1 = [](long double x) -> long double { return F::derivative1(x); };
    info.derivative3 = [](long double x) -> long double { return F::derivative3(x); };
    info.magnitude = [](long double x) -> long double { return F::magnitude(x); };
  }
  using Build = IntegrandBuild<F>;
  info.wide = Build::wide;
  info.autodiff = Build::autodiff;
  info.probes.assign(Build::probes.begin(), Build::probes.end());
  return info;
}

template <class... Fs>
std::vector<IntegrandInfo> describe(IntegrandList<Fs...>) {
  return {describe<Fs>()...};
}

std::string_view file_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

void register_tier(TierCard card, std::vector<Kernel> kernels, std::vector<std::string> unsupported,
                   std::string_view file) {
  card.source_file = std::string(file_name(file));
  for (const auto& source : tier_sources()) {
    if (source.file != card.source_file) continue;
    card.kernel_header = source.kernel;
    card.source_lines = source.lines;
    card.shares = source.shares;
    card.shared_lines = source.shared_lines;
    card.flags = source.flags;
  }
  auto& kinds = registered_kinds();
  if (std::none_of(kinds.begin(), kinds.end(),
                   [&](const auto& kind) { return same_row(kind, card.evaluates); }))
    kinds.push_back(card.evaluates);
  auto& tiers = registered();
  tiers.push_back({std::move(card), std::move(kernels), std::move(unsupported)});
  std::stable_sort(tiers.begin(), tiers.end(),
                   [](const Tier& x, const Tier& y) { return x.card.rung < y.card.rung; });
}

const std::vector<Tier>& tiers() { return registered(); }

const std::vector<IntegrandInfo>& integrands() {
  static const std::vector<IntegrandInfo> all = describe(AllIntegrands{});
  return all;
}

std::string tier_ids() {
  std::vector<std::string> ids;
  for (const auto& tier : tiers()) ids.push_back(tier.card.id);
  return join(ids);
}

std::string integrand_names() {
  std::vector<std::string> names;
  for (const auto& integrand : integrands()) names.push_back(integrand.name);
  return join(names);
}

std::string reproducible_tier_ids() {
  std::vector<std::string> ids;
  for (const auto& tier : tiers())
    if (tier.card.reproducible != Reproducible::never) ids.push_back(tier.card.id);
  return join(ids);
}

const Tier& find_tier(std::string_view id) {
  for (const auto& tier : tiers())
    if (tier.card.id == id) return tier;
  throw InputError("unknown tier '" + quote_text(id) + "'; known tiers: " + tier_ids());
}

std::size_t find_integrand(std::string_view name) {
  const auto& all = integrands();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return i;
  throw InputError("unknown integrand '" + quote_text(name) + "'; known integrands: " + integrand_names());
}

std::string unavailable_reason(const Tier& tier) {
  return tier.card.unavailable ? tier.card.unavailable() : std::string();
}

Probe probe_for(const IntegrandInfo& integrand, const EvaluationKind& kind) {
  return probe_on(kind, integrand.name, integrand.source == "built-in", integrand.probes);
}

const std::vector<EvaluationKind>& evaluation_kinds() { return registered_kinds(); }

std::string unsupported_reason(const Tier& tier, std::size_t integrand) {
  return integrand < tier.unsupported.size() ? tier.unsupported[integrand] : std::string();
}

double integrate(const Tier& tier, std::size_t integrand, Interval ab, std::int64_t n,
                 const RunOptions& options) {
  if (n < 1 || n > max_nodes)
    throw InputError("n = " + std::to_string(n) + " is out of range; n must be between 1 and 2^62");
  if (!std::isfinite(ab.a)) throw InputError("a = " + std::to_string(ab.a) + " is not a finite number");
  if (!std::isfinite(ab.b)) throw InputError("b = " + std::to_string(ab.b) + " is not a finite number");
  if (options.threads < 1)
    throw InputError("threads = " + std::to_string(options.threads) +
                     " is invalid; threads must be at least 1");
  if (!tier.card.parallel && options.threads != 1)
    throw InputError("threads = " + std::to_string(options.threads) + ": tier '" + tier.card.id +
                     "' is serial and runs on 1 thread only");
  if (options.reproducible && tier.card.reproducible == Reproducible::never)
    throw InputError(
        "tier '" + tier.card.id +
        "' cannot give the same bits at every thread count; tiers that can: " + reproducible_tier_ids());
  if (integrand >= tier.kernels.size())
    throw InputError("integrand index " + std::to_string(integrand) + " is out of range");
  if (const auto reason = unavailable_reason(tier); !reason.empty())
    throw Unavailable("tier '" + tier.card.id + "' cannot run on this machine: " + reason);
  if (!tier.kernels[integrand])
    throw Unavailable("tier '" + tier.card.id + "' cannot run integrand '" + integrands()[integrand].name +
                      "': it " + unsupported_reason(tier, integrand));
  return tier.kernels[integrand](ab, n, options);
}

std::string_view to_string(LearningTime time) {
  switch (time) {
    case LearningTime::minutes:
      return "minutes";
    case LearningTime::hours:
      return "hours";
    case LearningTime::days:
      return "days";
  }
  return "unknown";
}

std::string_view to_string(Reproducible reproducible) {
  switch (reproducible) {
    case Reproducible::always:
      return "always";
    case Reproducible::on_request:
      return "on request";
    case Reproducible::never:
      return "no";
  }
  return "unknown";
}

}  // namespace ladder
