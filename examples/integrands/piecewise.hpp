// A piecewise law with a branch, written twice: the way anyone writes it first, and the way SIMD needs it.
//
//   f(x) = e^(x−c)              for x < c
//          1 + u + u²/2         for x ≥ c, u = x − c        (c = 0.3)
//
// exponential growth below c, continued above c by its quadratic Taylor polynomial (growth capped). The two
// pieces meet with the same value, slope and curvature, only f‴ jumps at c: the midpoint rule keeps its h²
// law wherever c falls. A kink (a jump in f′) inside [a, b] would not: it breaks the h² law's constant
// and the Euler–Maclaurin expansion Ladder's exact midpoint sum uses above 2^22 nodes. Ladder flags what
// it can detect of that (a quadrature error estimate too large for the reference), so a kinked law of your
// own should give its antiderivative, and expect a convergence that is not clean h².
#pragma once

#include "ladder/integrand.hpp"

// The naive form: a plain `if`. Fine for double and long double (and Boost's types), but an xsimd batch
// holds 4 or 8 values at once and `x < c` is a mask, not one bool. Without AVX-512 this does not compile
// for batches; with AVX-512 it does (xsimd 8.1's mask converts to an integer, so to bool) and takes one
// path for all lanes, silently wrong. The build checks each integrand's values on batches against doubles,
// so either way the SIMD tiers are unavailable for it, with the reason; the scalar tiers run it.
struct PiecewiseBranch {
  static constexpr std::string_view name = "piecewise-branch";
  static constexpr double c = 0.3;  // this double, exactly, in every type

  template <class T>
  T operator()(const T& x) const {
    using std::exp;
    if (x < c) return exp(x - c);
    const T u = x - c;
    return 1.0 + u * (1.0 + u / 2.0);
  }

  // Piecewise too, with the same switch at c; both pieces are 1 there. Only scalars call it. Given because
  // quadrature across c is less sure of itself: tanh_sinh's error estimate on [−3, 3] is 3.9e-17.
  template <class T>
  static T antiderivative(const T& x) {
    using std::exp;
    if (x < c) return exp(x - c);
    const T u = x - c;
    return 1.0 + u * (1.0 + u * (0.5 + u / 6.0));
  }
};
LADDER_INTEGRAND(PiecewiseBranch);

// The SIMD-ready form: compute both pieces, then choose per value without branching. For double it gives
// the same bits as the branch (the same operations on the same numbers); for batches xsimd::select picks
// lane by lane. The price: every node pays for exp, even those that use the polynomial.
struct PiecewiseSelect {
  static constexpr std::string_view name = "piecewise-select";
  static constexpr double c = PiecewiseBranch::c;

  template <class T>
  T operator()(const T& x) const {
    using std::exp;
    const T u = x - c;
    const T below = exp(u);
    const T above = 1.0 + u * (1.0 + u / 2.0);
    if constexpr (std::is_same_v<decltype(x < c), bool>)
      return x < c ? below : above;  // double, long double, Boost's types
    else if constexpr (requires { (x < c).select(below, above); })
      return (x < c).select(below, above);  // Eigen arrays: select is a member of the mask
    else
      return select(x < c, below, above);  // xsimd batches: xsimd::select, found by argument-dependent lookup
  }

  template <class T>
  static T antiderivative(const T& x) {
    return PiecewiseBranch::antiderivative(x);
  }
};
LADDER_INTEGRAND(PiecewiseSelect);
