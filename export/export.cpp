#include "export.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>

#include "embedded.hpp"
#include "errors.hpp"
#include "export_plan.hpp"
#include "sha256.hpp"

namespace ladder::exporter {
namespace fs = std::filesystem;
namespace {

// ---- the namespace ---------------------------------------------------------------------------------
// C++ keywords, and the namespaces of what the exported code includes: NS may be none of them.
constexpr std::string_view taken[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default",
    "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
    "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq", "final", "override", "import", "module",
    // namespaces of the libraries and the tests
    "std", "xsimd", "xtl", "tbb", "oneapi", "Eigen", "testing", "benchmark", "pybind11", "py", "boost",
    "hwy"};

void check_namespace(const std::string& ns) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  const bool reserved = ns.find("__") != ns.npos || (ns.size() > 1 && ns[0] == '_' && std::isupper(ns[1]));
  if (!std::regex_match(ns, identifier) || reserved || ns.size() > 64)
    throw InputError(
        "--namespace '" + ns +
        "' is not a C++ identifier; it takes letters, digits and '_', not starting with a digit, "
        "without '__' or a leading '_' and capital (at most 64 characters), e.g. team_midpoint");
  if (std::find(std::begin(taken), std::end(taken), ns) != std::end(taken))
    throw InputError(
        "--namespace '" + ns +
        "' is a C++ keyword or the namespace of a library the exported code uses; choose another, "
        "e.g. " +
        ns + "_midpoint");
}

// ---- the tier ---------------------------------------------------------------------------------------
std::string why_not_exported(const TierCard& card) {
  if (card.distributed)
    return "its kernel needs MPI started (MPI_Init) and every rank of a launcher calling it in step: a "
           "program, not a function to link. Start from variants/kernels/ in Ladder's repository";
  if (card.runtime_path)
    return "its kernel is compiled once per architecture, each time in a file of its own with that "
           "architecture's -march, and chosen at run time; an export is one kernel file with one set of "
           "flags. Start from " +
           card.kernel_header + " and its path files in Ladder's repository";
  return {};
}

// The kernel header's path among the embedded files, whichever way the card names it.
std::string kernel_origin(const TierCard& card) {
  const std::string name = fs::path(card.kernel_header).filename().string();
  for (const auto& file : embedded_files())
    if (file.path == card.kernel_header || file.path == "variants/kernels/" + name)
      return std::string(file.path);
  throw std::logic_error("tier '" + card.id + "': its kernel header '" + card.kernel_header +
                         "' was not embedded by the build");
}

std::string renamed(const std::string& text, const std::string& ns) {
  if (ns == "ladder") return text;
  static const std::regex declaration(R"(\bnamespace ladder\b)"), qualified(R"(\bladder::)");
  return std::regex_replace(std::regex_replace(text, declaration, "namespace " + ns), qualified, ns + "::");
}

// The kernel header, then every project header it includes ("name.hpp"), depth first, each once.
std::vector<CopiedHeader> kernel_headers(const TierCard& card, const std::string& ns) {
  std::vector<CopiedHeader> headers;
  std::vector<std::string> pending{kernel_origin(card)};
  static const std::regex include(R"re(#include\s+"([^"]+)")re");
  while (!pending.empty()) {
    const std::string origin = pending.front();
    pending.erase(pending.begin());
    const std::string name = fs::path(origin).filename().string();
    if (std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return h.name == name; })) continue;
    const auto text = embedded(origin);
    if (!text)
      throw std::logic_error("the build did not embed " + origin + ", which the " + card.id +
                             " kernel includes");
    const std::string body(*text);
    for (std::sregex_iterator it(body.begin(), body.end(), include), end; it != end; ++it)
      pending.push_back("variants/" + (*it)[1].str());
    headers.push_back({origin, name, renamed(body, ns)});
  }
  return headers;
}

// ---- the integrand ----------------------------------------------------------------------------------
void check_integrand(const Tier& tier, const IntegrandSource& integrand) {
  if (integrand.known) {
    const std::string reason = unsupported_reason(tier, *integrand.known);
    if (!reason.empty())
      throw InputError("the " + tier.card.id + " tier cannot run the integrand '" + integrand.name +
                       "': " + reason + " (as `ladder list --integrands` says)");
    return;
  }
  // A header this build has not compiled: only the tiers that take any callable can be promised to run it.
  if (!tier.card.evaluates.built_ins_only.empty())
    throw InputError("the " + tier.card.id + " tier cannot run the integrand '" + integrand.name + "' of " +
                     integrand.origin + ": it runs the built-in integrands only (" + tier.card.note + ")");
}

// ---- the run ------------------------------------------------------------------------------------------
void read_run(ExportPlan& plan) {
  const auto& request = *plan.request;
  if (request.from_run.empty()) return;
  plan.run = read_results_file(request.from_run);
  for (const auto& cell : plan.run->cells)
    if (cell.tier == plan.tier->card.id && cell.integrand == plan.integrand.name && cell.ok())
      plan.measured.push_back(&cell);
  if (plan.measured.empty())
    throw InputError("--from " + request.from_run + ": the run measured no cell of the " +
                     plan.tier->card.id + " tier on the integrand '" + plan.integrand.name +
                     "'; export without --from, or from a run "
                     "that measured it (ladder run --tiers " +
                     plan.tier->card.id + " --integrand " + plan.integrand.name + ")");
  for (const auto* cell : plan.measured) plan.bench_cells.emplace_back(cell->n, cell->threads);
  // The run recorded each tier file's SHA-256 (context.source): its figures are for the code it measured.
  const auto& recorded = plan.run->context.source.tier_sources;
  for (const auto& header : plan.kernel) {
    const auto found = recorded.find(header.origin);
    const std::string exported = sha256_hex(std::string(*embedded(header.origin)));
    if (found == recorded.end())
      plan.code_differences.push_back(header.origin +
                                      ": the run did not record its text, so whether it measured "
                                      "this code is not known");
    else if (found->second != exported)
      plan.code_differences.push_back(header.origin + ": the run measured another text (SHA-256 " +
                                      found->second.substr(0, 12) + "…) than this export copies (" +
                                      exported.substr(0, 12) + "…)");
  }
}

void check_out(const std::string& out) {
  if (out.empty()) throw InputError("--out is required: the directory to write the project to");
  std::error_code error;
  const fs::path path(out);
  if (!fs::exists(path, error)) return;
  if (!fs::is_directory(path, error))
    throw InputError("--out " + out +
                     " exists and is not a directory; give a new directory or an earlier export");
  if (fs::is_empty(path, error) || fs::exists(path / marker_file, error)) return;
  throw InputError("--out " + out + " exists and is not an earlier export (it has no " + marker_file +
                   "): nothing was written. Give a new directory, or remove this one yourself");
}

// A run's target: its file's context says it only inside the common flags (-march=…), not apart.
std::string target_of(const std::string& flags) {
  static const std::regex march(R"(-march=(\S+))");
  std::smatch found;
  return std::regex_search(flags, found, march) ? found[1].str() : std::string("native");
}

}  // namespace

std::string exported_type(const ExportPlan& plan) {
  const std::string& type = plan.integrand.type;
  return plan.integrand.built_in && type.starts_with("ladder::") ? plan.ns + type.substr(6) : type;
}

std::vector<ExportedFile> project_files(const ExportRequest& request, std::vector<std::string>* warnings) {
  ExportPlan plan;
  plan.request = &request;
  check_namespace(request.name_space);
  plan.ns = request.name_space;
  plan.tier = &find_tier(request.tier);  // InputError listing the tiers
  if (const auto reason = why_not_exported(plan.tier->card); !reason.empty())
    throw InputError("the " + request.tier + " tier is not exported: " + reason);
  plan.integrand = find_integrand_source(request.integrand);
  check_integrand(*plan.tier, plan.integrand);
  check_out(request.out);
  plan.kernel = kernel_headers(plan.tier->card, plan.ns);
  plan.function = fs::path(plan.kernel.front().origin).stem().string();
  plan.threads = plan.tier->card.parallel;
  plan.cpus = std::any_of(plan.kernel.begin(), plan.kernel.end(),
                          [](const auto& h) { return h.name == "tbb_pinning.hpp"; });
  plan.reproducible = plan.tier->card.reproducible == Reproducible::on_request;
  if (plan.integrand.known) {
    const Probe probe = probe_for(integrands()[*plan.integrand.known], plan.tier->card.evaluates);
    plan.ulps = probe.ulps;
  }
  plan.target = request.build.target;
  plan.device = plan.tier->card.evaluates.device;
  static const std::regex sm(R"(sm_(\d+))");
  std::smatch architecture;
  if (std::regex_search(request.build.cuda_flags, architecture, sm))
    plan.cuda_architectures = architecture[1];
  read_run(plan);
  if (plan.run) plan.target = target_of(plan.run->context.common_flags);
  if (plan.bench_cells.empty())
    for (const auto& [n, threads] : request.default_cells)
      if (plan.threads || threads == 1) plan.bench_cells.emplace_back(n, threads);
  std::sort(plan.bench_cells.begin(), plan.bench_cells.end());
  plan.bench_cells.erase(std::unique(plan.bench_cells.begin(), plan.bench_cells.end()),
                         plan.bench_cells.end());
  auto files = generated_files(plan);
  files.push_back({"README.md", readme(plan, files)});
  nlohmann::json marker = {{"tier", plan.tier->card.id},
                           {"integrand", plan.integrand.name},
                           {"namespace", plan.ns},
                           {"python", request.python},
                           {"ladder_version", request.build.ladder_version},
                           {"git_commit", request.source.git_commit},
                           {"command", request.command_line}};
  for (const auto& file : files) marker["files"].push_back(file.path);
  files.push_back({marker_file, marker.dump(1) + "\n"});
  if (warnings)
    for (const auto& difference : plan.code_differences)
      warnings->push_back("--from " + request.from_run +
                          ": its figures may be for other code than this export's: " + difference);
  return files;
}

bool write_project(const std::string& out, const std::vector<ExportedFile>& files) {
  const fs::path target = fs::absolute(out).lexically_normal();
  const fs::path parent = target.parent_path();
  const std::string unique = std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
  const fs::path fresh = parent / ("." + target.filename().string() + ".partial-" + unique);
  const fs::path old = parent / ("." + target.filename().string() + ".old-" + unique);
  std::error_code ignored;
  try {
    fs::create_directories(parent);
    for (const auto& file : files) {
      const fs::path path = fresh / file.path;
      fs::create_directories(path.parent_path());
      std::ofstream stream(path, std::ios::binary);
      stream << file.text;
      stream.close();
      if (!stream) throw WriteError("cannot write " + path.string());
    }
    const bool replacing = fs::exists(target);
    if (replacing) fs::rename(target, old);
    fs::rename(fresh, target);
    if (replacing) fs::remove_all(old, ignored);
    return replacing;
  } catch (const fs::filesystem_error& error) {
    fs::remove_all(fresh, ignored);
    if (fs::exists(old, ignored) && !fs::exists(target, ignored)) fs::rename(old, target, ignored);
    throw WriteError("cannot write the export to " + target.string() + ": " + error.what() +
                     "; nothing was changed there");
  } catch (const WriteError&) {
    fs::remove_all(fresh, ignored);
    throw;
  }
}

}  // namespace ladder::exporter
