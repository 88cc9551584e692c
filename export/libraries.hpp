// The libraries a tier card may list, as an exported project finds, links and installs them: the rows of
// cmake/libraries.cmake (ladder_add_library), which CMake writes into ladder_libraries.inc. A new library is
// a row there, never code here.
#pragma once

#include <string>
#include <string_view>

namespace ladder::exporter {

struct Library {
  std::string_view name;        // the row's NAME, as ladder_add_tier's LIBRARIES names it
  std::string_view card;        // how a card's libraries entry begins: "xsimd" for "xsimd 8.1"
  std::string_view find;        // the exported CMakeLists.txt's lines that find it; @NS@ is the namespace
  std::string_view link;        // the target to link; @NS@ as in find
  std::string_view packages;    // the README's words for its Debian 12 packages
  std::string_view namespaces;  // the C++ namespaces it takes, separated by spaces
};

inline constexpr Library libraries[] = {
#include "ladder_libraries.inc"
};

// The row whose CARD begins the card's entry; a std::logic_error naming the tier, the entry and the file to
// add a row to when none does.
const Library& library_of(const std::string& tier, const std::string& card_entry);

// Text with @NS@ replaced by the exported project's namespace.
std::string with_namespace(std::string_view text, const std::string& ns);

}  // namespace ladder::exporter
