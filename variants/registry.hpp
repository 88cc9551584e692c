// The registry: every tier and integrand the build contains, found by name. The harness, the command line
// and the tests go through here; none of them names a tier.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "text.hpp"
#include "tier.hpp"

namespace ladder {

// What the references know about an integrand, in long double (see integrands.hpp). A user integrand gives
// its function and perhaps an antiderivative; what it leaves out is null, and the references take it from
// Boost.Math instead (harness/worker/reference_library.hpp).
struct IntegrandInfo {
  std::string name;
  std::string formula;  // empty unless the integrand gives one
  std::string source;   // "built-in", or the header it came from
  long double (*value)(long double x) = nullptr;
  long double (*antiderivative)(long double x) = nullptr;
  long double (*derivative1)(long double x) = nullptr;
  long double (*derivative3)(long double x) = nullptr;
  long double (*magnitude)(long double x) = nullptr;
  // What the build found out about it (IntegrandBuild): whether it works on cpp_bin_float_quad and
  // autodiff's fvar (the references'), and on each kind of argument the tiers call it with (probe_for).
  Probe wide{}, autodiff{};
  std::vector<KindProbe> probes{};
};

const std::vector<Tier>& tiers();  // by rung
const Tier& find_tier(std::string_view id);
const std::vector<IntegrandInfo>& integrands();  // the default first
std::size_t find_integrand(std::string_view name);

std::string tier_ids();  // "naive, streaming, …" for messages
std::string integrand_names();
std::string reproducible_tier_ids();

// Why the tier cannot run here, or empty when it can.
std::string unavailable_reason(const Tier& tier);
// What the build found out about the integrand on what a tier calls it with (probe_for in tier.hpp).
Probe probe_for(const IntegrandInfo& integrand, const EvaluationKind& kind);
// Every kind of argument the tiers call an integrand with (their cards' `evaluates`), each once.
const std::vector<EvaluationKind>& evaluation_kinds();
// Why the tier cannot run this integrand (it does not compile for what the tier calls it with), or empty.
std::string unsupported_reason(const Tier& tier, std::size_t integrand);

// The largest n accepted: indices stay far from the int64 limit in every tier's arithmetic.
constexpr std::int64_t max_nodes = std::int64_t{1} << 62;

// Checks the inputs (n in [1, 2^62], finite a and b, threads ≥ 1 and 1 for serial tiers, reproducibility
// only from a tier that can give it) and runs the tier's kernel; throws InputError naming the bad value,
// or Unavailable when the tier cannot run on this machine or cannot run this integrand.
double integrate(const Tier& tier, std::size_t integrand, Interval ab, std::int64_t n,
                 const RunOptions& options);

std::string_view to_string(LearningTime time);
std::string_view to_string(Reproducible reproducible);

// Written by the build (tools/count_lines.cpp) for each file given to ladder_add_tier.
struct TierSource {
  std::string file;    // file name, without directories
  std::string kernel;  // the kernel header, relative to the source directory (empty: none given)
  int lines;           // of the kernel header (of the file when there is none)
  std::vector<std::string> shares;
  int shared_lines;
  std::vector<std::string> flags;
};
const std::vector<TierSource>& tier_sources();

}  // namespace ladder
