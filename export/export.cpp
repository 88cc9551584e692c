#include "export.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "embedded.hpp"
#include "emulation.hpp"
#include "errors.hpp"
#include "export_plan.hpp"
#include "global_names.hpp"
#include "libraries.hpp"
#include "out_directory.hpp"
#include "quote.hpp"
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
    // namespaces of the standard library and the tests; the tiers' libraries' are in libraries.hpp
    "std", "testing", "benchmark", "pybind11", "py", "boost"};

// Whether a library the exported code may use (a row of cmake/libraries.cmake) takes the namespace.
bool library_namespace(std::string_view ns) {
  for (const Library& library : libraries)
    for (std::string_view rest = library.namespaces; !rest.empty();) {
      const auto space = rest.find(' ');
      if (rest.substr(0, space) == ns) return true;
      rest = space == rest.npos ? std::string_view() : rest.substr(space + 1);
    }
  return false;
}

bool is_identifier(std::string_view text) {
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  return !text.empty() && letter(text[0]) &&
         std::all_of(text.begin(), text.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// Why NS cannot be an exported project's namespace although it is an identifier and no keyword: a macro or
// a name in the global namespace of what the exported code includes. Empty: it can.
std::string why_not_a_namespace(const std::string& ns) {
  if (ns == "main")
    return "the example program's main() is in the global namespace, and a namespace main clashes";
  if (ns == "linux" || ns == "unix" || ns == "i386")
    return "GCC predefines it as the macro 1 under gnu++20, the standard CMake gives the project's own "
           "targets";
  if (std::none_of(ns.begin(), ns.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    return "a name in capitals only is how C and the libraries name their macros (NULL, EOF, EDOM, INT_MAX, "
           "…), which would replace it";
  const auto underscore = ns.find('_');
  if (underscore != ns.npos && underscore > 0 &&
      std::all_of(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(underscore),
                  [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }))
    return "a name that begins with capitals and '_' is in the macro space of a library (M_PI, SYS_read, "
           "EIGEN_…)";
  if ((ns.starts_with("Py") && ns.size() > 2 &&
       (std::isupper(static_cast<unsigned char>(ns[2])) || ns[2] == '_')) ||
      ns.starts_with("Sleef_") || ns.starts_with("sleef_"))
    return "the Python and SLEEF C APIs take every name with that prefix in the global namespace";
  if (global_names().find(" " + ns + " ") != std::string_view::npos)
    return "the C library or a library the exported code includes declares it in the global namespace or "
           "defines it as a macro (errno, assert, stdin, offsetof, sync, index, …), so `namespace " +
           ns + "` would not compile";
  return {};
}

void check_namespace(const std::string& ns) {
  const bool reserved = ns.find("__") != ns.npos ||
                        (ns.size() > 1 && ns[0] == '_' && std::isupper(static_cast<unsigned char>(ns[1])));
  if (!is_identifier(ns) || reserved || ns.size() > 64)
    throw InputError(
        "--namespace '" + quote_text(ns) +
        "' is not a C++ identifier; it takes letters, digits and '_', not starting with a digit, "
        "without '__' or a leading '_' and capital (at most 64 characters), e.g. team_midpoint");
  if (std::find(std::begin(taken), std::end(taken), ns) != std::end(taken) || library_namespace(ns))
    throw InputError(
        "--namespace '" + ns +
        "' is a C++ keyword or the namespace of a library the exported code uses; choose another, "
        "e.g. " +
        ns + "_midpoint");
  if (const auto why = why_not_a_namespace(ns); !why.empty())
    throw InputError("--namespace '" + ns + "' cannot be the exported code's namespace: " + why +
                     "; choose another, e.g. " +
                     (ns.size() < 50 ? ns + "_midpoint" : std::string("team_midpoint")));
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

bool identifier_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `namespace ladder` and `ladder::` as whole words, renamed to NS.
std::string renamed(const std::string& text, const std::string& ns) {
  if (ns == "ladder") return text;
  std::string out;
  std::size_t at = 0;
  for (std::size_t found; (found = text.find("ladder", at)) != text.npos;) {
    const std::size_t end = found + 6;
    const bool word_start = found == 0 || !identifier_character(text[found - 1]);
    const bool declared = word_start && found >= 10 && text.compare(found - 10, 10, "namespace ") == 0 &&
                          (found == 10 || !identifier_character(text[found - 11])) &&
                          (end == text.size() || !identifier_character(text[end]));
    const bool qualified = word_start && text.compare(end, 2, "::") == 0;
    out.append(text, at, found - at);
    out += declared || qualified ? ns : "ladder";
    at = end;
  }
  return out + text.substr(at);
}

// The headers a text includes as "name" (#include, spaces, a quoted name).
std::vector<std::string> quoted_includes(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t at = 0; (at = text.find("#include", at)) != text.npos;) {
    at += 8;
    const std::size_t open = text.find_first_not_of(" \t", at);
    if (open == text.npos || open == at || text[open] != '"') continue;
    const std::size_t close = text.find_first_of("\"\n", open + 1);
    if (close == text.npos || text[close] != '"' || close == open + 1) continue;
    names.push_back(text.substr(open + 1, close - open - 1));
    at = close;
  }
  return names;
}

// The kernel header, then every project header it includes ("name.hpp"), depth first, each once.
std::vector<CopiedHeader> kernel_headers(const TierCard& card, const std::string& ns) {
  std::vector<CopiedHeader> headers;
  std::vector<std::string> pending{kernel_origin(card)};
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
    for (const auto& included : quoted_includes(body)) pending.push_back("variants/" + included);
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
  if (const auto& emulation = plan.run->context.emulation; emulation && emulation->is_emulated()) {
    Emulation named = *emulation;  // quoted short: the emulator's name is whatever the run's file holds
    named.emulator = quote_text(named.emulator);
    named.guest = quote_text(named.guest);
    named.host = quote_text(named.host);
    throw InputError("--from " + named.refusal(quote_text(request.from_run)) +
                     "; an export's README gives a run's times as the figures of the machine it names, so "
                     "it takes none from this run. Export without --from, or from a run on a real " +
                     named.guest + " machine");
  }
  for (const auto& cell : plan.run->cells)
    if (cell.tier == plan.tier->card.id && cell.integrand == plan.integrand.name && cell.ok())
      plan.measured.push_back(&cell);
  if (plan.measured.empty())
    throw InputError("--from " + quote_text(request.from_run) + ": the run measured no cell of the " +
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

// A flag's value in a run's flags (-march=… in its common flags), or empty.
std::string flag_value(const std::string& flags, const std::string& prefix) {
  std::size_t at = 0;
  while ((at = flags.find(prefix, at)) != flags.npos && at > 0 && flags[at - 1] != ' ') at += prefix.size();
  if (at == flags.npos) return {};
  const std::size_t begin = at + prefix.size();
  return flags.substr(begin, flags.find_first_of(" \t", begin) - begin);
}

// A run's target: its file's context says it only inside the common flags (-march=…), not apart.
std::string target_of(const std::string& flags) {
  const std::string march = flag_value(flags, "-march=");
  return march.empty() ? std::string("native") : march;
}

// The GPUs the build compiled for, from its CUDA flags (-arch=sm_90, --generate-code …code=sm_90): the
// number.
std::string cuda_architecture(const std::string& flags) {
  const std::size_t at = flags.find("sm_");
  if (at == flags.npos) return {};
  std::size_t end = at + 3;
  while (end < flags.size() && std::isdigit(static_cast<unsigned char>(flags[end]))) ++end;
  return flags.substr(at + 3, end - at - 3);
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
  if (const auto architecture = cuda_architecture(request.build.cuda_flags); !architecture.empty())
    plan.cuda_architectures = architecture;
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
  // Each file's SHA-256 as written: a later export replaces only files still as they were (out_directory).
  for (const auto& file : files) {
    marker["files"].push_back(file.path);
    marker["sha256"][file.path] = sha256_hex(file.text);
  }
  files.push_back({marker_file, dump_json(marker, 1) + "\n"});
  check_out(request.out, files);
  if (warnings)
    for (const auto& difference : plan.code_differences)
      warnings->push_back("--from " + request.from_run +
                          ": its figures may be for other code than this export's: " + difference);
  return files;
}

}  // namespace ladder::exporter
