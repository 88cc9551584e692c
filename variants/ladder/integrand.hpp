// The one Ladder header a user integrand includes. An integrand is a struct with a `name`, a generic call
// operator written with unqualified maths calls, and optionally its antiderivative:
//
//   #include "ladder/integrand.hpp"
//   struct LogAtan {
//     static constexpr std::string_view name = "log-atan";
//     template <class T> T operator()(const T& x) const {
//       using std::atan; using std::log1p;  // std for scalars; xsimd, Eigen, Boost find theirs by ADL
//       return log1p(x * x) * atan(x);
//     }
//     // optional: template <class T> static T antiderivative(const T& x);
//   };
//   LADDER_INTEGRAND(LogAtan);
//
// The build (cmake/user_integrands.cmake) includes every such header into every tier. LADDER_INTEGRAND
// checks the contract where the header is compiled, so a mistake is reported against the header, not deep
// inside a tier; it belongs at global scope, with the struct's qualified name.
#pragma once

#include <cmath>
#include <concepts>
#include <string_view>
#include <type_traits>

// The cuda tier runs the same integrands on the GPU: under nvcc their call operators are compiled for the
// host and the device; every other compiler sees nothing. Write it before a call operator to have it run
// there too.
#ifndef LADDER_HOST_DEVICE
#ifdef __CUDACC__
#define LADDER_HOST_DEVICE __host__ __device__
#else
#define LADDER_HOST_DEVICE
#endif
#endif

namespace ladder {

// Set by LADDER_INTEGRAND for each registered struct.
template <class F>
inline constexpr bool registered_integrand = false;

// A name a run can be asked for: 1 to 40 characters of a-z, 0-9 and '-', starting with a letter
// (it is part of Google Benchmark's cell names "tier/NAME/n:…" and of `--integrand a,b` lists).
constexpr bool valid_integrand_name(std::string_view name) {
  if (name.empty() || name.size() > 40 || name[0] < 'a' || name[0] > 'z') return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

template <class F>
concept NamedIntegrand = requires {
  { F::name } -> std::convertible_to<std::string_view>;
};

// On a long double it computes in long double: the references are computed in it (a `double operator()`
// would quietly make them double precision).
template <class F>
concept ScalarIntegrand = std::is_default_constructible_v<F> &&
    requires(const F& f, double x, long double y) {
  { f(x) } -> std::convertible_to<double>;
  { f(y) } -> std::same_as<long double>;
};

template <class F>
concept HasAntiderivative = requires(long double x) {
  { F::antiderivative(x) } -> std::same_as<long double>;
};

// An antiderivative the references would not find: a member function (it must be static), or one that does
// not compute in long double.
template <class F>
concept MisdeclaredAntiderivative =
    !HasAntiderivative<F> && (
                                 requires(const F& f, long double x) { f.antiderivative(x); } ||
                                 requires(long double x) { F::antiderivative(x); });

// The built-in integrands also give f′, f‴ and the size of what one evaluation rounds: all three or none.
template <class F>
constexpr int closed_forms_given() {
  return int(requires(long double x) { F::derivative1(x); }) +
         int(requires(long double x) { F::derivative3(x); }) +
         int(requires(long double x) { F::magnitude(x); });
}

}  // namespace ladder

#define LADDER_INTEGRAND(Type)                                                                           \
  static_assert(::ladder::NamedIntegrand<Type>,                                                          \
                "LADDER_INTEGRAND(" #Type "): needs `static constexpr std::string_view name = \"…\";`"); \
  static_assert(::ladder::valid_integrand_name(Type::name),                                              \
                "LADDER_INTEGRAND(" #Type                                                                \
                "): its name must be 1 to 40 characters of a-z, 0-9 and '-', starting with a letter");   \
  static_assert(::ladder::ScalarIntegrand<Type>,                                                         \
                "LADDER_INTEGRAND(" #Type                                                                \
                "): needs a const call operator that takes a double and a long double and computes in "  \
                "it (template <class T> T operator()(const T& x) const)");                               \
  static_assert(!::ladder::MisdeclaredAntiderivative<Type>,                                              \
                "LADDER_INTEGRAND(" #Type                                                                \
                "): its antiderivative must be static and compute in long double (template <class T> "   \
                "static T antiderivative(const T& x))");                                                 \
  static_assert(::ladder::closed_forms_given<Type>() % 3 == 0,                                           \
                "LADDER_INTEGRAND(" #Type                                                                \
                "): derivative1, derivative3 and magnitude come all three or none");                     \
  template <>                                                                                            \
  inline constexpr bool ladder::registered_integrand<Type> = true
