// The std::function versions of the integrands, in their own translation unit: the naive and streaming
// tiers call through them, and from there the compiler cannot inline the integrand back in.
#include "integrands.hpp"

namespace ladder {

template <class F>
const ScalarFunction& type_erased(F) {
  static const ScalarFunction function = [](double x) { return F{}(x); };
  return function;
}

template const ScalarFunction& type_erased(Gauss);
template const ScalarFunction& type_erased(Pi);
template const ScalarFunction& type_erased(Sine);
template const ScalarFunction& type_erased(Poly);

}  // namespace ladder
