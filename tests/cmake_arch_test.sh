#!/usr/bin/env bash
# LADDER_ARCH is checked when CMake configures: a value that is not one of the targets Ladder builds for
# stops the configure with a message naming the value and the accepted ones; an accepted value passes.
#   usage: tests/cmake_arch_test.sh SOURCE_DIR CMAKE
set -uo pipefail
source_dir=$1 cmake=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cmake" -S "$source_dir" -B "$scratch/bad" -G Ninja -DLADDER_ARCH=x86-64-v9 >"$scratch/bad.log" 2>&1
status=$?
cat "$scratch/bad.log"
[ $status -ne 0 ] || fail "LADDER_ARCH=x86-64-v9 configured (exit 0)"
tr -s ' \n' ' ' <"$scratch/bad.log" |
  grep -q 'LADDER_ARCH="x86-64-v9" is not a target Ladder builds for; accepted: native, x86-64-v4, x86-64-v3, x86-64-v2, x86-64' ||
  fail "no message naming x86-64-v9 and the accepted targets"

# The accepted value configures the project without what does not depend on it: the example integrands' probes
# (a hundred compile-and-run steps, 100 s of this test on a 2-core root), the profiling build, the peers' modules
# and the tests.
"$cmake" -S "$source_dir" -B "$scratch/good" -G Ninja -DLADDER_ARCH=x86-64-v2 -DLADDER_EXAMPLE_INTEGRANDS=OFF \
  -DLADDER_PROFILING=OFF -DLADDER_TESTS=OFF -DLADDER_PYTHON_EXTENSION=OFF -DLADDER_CYTHON=OFF \
  -DLADDER_PYTHRAN_PEERS=OFF >"$scratch/good.log" 2>&1
status=$?
grep -q "is not a target" "$scratch/good.log" && fail "LADDER_ARCH=x86-64-v2 was refused: $(cat "$scratch/good.log")"
[ $status -eq 0 ] || fail "LADDER_ARCH=x86-64-v2 did not configure: $(tail -20 "$scratch/good.log")"

# A cross build for aarch64 (cmake/toolchain-aarch64.cmake) accepts the ARM targets, and refuses an x86 one
# with them; only where the cross compiler is installed (scripts/install-deps.sh --cross arm64).
if command -v aarch64-linux-gnu-g++ >/dev/null; then
  "$cmake" -S "$source_dir" -B "$scratch/arm" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$source_dir/cmake/toolchain-aarch64.cmake" \
    -DLADDER_ARCH=x86-64-v3 >"$scratch/arm.log" 2>&1 && fail "an aarch64 build configured for LADDER_ARCH=x86-64-v3"
  tr -s ' \n' ' ' <"$scratch/arm.log" |
    grep -q 'LADDER_ARCH="x86-64-v3" is not a target Ladder builds for; accepted: armv8-a, armv8.2-a+sve, neoverse-v1, native' ||
    fail "the aarch64 build's refusal does not name x86-64-v3 and the ARM targets: $(tail -20 "$scratch/arm.log")"
  echo "aarch64: x86-64-v3 refused with the ARM targets"
fi
echo "LADDER_ARCH: x86-64-v9 refused with its name and the accepted targets; x86-64-v2 configures"
