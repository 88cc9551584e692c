// The std::function versions of the integrands, in their own translation unit: the naive and streaming
// tiers call through them, and from there the compiler cannot inline the integrand back in.
#include "integrands.hpp"

#include <vector>

namespace ladder {
namespace {

template <class... Fs>
std::vector<ScalarFunction> all_type_erased(IntegrandList<Fs...>) {
  return {ScalarFunction([](double x) { return Fs{}(x); })...};
}

}  // namespace

const ScalarFunction& type_erased_at(std::size_t index) {
  static const std::vector<ScalarFunction> functions = all_type_erased(AllIntegrands{});
  return functions.at(index);
}

}  // namespace ladder
