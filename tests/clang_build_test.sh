#!/usr/bin/env bash
# The tiers as Clang 16 builds them: the project configured with clang++-16 (the project's -Wall -Wextra
# -Werror included) into BUILD_DIR, the tier_correctness_test target built there (the tiers, the harness's
# references and the test, nothing else), and every one of its tests run. A tier Clang compiles into a wrong
# answer fails here as it would in the GCC build. The autovec tier must also reach glibc's vector exp: Clang
# calls it only under -fveclib=libmvec (CMakeLists.txt), and without it the loop calls scalar exp.
# BUILD_DIR is kept, so the next run is incremental. Skipped (77) where clang++-16 is not installed.
#   usage: clang_build_test.sh SOURCE_DIR BUILD_DIR CMAKE [LADDER_ARCH]
set -uo pipefail
source_dir=$1 build_dir=$2 cmake=$3 arch=${4:-native}
compiler=clang++-16
fail() {
  echo "FAIL: $*"
  exit 1
}
if ! command -v "$compiler" >/dev/null; then
  echo "skipped: $compiler is not installed (scripts/install-deps.sh installs clang-16 and libomp-16-dev)"
  exit 77
fi

start=$(date +%s)
mkdir -p "$build_dir"
generator=()
[ -f "$build_dir/CMakeCache.txt" ] || { command -v ninja >/dev/null && generator=(-G Ninja); }
"$cmake" -S "$source_dir" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$compiler" -DLADDER_ARCH="$arch" -DLADDER_PROFILING=OFF -DLADDER_PYTHON_EXTENSION=OFF \
  >"$build_dir/configure.log" 2>&1 || { tail -40 "$build_dir/configure.log"; fail "configuring with $compiler failed"; }
grep -qE "^CMAKE_CXX_COMPILER:[A-Z]+=.*clang\+\+-16$" "$build_dir/CMakeCache.txt" ||
  fail "$build_dir is not configured with $compiler: $(grep '^CMAKE_CXX_COMPILER:' "$build_dir/CMakeCache.txt")"
nice -n 10 "$cmake" --build "$build_dir" --target tier_correctness_test --parallel "$(nproc)" >"$build_dir/build.log" 2>&1 ||
  { grep -E 'error|FAILED' "$build_dir/build.log" | head -40; fail "building tier_correctness_test with $compiler failed"; }
built=$(date +%s)
echo "configured and built with $compiler in $((built - start)) s ($build_dir/build.log)"
# Clang's warnings that -Wno-error keeps as warnings, so they show here rather than only in the log.
grep -E 'warning:' "$build_dir/build.log" | sort -u | head -20

autovec=$(find "$build_dir" -path '*ladder_tiers.dir*' -name 'autovec.cpp.o' | head -1)
[ -n "$autovec" ] || fail "no autovec object in $build_dir"
vector_exp=$(nm -u "$autovec" | grep -oE '_ZGV[a-z]N[0-9]+v_exp\b' | sort -u | tr '\n' ' ')
[ -n "$vector_exp" ] || fail "the Clang build's autovec calls no vector exp (was -fveclib=libmvec dropped?)"
echo "autovec calls libmvec's $vector_exp"

log=$build_dir/tier_correctness_test.log
"$build_dir/tests/tier_correctness_test" >"$log" 2>&1
status=$?
grep -E '^\[  (FAILED|SKIPPED) ' "$log" | sort -u | head -40
tail -4 "$log"
[ $status -eq 0 ] || fail "tier_correctness_test built with $compiler exited $status ($log)"
ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$log")
[ "${ran:-0}" -gt 0 ] || fail "tier_correctness_test ran no test"
echo "PASS: $ran tier tests built with $compiler in $((built - start)) s, run in $(($(date +%s) - built)) s"
