#!/usr/bin/env bash
# User integrands from headers outside the repository (-DLADDER_USER_INTEGRANDS), built in a temporary build
# directory as a user would:
#   - headers that cannot be used stop the configuration with a message naming the header (a syntax error,
#     an error that only shows when the call operator is instantiated, a missing file, no LADDER_INTEGRAND);
#   - good headers build into `ladder`: `list --integrands` names them and their source, the SIMD tiers are
#     unavailable for the one that calls a scalar-only function (with the reason) while the scalar tiers run
#     it, and `ladder run --integrand` completes with references and rounding bounds for them; a function that
#     is non-finite at a node gets a warning, not a number passed off as right;
#   - the probes' control integrand runs for exactly the kinds of argument no integrand passed.
# The build leaves out what this test does not need (the profiling build, the mpi and cuda tiers, the shipped
# examples, the tests, the Python peers' modules): the user integrands go through every tier that is built.
# It compiles at -O1, not -O3: this test judges what the build holds and what its cells compute (each within
# its rounding bound, which holds for any rounding), never a time, and -O1 takes about a third less CPU to
# compile (tests/CMakeLists.txt).
#   usage: tests/user_integrands_build_test.sh SOURCE_DIR CMAKE
set -uo pipefail
source_dir=$1 cmake=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
outside=$scratch/team-integrands
mkdir -p "$outside"
options=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DLADDER_TESTS=OFF
  -DLADDER_PROFILING=OFF -DLADDER_MPI=OFF -DLADDER_CUDA=OFF -DLADDER_EXAMPLE_INTEGRANDS=OFF
  -DLADDER_PYTHON_EXTENSION=OFF -DLADDER_CYTHON=OFF -DLADDER_PYTHRAN_PEERS=OFF)

# ---- headers that cannot be used: the configuration stops and names them --------------------------------
cat >"$outside/broken_syntax.hpp" <<'EOF'
#include "ladder/integrand.hpp"
struct BrokenSyntax {
  static constexpr std::string_view name = "broken-syntax";
  template <class T> T operator()(const T& x) const { return x * x }
};
LADDER_INTEGRAND(BrokenSyntax);
EOF
cat >"$outside/broken_call.hpp" <<'EOF'
#include "ladder/integrand.hpp"
struct BrokenCall {
  static constexpr std::string_view name = "broken-call";
  template <class T> T operator()(const T& x) const { return no_such_function(x); }
};
LADDER_INTEGRAND(BrokenCall);
EOF
cat >"$outside/unregistered.hpp" <<'EOF'
#include "ladder/integrand.hpp"
struct Unregistered {
  static constexpr std::string_view name = "unregistered";
  template <class T> T operator()(const T& x) const { return x; }
};
EOF
cat >"$outside/double_only.hpp" <<'EOF'
#include "ladder/integrand.hpp"
struct DoubleOnly {  // the references would be computed in double
  static constexpr std::string_view name = "double-only";
  double operator()(double x) const { return x * x; }
};
LADDER_INTEGRAND(DoubleOnly);
EOF
cat >"$outside/member_antiderivative.hpp" <<'EOF'
#include "ladder/integrand.hpp"
struct MemberAntiderivative {  // not static: the references would not find it
  static constexpr std::string_view name = "member-antiderivative";
  template <class T> T operator()(const T& x) const { return x * x; }
  template <class T> T antiderivative(const T& x) const { return x * x * x / 3; }
};
LADDER_INTEGRAND(MemberAntiderivative);
EOF
refused() {  # header, words the message must contain
  local header=$1 words=$2 log=$scratch/$(basename "$1").log
  "$cmake" -S "$source_dir" -B "$scratch/refused" "${options[@]}" "-DLADDER_USER_INTEGRANDS=$header" >"$log" 2>&1
  local status=$?
  rm -rf "$scratch/refused"
  [ $status -ne 0 ] || fail "a configuration with $header succeeded: $(tail -5 "$log")"
  local text
  text=$(tr -s ' \n' ' ' <"$log")
  grep -qF "$header" <<<"$text" || fail "the message for $header does not name it: $(tail -20 "$log")"
  grep -qF "$words" <<<"$text" || fail "the message for $header does not say '$words': $(tail -20 "$log")"
  if grep -q "variants/[a-z_]*\.cpp" "$log"; then fail "the message for $header points into a tier: $(cat "$log")"; fi
  echo "refused, naming the header: $header"
}
refused "$outside/broken_syntax.hpp" "does not compile for double and long double"
refused "$outside/broken_call.hpp" "no_such_function"
refused "$outside/unregistered.hpp" "registers no integrand"
refused "$outside/missing.hpp" "is not a header file"
refused "$outside/double_only.hpp" "computes in it"
refused "$outside/member_antiderivative.hpp" "its antiderivative must be static"

# ---- good headers, outside the repository -----------------------------------------------------------------
cat >"$outside/team.hpp" <<'EOF'
// A team's own functions, kept outside Ladder's repository.
#include "ladder/integrand.hpp"

// Smooth and SIMD-ready, with no antiderivative: its exact integral comes from Boost.Math's quadrature.
struct Softplus {
  static constexpr std::string_view name = "softplus";
  template <class T> T operator()(const T& x) const {
    using std::exp;
    using std::log;
    return log(1.0 + exp(x));
  }
};
LADDER_INTEGRAND(Softplus);

// Calls the scalar-only std::exp by its qualified name: it compiles for double and long double only.
struct ScalarExp {
  static constexpr std::string_view name = "scalar-exp";
  template <class T> T operator()(const T& x) const { return std::exp(-x) * x; }
};
LADDER_INTEGRAND(ScalarExp);

// Infinite at 0: a node lands there when n is odd on [-1, 1].
struct Reciprocal {
  static constexpr std::string_view name = "reciprocal";
  template <class T> T operator()(const T& x) const { return 1.0 / x; }
};
LADDER_INTEGRAND(Reciprocal);
EOF
build=$scratch/build
"$cmake" -S "$source_dir" -B "$build" "${options[@]}" "-DLADDER_USER_INTEGRANDS=$outside/team.hpp" \
  >"$scratch/configure.log" 2>&1 || fail "configuring with $outside/team.hpp failed: $(tail -30 "$scratch/configure.log")"
# The probes' control integrand ran for exactly the kinds that no integrand passed (a kind one passes works).
probes=$build/integrand_probes
passed() {  # passed KIND: an integrand's probe (N_KIND.rc, N its index) of that kind passed
  local rc name
  for rc in "$probes"/*_"$1".rc; do
    name=${rc##*/}
    [[ ${name%%_*} =~ ^[0-9]+$ ]] && [ "${name#*_}" = "$1.rc" ] && grep -qx 0 "$rc" && return 0
  done
  return 1
}
for rc in "$probes"/0_*.rc; do
  kind=${rc#"$probes"/0_}
  kind=${kind%.rc}
  if passed "$kind"; then
    [ ! -e "$probes/control_$kind.rc" ] || fail "the control ran for $kind, which an integrand passed"
  else
    grep -qx 0 "$probes/control_$kind.rc" || fail "no integrand passed $kind, and its control did not run and pass"
  fi
done
nice -n 10 "$cmake" --build "$build" --target ladder --parallel "$(nproc)" >"$scratch/build.log" 2>&1 ||
  fail "building with $outside/team.hpp failed: $(grep -m5 -A5 error "$scratch/build.log")"
ladder=$build/ladder
echo "built ladder with $outside/team.hpp"

"$ladder" list --integrands >"$scratch/list.txt" 2>&1 || fail "ladder list --integrands failed: $(cat "$scratch/list.txt")"
cat "$scratch/list.txt"
for name in softplus scalar-exp reciprocal gauss; do
  grep -q "$name" "$scratch/list.txt" || fail "list --integrands does not show $name"
done
grep -qF "$outside/team.hpp" "$scratch/list.txt" || fail "list --integrands does not say where softplus came from"

# The scalar-only function: the SIMD and Eigen tiers cannot take it (and say why); the scalar tiers run it.
if "$ladder" eval --tier xsimd --integrand scalar-exp >"$scratch/xsimd.txt" 2>&1; then
  fail "xsimd ran scalar-exp: $(cat "$scratch/xsimd.txt")"
fi
grep -q "cannot run integrand 'scalar-exp'" "$scratch/xsimd.txt" || fail "no reason from xsimd: $(cat "$scratch/xsimd.txt")"
grep -q "xsimd batches" "$scratch/xsimd.txt" || fail "the reason does not say what it failed on: $(cat "$scratch/xsimd.txt")"
for tier in naive streaming inlined std-algorithms autovec; do
  "$ladder" eval --tier $tier --integrand scalar-exp --n 1000 >"$scratch/$tier.txt" 2>&1 ||
    fail "$tier did not run scalar-exp: $(cat "$scratch/$tier.txt")"
done
echo "scalar-exp: xsimd refuses it with the reason; the scalar tiers run it"

# A run with the team's integrands beside gauss: every cell has its references and bound.
"$ladder" run --no-limits --preset quick --integrand gauss,softplus,scalar-exp --tiers naive,inlined,xsimd,eigen --n 1e4,1e5 \
  --no-instructions --out "$scratch/run" >"$scratch/run.log" 2>&1 || fail "ladder run failed: $(tail -30 "$scratch/run.log")"
python3 - "$scratch/run/results.json" <<'EOF' || fail "the results of the run are not as expected"
import json, sys
results = json.load(open(sys.argv[1]))
cells = {}
for entry in results["benchmarks"]:
    cells.setdefault((entry["tier"], entry["integrand"], entry["n"]), []).append(entry)
problems = []
for tier in ["naive", "inlined", "xsimd", "eigen"]:
    for integrand in ["gauss", "softplus", "scalar-exp"]:
        for n in [10000, 100000]:
            entries = cells.get((tier, integrand, n))
            if not entries:
                problems.append(f"no cell {tier}/{integrand}/{n}")
                continue
            for entry in entries:
                where = f"{tier}/{integrand}/{n}"
                if tier in ("xsimd", "eigen") and integrand == "scalar-exp":
                    if entry.get("status") != "unavailable" or "scalar-exp" not in entry.get("reason", ""):
                        problems.append(f"{where}: not unavailable with a reason: {entry.get('status')}")
                    continue
                if entry.get("status", "ok") != "ok":
                    problems.append(f"{where}: status {entry.get('status')}: {entry.get('reason')}")
                    continue
                for field in ["exact", "midpoint", "rel_error", "rounding_error", "rounding_bound"]:
                    if not isinstance(entry.get(field), (int, float)):
                        problems.append(f"{where}: no {field}")
                if entry.get("within_rounding_bound") is not True:
                    problems.append(f"{where}: outside its rounding bound")
print("\n".join(problems) or "every cell has its references and bound")
sys.exit(1 if problems else 0)
EOF

# Non-finite at a node: on [-1.5, 1.5] with 3 nodes the middle one is exactly 0 (the step is 1), in double
# and long double alike. The run completes, says so, and passes no error figure off as right.
"$ladder" run --no-limits --preset quick --integrand reciprocal --a -1.5 --b 1.5 --n 3 --tiers naive,inlined --no-instructions \
  --out "$scratch/reciprocal" >"$scratch/reciprocal.log" 2>&1 ||
  fail "the run of reciprocal failed: $(tail -20 "$scratch/reciprocal.log")"
grep -q "f is not finite at 1 of 3 nodes, first at x = 0" "$scratch/reciprocal.log" ||
  fail "no warning about the non-finite value at x = 0: $(tail -20 "$scratch/reciprocal.log")"
python3 - "$scratch/reciprocal/results.json" <<'EOF' || fail "the reciprocal cells pass a number off as right"
import json, sys
entries = [e for e in json.load(open(sys.argv[1]))["benchmarks"] if e["integrand"] == "reciprocal"]
assert entries, "no reciprocal cells"
for entry in entries:
    for field in ["rel_error", "rounding_error", "exact", "midpoint", "rounding_bound"]:
        assert entry.get(field) is None, f"{entry['name']}: {field} = {entry.get(field)}"
    assert entry.get("within_rounding_bound") is not True, f"{entry['name']}: within its rounding bound"
    assert any("not finite" in note for note in entry.get("reference_notes", [])), f"{entry['name']}: no note"
print(f"{len(entries)} reciprocal entries: no error figure, a note each")
EOF
echo "reciprocal on [-1.5, 1.5] with n = 3: warned, no error figure"
echo "PASS"
