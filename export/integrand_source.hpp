// Where an exported integrand comes from: a built-in one (variants/builtin/), a user header this build
// contains (integrands/, examples/integrands/, -DLADDER_USER_INTEGRANDS), or a header given by its path,
// written to the ladder/integrand.hpp contract, that the build has never seen.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ladder::exporter {

struct IntegrandSource {
  std::string name;       // the integrand's `name`: "gauss", "log-atan"
  std::string type;       // its C++ type, qualified: "ladder::Gauss" (renamed with the kernels), "::LogAtan"
  bool built_in = false;  // in namespace ladder, renamed to the export's namespace with the kernels
  std::string origin;     // where it was read: "variants/builtin/gauss.hpp", or the path given
  std::string file_name;  // what it is called in include/NS/: "gauss.hpp"
  std::string text;
  std::optional<std::size_t> known;  // its index in the registry's integrands(), when this build has it
};

// The integrands a header defines: each struct with a `name = "…"`, qualified as its LADDER_INTEGRAND
// line names it (a header without LADDER_INTEGRAND lines: a built-in one, in namespace ladder).
struct DefinedIntegrand {
  std::string name, type;
};
std::vector<DefinedIntegrand> integrands_defined_in(std::string_view header_text);

// `requested`: an integrand's name, a header's path, or PATH:NAME for one of several in a header; empty: the
// default integrand. Throws InputError naming the value and what is accepted.
IntegrandSource find_integrand_source(std::string_view requested);

}  // namespace ladder::exporter
