#include "integrand_source.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "embedded.hpp"
#include "errors.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "text.hpp"

namespace ladder::exporter {
namespace {

// ---- reading a header -------------------------------------------------------------------------------
// A header is read by a small scanner, one pass and no recursion, whatever runs of spaces or characters it
// holds (std::regex recursed once a character and overflowed the stack on 30 000 of them): identifiers,
// punctuation and string literals, with comments, character literals and the contents of strings skipped.
struct Token {
  enum Kind : char { identifier, punctuation, string } kind;
  std::string_view text;  // a string literal's contents, without its quotes
};

bool starts_identifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continues_identifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The next token from `at`, or none at the end of the text.
std::optional<Token> next_token(std::string_view text, std::size_t& at) {
  const std::size_t size = text.size();
  while (at < size) {
    const char c = text[at];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++at;
    } else if (text.substr(at, 2) == "//") {
      at = std::min(text.find('\n', at), size);
    } else if (text.substr(at, 2) == "/*") {
      const auto close = text.find("*/", at + 2);
      at = close == text.npos ? size : close + 2;
    } else {
      break;
    }
  }
  if (at >= size) return std::nullopt;
  const std::size_t begin = at;
  const char c = text[at];
  if (starts_identifier(c)) {
    while (at < size && continues_identifier(text[at])) ++at;
    // R"delim(…)delim" (a delimiter has at most 16 characters)
    const auto open = at < size && text[at] == '"' && text[at - 1] == 'R' ? text.find('(', at) : text.npos;
    if (open != text.npos && open - at <= 17) {
      const std::string close = ")" + std::string(text.substr(at + 1, open - at - 1)) + "\"";
      const auto end = text.find(close, open);
      const std::size_t stop = end == text.npos ? size : end;
      at = end == text.npos ? size : end + close.size();
      return Token{Token::string, text.substr(open + 1, stop - open - 1)};
    }
    return Token{Token::identifier, text.substr(begin, at - begin)};
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {  // a number, with its digit separators (1'000'000)
    while (at < size && (continues_identifier(text[at]) || text[at] == '.' ||
                         (text[at] == '\'' && at + 1 < size && continues_identifier(text[at + 1]))))
      ++at;
    return Token{Token::punctuation, text.substr(begin, at - begin)};
  }
  if (c == '"' || c == '\'') {
    ++at;
    while (at < size && text[at] != c && text[at] != '\n') at += text[at] == '\\' ? 2 : 1;
    const std::size_t stop = std::min(at, size);
    at = std::min(at + 1, size);
    return Token{c == '"' ? Token::string : Token::punctuation, text.substr(begin + 1, stop - begin - 1)};
  }
  ++at;
  return Token{Token::punctuation, text.substr(begin, 1)};
}

struct HeaderScan {
  std::vector<std::pair<std::string, std::string>> registered;  // last name component, qualified name
  struct Struct {
    std::string type, name;  // name: its `name = "…"`, empty if it has none
  };
  std::vector<Struct> structs;
};

bool is(const Token& token, std::string_view text) {
  return token.kind != Token::string && token.text == text;
}

HeaderScan scan_header(std::string_view text) {
  HeaderScan scan;
  std::size_t at = 0;
  while (auto token = next_token(text, at)) {
    if (token->kind == Token::identifier && token->text == "LADDER_INTEGRAND") {
      // LADDER_INTEGRAND ( name [:: name]… ) ;
      std::size_t look = at;
      auto open = next_token(text, look);
      if (!open || !is(*open, "(")) continue;
      std::string qualified;
      std::optional<Token> part;
      while ((part = next_token(text, look)) && (part->kind == Token::identifier || is(*part, ":")))
        qualified += part->text;
      const auto semicolon = part && is(*part, ")") ? next_token(text, look) : std::nullopt;
      if (qualified.empty() || !semicolon || !is(*semicolon, ";")) continue;
      at = look;
      const auto last = qualified.rfind("::");
      scan.registered.emplace_back(last == qualified.npos ? qualified : qualified.substr(last + 2),
                                   qualified.find("::") != qualified.npos ? qualified : "::" + qualified);
    } else if (token->kind == Token::identifier && token->text == "struct") {
      std::size_t look = at;
      const auto type = next_token(text, look);
      if (!type || type->kind != Token::identifier) continue;
      const auto brace = next_token(text, look);
      if (!brace || !is(*brace, "{")) continue;
      scan.structs.push_back({std::string(type->text), {}});
      at = look;
    } else if (token->kind == Token::identifier && token->text == "name" && !scan.structs.empty() &&
               scan.structs.back().name.empty()) {
      // name = "…": the integrand's name, the first in its struct
      std::size_t look = at;
      const auto equals = next_token(text, look);
      if (!equals || !is(*equals, "=")) continue;
      const auto literal = next_token(text, look);
      if (literal && literal->kind == Token::string) scan.structs.back().name = literal->text;
    }
  }
  return scan;
}

std::vector<DefinedIntegrand> defined_in(const HeaderScan& scan) {
  std::vector<DefinedIntegrand> defined;
  for (const auto& structure : scan.structs) {
    if (structure.name.empty()) continue;
    std::string qualified;
    for (const auto& [short_name, full] : scan.registered)
      if (short_name == structure.type) qualified = full;
    if (scan.registered.empty())
      qualified = "ladder::" + structure.type;  // a built-in header: namespace ladder
    if (!qualified.empty()) defined.push_back({structure.name, qualified});
  }
  return defined;
}

// ---- finding the integrand --------------------------------------------------------------------------
// A header given by its path is read whole; one this large is no integrand's.
constexpr std::uintmax_t largest_header = 4 << 20;

bool looks_like_a_path(std::string_view text) {
  return text.find('/') != text.npos || text.ends_with(".hpp") || text.ends_with(".h") ||
         text.ends_with(".hh") || text.ends_with(".hxx") || text.find(".hpp:") != text.npos ||
         text.find(".h:") != text.npos;
}

// At most a few names, each quoted, and how many more: a header of 20 000 structs is not listed whole.
std::string names_of(const std::vector<DefinedIntegrand>& defined) {
  constexpr std::size_t shown = 8;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < defined.size() && i < shown; ++i) names.push_back(quote_text(defined[i].name));
  if (defined.size() > shown) names.push_back("and " + std::to_string(defined.size() - shown) + " more");
  return join(names);
}

std::optional<std::size_t> known_index(const std::string& name) {
  for (std::size_t i = 0; i < integrands().size(); ++i)
    if (integrands()[i].name == name) return i;
  return std::nullopt;
}

IntegrandSource from_text(std::string origin, std::string text, const std::string& wanted, bool built_in) {
  const HeaderScan scan = scan_header(text);
  if (!built_in && scan.registered.empty())
    throw InputError("--integrand: " + quote_text(origin) +
                     " has no LADDER_INTEGRAND(Type); line, which registers its integrand (see "
                     "ladder/integrand.hpp); without it, it is not an integrand header");
  const auto defined = defined_in(scan);
  const DefinedIntegrand* chosen = nullptr;
  for (const auto& integrand : defined)
    if (integrand.name == wanted || (wanted.empty() && defined.size() == 1)) chosen = &integrand;
  if (!chosen) {
    if (defined.empty())
      throw InputError(
          "--integrand: " + quote_text(origin) +
          " defines no integrand (a struct with `static constexpr std::string_view name = \"…\";` "
          "and a LADDER_INTEGRAND(Type) line: see ladder/integrand.hpp)");
    throw InputError("--integrand: " + quote_text(origin) +
                     (wanted.empty() ? " defines " + std::to_string(defined.size()) + " integrands ("
                                     : " has no integrand named '" + quote_text(wanted) + "' (it defines: ") +
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
  // The error_code overloads throughout: a path the file system refuses (a name too long, a file where a
  // directory should be, a symlink loop, no permission) is the user's input, refused by name, not a crash.
  std::string path(requested), wanted;
  std::error_code error;
  if (const auto colon = path.rfind(':'); colon != path.npos && !std::filesystem::exists(path, error)) {
    wanted = path.substr(colon + 1);
    path.resize(colon);
  }
  if (!std::filesystem::is_regular_file(path, error)) {
    const bool missing = !error || error == std::errc::no_such_file_or_directory;
    throw InputError(
        "--integrand '" + quote_text(requested) + "': " + quote_text(path) +
        (missing ? std::string(" is not a header file") : " cannot be read (" + error.message() + ")") +
        "; give an integrand's name (" + integrand_names() +
        ") or the path of a header written to the ladder/integrand.hpp contract");
  }
  if (const auto size = std::filesystem::file_size(path, error); !error && size > largest_header)
    throw InputError("--integrand: " + quote_text(path) + " is " + std::to_string(size) +
                     " bytes; an integrand header is read whole, and at most " +
                     std::to_string(largest_header) + " bytes are taken");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw InputError("--integrand: cannot read " + quote_text(path));
  const std::string absolute = std::filesystem::absolute(path, error).lexically_normal().string();
  return from_text(absolute, text.str(), wanted, false);
}

}  // namespace

std::vector<DefinedIntegrand> integrands_defined_in(std::string_view header_text) {
  return defined_in(scan_header(header_text));
}

IntegrandSource find_integrand_source(std::string_view requested) {
  if (requested.empty()) return from_build(integrands().front());
  if (looks_like_a_path(requested)) return from_path(requested);
  for (const auto& info : integrands())
    if (info.name == requested) return from_build(info);
  throw InputError("--integrand '" + quote_text(requested) +
                   "' is unknown; integrands: " + integrand_names() +
                   ", or the path of a header written to the ladder/integrand.hpp contract");
}

}  // namespace ladder::exporter
