// The exported project's files are written from templates (export/templates/*.in, embedded in the binary):
// `@NAME@` is replaced by a value, and a line reading `@if NAME@` (or `@if !NAME@`) up to a line reading
// `@endif@` is kept only where the flag is set (not set). Blocks do not nest.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace ladder::exporter {

struct TemplateValues {
  std::map<std::string, std::string, std::less<>> values;
  std::set<std::string, std::less<>> flags;
};

// Throws std::logic_error naming the template and the placeholder when a placeholder has no value or a
// block is left open: a template and its values are Ladder's own, so either is a bug.
std::string expand(std::string_view name, std::string_view text, const TemplateValues& values);

}  // namespace ladder::exporter
