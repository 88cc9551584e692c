#include "integrand_source.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "embedded.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "text.hpp"

namespace ladder::exporter {
namespace {

bool looks_like_a_path(std::string_view text) {
  return text.find('/') != text.npos || text.ends_with(".hpp") || text.ends_with(".h") ||
         text.ends_with(".hh") || text.ends_with(".hxx") || text.find(".hpp:") != text.npos ||
         text.find(".h:") != text.npos;
}

std::string names_of(const std::vector<DefinedIntegrand>& defined) {
  std::vector<std::string> names;
  for (const auto& integrand : defined) names.push_back(integrand.name);
  return join(names);
}

std::optional<std::size_t> known_index(const std::string& name) {
  for (std::size_t i = 0; i < integrands().size(); ++i)
    if (integrands()[i].name == name) return i;
  return std::nullopt;
}

IntegrandSource from_text(std::string origin, std::string text, const std::string& wanted, bool built_in) {
  const auto defined = integrands_defined_in(text);
  const DefinedIntegrand* chosen = nullptr;
  for (const auto& integrand : defined)
    if (integrand.name == wanted || (wanted.empty() && defined.size() == 1)) chosen = &integrand;
  if (!chosen) {
    if (defined.empty())
      throw InputError(
          "--integrand: " + origin +
          " defines no integrand (a struct with `static constexpr std::string_view name = \"…\";` "
          "and a LADDER_INTEGRAND(Type) line: see ladder/integrand.hpp)");
    throw InputError("--integrand: " + origin +
                     (wanted.empty() ? " defines several integrands ("
                                     : " has no integrand named '" + wanted + "' (it defines: ") +
                     names_of(defined) + "); name one as PATH:NAME");
  }
  IntegrandSource source;
  source.name = chosen->name;
  source.type = chosen->type;
  source.built_in = built_in;
  source.file_name = std::filesystem::path(origin).filename().string();
  source.origin = std::move(origin);
  source.text = std::move(text);
  source.known = known_index(source.name);
  return source;
}

IntegrandSource from_build(const IntegrandInfo& info) {
  if (info.source != "built-in") {
    const auto text = embedded(info.source);
    if (!text)
      throw std::logic_error("the build did not embed " + info.source + ", the header of " + info.name);
    return from_text(info.source, std::string(*text), info.name, false);
  }
  for (const auto& file : embedded_files()) {
    if (!file.path.starts_with("variants/builtin/")) continue;
    for (const auto& defined : integrands_defined_in(file.text))
      if (defined.name == info.name)
        return from_text(std::string(file.path), std::string(file.text), info.name, true);
  }
  throw std::logic_error("the build embedded no header of the built-in integrand " + info.name);
}

IntegrandSource from_path(std::string_view requested) {
  std::string path(requested), wanted;
  if (const auto colon = path.rfind(':'); colon != path.npos && !std::filesystem::exists(path)) {
    wanted = path.substr(colon + 1);
    path.resize(colon);
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("--integrand '" + std::string(requested) + "': " + path +
                     " is not a header file; give an integrand's name (" + integrand_names() +
                     ") or the path of a header written to the ladder/integrand.hpp contract");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw InputError("--integrand: cannot read " + path);
  const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  return from_text(absolute, text.str(), wanted, false);
}

}  // namespace

std::vector<DefinedIntegrand> integrands_defined_in(std::string_view header_text) {
  const std::string text(header_text);
  std::vector<std::pair<std::string, std::string>> registered;  // last name component, qualified name
  static const std::regex registration(R"(LADDER_INTEGRAND\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*\)\s*;)");
  for (std::sregex_iterator it(text.begin(), text.end(), registration), end; it != end; ++it) {
    const std::string qualified = (*it)[1];
    const auto last = qualified.rfind("::");
    registered.emplace_back(
        last == qualified.npos ? qualified : qualified.substr(last + 2),
        qualified.starts_with("::") || qualified.find("::") != qualified.npos ? qualified : "::" + qualified);
  }
  static const std::regex structure(R"(struct\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{)");
  static const std::regex name(R"(name\s*=\s*\"([^\"]*)\")");
  std::vector<DefinedIntegrand> defined;
  std::vector<std::smatch> structs(std::sregex_iterator(text.begin(), text.end(), structure),
                                   std::sregex_iterator());
  for (std::size_t i = 0; i < structs.size(); ++i) {
    const auto begin = text.begin() + structs[i].position(0);
    const auto end = i + 1 < structs.size() ? text.begin() + structs[i + 1].position(0) : text.end();
    std::smatch named;
    if (!std::regex_search(begin, end, named, name)) continue;
    const std::string type = structs[i][1];
    std::string qualified;
    for (const auto& [short_name, full] : registered)
      if (short_name == type) qualified = full;
    if (registered.empty()) qualified = "ladder::" + type;  // a built-in header: namespace ladder
    if (!qualified.empty()) defined.push_back({named[1], qualified});
  }
  return defined;
}

IntegrandSource find_integrand_source(std::string_view requested) {
  if (requested.empty()) return from_build(integrands().front());
  if (looks_like_a_path(requested)) return from_path(requested);
  for (const auto& info : integrands())
    if (info.name == requested) return from_build(info);
  throw InputError("--integrand '" + std::string(requested) +
                   "' is unknown; integrands: " + integrand_names() +
                   ", or the path of a header written to the ladder/integrand.hpp contract");
}

}  // namespace ladder::exporter
