// The integrands, each written once as a generic callable: the same definition runs on double, on long
// double (the references), on xsimd batches and on Eigen arrays, because `exp`, `sin` and the arithmetic
// operators are found for each type by argument-dependent lookup.
//
// Beside the function itself, each integrand carries what the references and the error analysis need, in
// long double: an antiderivative (the exact integral), the first and third derivatives (the
// Euler–Maclaurin expansion of the midpoint sum), and `magnitude`, the size of the terms one evaluation
// rounds (the per-node rounding bound scales with it).
#pragma once

#include <cmath>
#include <functional>
#include <numbers>
#include <string_view>
#include <type_traits>

#include "ladder/integrand.hpp"

// The cuda tier runs the same integrands on the GPU: under nvcc their call operators are compiled for the
// host and the device; every other compiler sees nothing.
#ifdef __CUDACC__
#define LADDER_HOST_DEVICE __host__ __device__
#else
#define LADDER_HOST_DEVICE
#endif

namespace ladder {

struct Gauss {
  static constexpr std::string_view name = "gauss";
  static constexpr std::string_view formula = "exp(-x^2)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    using std::exp;
    return exp(-x * x);
  }
  static long double antiderivative(long double x) {
    return std::sqrt(std::numbers::pi_v<long double>) / 2 * std::erf(x);
  }
  static long double derivative1(long double x) { return -2 * x * std::exp(-x * x); }
  static long double derivative3(long double x) { return (12 * x - 8 * x * x * x) * std::exp(-x * x); }
  static long double magnitude(long double x) { return std::exp(-x * x); }
};

struct Pi {
  static constexpr std::string_view name = "pi";
  static constexpr std::string_view formula = "4/(1+x^2)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    return 4.0 / (1.0 + x * x);
  }
  static long double antiderivative(long double x) { return 4 * std::atan(x); }
  static long double derivative1(long double x) { return -8 * x / ((1 + x * x) * (1 + x * x)); }
  static long double derivative3(long double x) {
    const long double q = 1 + x * x;
    return 96 * x * (1 - x * x) / (q * q * q * q);
  }
  static long double magnitude(long double x) { return 4 / (1 + x * x); }
};

struct Sine {
  static constexpr std::string_view name = "sin";
  static constexpr std::string_view formula = "sin(x)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    using std::sin;
    return sin(x);
  }
  static long double antiderivative(long double x) { return -std::cos(x); }
  static long double derivative1(long double x) { return std::cos(x); }
  static long double derivative3(long double x) { return -std::cos(x); }
  // Near its zeros sin(x) is tiny but its rounding error is not (range reduction works on x): use 1.
  static long double magnitude(long double) { return 1; }
};

// A cheap polynomial: with no transcendental function to hide behind, what is left is the cost of the
// loop itself, so the rungs that only remove overhead show most clearly here.
struct Poly {
  static constexpr std::string_view name = "poly";
  static constexpr std::string_view formula = "x^3 - 2x^2 + 3x + 1";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    return ((x - 2.0) * x + 3.0) * x + 1.0;
  }
  static long double antiderivative(long double x) { return ((((x / 4 - 2.0L / 3) * x) + 1.5L) * x + 1) * x; }
  static long double derivative1(long double x) { return (3 * x - 4) * x + 3; }
  static long double derivative3(long double) { return 6; }
  static long double magnitude(long double x) {
    const long double ax = std::fabs(x);
    return ((ax + 2) * ax + 3) * ax + 1;
  }
};

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
template <class F>
struct IntegrandBuild {
  static constexpr std::string_view source = "built-in";
  // tuned: the tuned tiers' TunedBatch (tuned_exp.hpp), which has only what the built-in integrands use.
  static constexpr Probe simd{}, tuned{}, array{}, wide{}, autodiff{}, device{};
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
  std::size_t index = 0;
  ((std::is_same_v<F, Fs> ? false : (++index, true)) && ...);
  return index;
}

template <class F>
const ScalarFunction& type_erased(F) {
  return type_erased_at(index_in<F>(AllIntegrands{}));
}

}  // namespace ladder
