#include "template.hpp"

#include <stdexcept>

namespace ladder::exporter {
namespace {

std::string_view trimmed(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t") - first + 1);
}

std::string substitute(std::string_view name, std::string_view line, const TemplateValues& values) {
  std::string out;
  std::size_t at = 0;
  while (at < line.size()) {
    const auto open = line.find('@', at);
    const auto close = open == std::string_view::npos ? open : line.find('@', open + 1);
    if (close == std::string_view::npos) {
      out += line.substr(at);
      break;
    }
    const std::string_view key = line.substr(open + 1, close - open - 1);
    const bool placeholder = !key.empty() && key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == key.npos;
    if (!placeholder) {  // an '@' of the text itself (an e-mail address, a decorator): kept
      out += line.substr(at, open + 1 - at);
      at = open + 1;
      continue;
    }
    const auto found = values.values.find(key);
    if (found == values.values.end())
      throw std::logic_error("export template " + std::string(name) + ": no value for @" + std::string(key) +
                             "@");
    out += line.substr(at, open - at);
    out += found->second;
    at = close + 1;
  }
  return out;
}

}  // namespace

std::string expand(std::string_view name, std::string_view text, const TemplateValues& values) {
  std::string out;
  bool in_block = false, keep = true;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == text.npos ? text.npos : end - at);
    at = end == text.npos ? text.size() : end + 1;
    const std::string_view directive = trimmed(line);
    if (directive.starts_with("@if ") && directive.ends_with('@')) {
      if (in_block) throw std::logic_error("export template " + std::string(name) + ": nested @if");
      std::string_view flag = directive.substr(4, directive.size() - 5);
      const bool negated = flag.starts_with('!');
      if (negated) flag.remove_prefix(1);
      in_block = true;
      keep = values.flags.contains(flag) != negated;
      continue;
    }
    if (directive == "@endif@") {
      if (!in_block) throw std::logic_error("export template " + std::string(name) + ": @endif@ without @if");
      in_block = false;
      keep = true;
      continue;
    }
    if (!keep) continue;
    out += substitute(name, line, values);
    if (end != text.npos) out += '\n';
  }
  if (in_block)
    throw std::logic_error("export template " + std::string(name) + ": an @if block is left open");
  return out;
}

}  // namespace ladder::exporter
