#include "reference_library.hpp"

#include <map>
#include <string_view>

#include "integrands.hpp"

namespace ladder {
namespace {

constexpr std::string_view wide_name = "cpp_bin_float_quad";

// An integrand's Boost.Math functions on the widest types its probes allow; nothing is instantiated for a
// type its header does not compute on.
template <class F>
LibraryFunctions functions_of() {
  using Build = IntegrandBuild<F>;
  LibraryFunctions library;
  if constexpr (Build::wide.compiles) {
    library.integral = [](Interval ab) { return library_integral<WideReal>(F{}, ab); };
    library.integral_method = "Boost.Math tanh_sinh in " + std::string(wide_name);
  } else {
    library.integral = [](Interval ab) { return library_integral<long double>(F{}, ab); };
    library.integral_method = "Boost.Math tanh_sinh in long double";
  }
  if constexpr (Build::autodiff.compiles) {
    library.end_derivatives = [](long double x) { return library_end_derivatives(F{}, x); };
    library.derivatives_method = "Boost.Math autodiff";
    library.derivative1 = [](long double x) { return library_derivative1(F{}, x); };
  } else {
    if constexpr (Build::wide.compiles) {
      library.end_derivatives = [](long double x) {
        return finite_difference_end_derivatives<WideReal>(F{}, x);
      };
      library.derivatives_method = "Boost.Math finite differences in " + std::string(wide_name);
    } else {
      library.end_derivatives = [](long double x) {
        return finite_difference_end_derivatives<long double>(F{}, x);
      };
      library.derivatives_method = "Boost.Math finite differences in long double";
    }
    // Second order (two evaluations a node): the bound's scale needs a few digits, not all of them.
    library.derivative1 = [](long double x) {
      return boost::math::differentiation::finite_difference_derivative<F, long double, 2>(F{}, x);
    };
  }
  return library;
}

template <class... Fs>
std::map<std::string, LibraryFunctions, std::less<>> all_functions(IntegrandList<Fs...>) {
  return {{std::string(Fs::name), functions_of<Fs>()}...};
}

}  // namespace

LibraryFunctions library_functions(const IntegrandInfo& integrand) {
  static const auto built = all_functions(AllIntegrands{});
  if (const auto found = built.find(integrand.name); found != built.end()) return found->second;
  // Known only by its long double function: everything in long double, by finite differences.
  const auto value = integrand.value;
  LibraryFunctions library;
  library.integral = [value](Interval ab) { return library_integral<long double>(value, ab); };
  library.integral_method = "Boost.Math tanh_sinh in long double";
  library.end_derivatives = [value](long double x) {
    return finite_difference_end_derivatives<long double>(value, x);
  };
  library.derivatives_method = "Boost.Math finite differences in long double";
  library.derivative1 = [value](long double x) {
    return boost::math::differentiation::finite_difference_derivative<decltype(value), long double, 2>(value,
                                                                                                       x);
  };
  return library;
}

}  // namespace ladder
