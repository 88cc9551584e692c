// The names the C library and the libraries an exported project includes take in the global namespace
// (functions, types, variables) or as macros: a namespace of one of them does not compile.
#pragma once

#include <string_view>

namespace ladder::exporter {

// Every such name with one space before and after it: " a64l abort abs … ".
std::string_view global_names();

}  // namespace ladder::exporter
