// The integrands, each written once as a generic callable: the same definition runs on double, on long
// double (the references), on xsimd batches and on Eigen arrays, because `exp`, `sin` and the arithmetic
// operators are found for each type by argument-dependent lookup.
//
// Beside the function itself, each integrand carries what the references and the error analysis need, in
// long double: an antiderivative (the exact integral), the first and third derivatives (the
// Euler–Maclaurin expansion of the midpoint sum), and `magnitude`, the size of the terms one evaluation
// rounds (the per-node rounding bound scales with it). The built-in ones are one header each in builtin/,
// which a team can include as they are; this file lists them and holds what the registry needs of every
// integrand.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string_view>
#include <type_traits>

#include "builtin/gauss.hpp"
#include "builtin/pi.hpp"
#include "builtin/poly.hpp"
#include "builtin/sine.hpp"
#include "ladder/integrand.hpp"

namespace ladder {

template <class... Integrands>
struct IntegrandList {};

using BuiltInIntegrands = IntegrandList<Gauss, Pi, Sine, Poly>;

// What the build found out about an integrand: whether it works on each kind of argument a tier or a
// reference calls it with (compiled, and run against its values on doubles), and if not, why. The built-in
// integrands compile for all; a user integrand's record is written by cmake/user_integrands.cmake.
struct Probe {
  bool compiles = true;
  std::string_view error{};
  // The largest difference between its values on this argument and on doubles, in ulps of the double
  // value, at the probe's 96 points in [-4, 4]: what a library's vector maths adds to each evaluation.
  double ulps = 0;
};
// The build's probe of a user integrand on one kind of argument a tier calls it with (EvaluationKind in
// tier.hpp): the kind's id and what the probe found.
struct KindProbe {
  std::string_view kind;
  Probe probe;
};

// What the build found out about F. The built-in integrands work on every kind of argument (but where a
// kind says otherwise: EvaluationKind::built_in); a user integrand's record, written by
// cmake/user_integrands.cmake, has its probes on cpp_bin_float_quad (wide) and autodiff's fvar (autodiff),
// which the references use, and one for each kind of argument a ladder_add_tier line probes.
template <class F>
struct IntegrandBuild {
  static constexpr std::string_view source = "built-in";
  static constexpr Probe wide{}, autodiff{};
  static constexpr std::array<KindProbe, 0> probes{};
};

}  // namespace ladder

// The user integrands of this build (integrands/, examples/integrands/, -DLADDER_USER_INTEGRANDS), each with
// its IntegrandBuild record, and the list UserIntegrands.
#include "ladder_user_integrands.hpp"

namespace ladder {

template <class... Fs, class... Gs>
IntegrandList<Fs..., Gs...> concatenate(IntegrandList<Fs...>, IntegrandList<Gs...>);

// Every integrand every tier is built for; the first is the default.
using AllIntegrands = decltype(concatenate(BuiltInIntegrands{}, UserIntegrands{}));

template <class... Fs>
consteval bool names_are_distinct(IntegrandList<Fs...>) {
  const std::string_view names[] = {Fs::name...};
  for (std::size_t i = 0; i < sizeof...(Fs); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) return false;
  return true;
}
static_assert(names_are_distinct(AllIntegrands{}), "two integrands have the same name");

// The same integrand behind a std::function, built in another translation unit so the compiler cannot see
// through it: the cost of that indirection is what the std::function tiers exhibit.
using ScalarFunction = std::function<double(double)>;
const ScalarFunction& type_erased_at(std::size_t index);  // by the integrand's place in AllIntegrands

template <class F, class... Fs>
consteval std::size_t index_in(IntegrandList<Fs...>) {
  const bool is_f[] = {std::is_same_v<F, Fs>...};
  std::size_t index = 0;
  while (index < sizeof...(Fs) && !is_f[index]) ++index;
  return index;
}

template <class F>
const ScalarFunction& type_erased(F) {
  return type_erased_at(index_in<F>(AllIntegrands{}));
}

}  // namespace ladder
