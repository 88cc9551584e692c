#include "libraries.hpp"

#include <stdexcept>

namespace ladder::exporter {

const Library& library_of(const std::string& tier, const std::string& card_entry) {
  for (const Library& library : libraries)
    if (card_entry.starts_with(library.card)) return library;
  throw std::logic_error("tier '" + tier + "': no library row for its card's library '" + card_entry +
                         "' (add a ladder_add_library row to cmake/libraries.cmake)");
}

std::string with_namespace(std::string_view text, const std::string& ns) {
  std::string out;
  constexpr std::string_view placeholder = "@NS@";
  std::size_t at = 0;
  for (std::size_t found; (found = text.find(placeholder, at)) != text.npos; at = found + placeholder.size())
    out.append(text.substr(at, found - at)).append(ns);
  return out.append(text.substr(at));
}

}  // namespace ladder::exporter
