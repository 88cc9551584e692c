#!/usr/bin/env bash
# The tiers as an aarch64 build computes them, under qemu-user: the project cross-built twice with
# scripts/build-aarch64 (armv8-a: NEON; armv8.2-a+sve: NEON and SVE of any vector length), and the tier tests
# (the aarch64_tier_tests target: every tier × integrand × edge case against the references, the lanes of the
# SIMD tiers, each hot loop's vectorization from the aarch64 disassembly) run on three CPUs:
#   neon     the armv8-a build on a Cortex-A72 (NEON, no SVE)
#   sve256   the SVE build on qemu's `max` CPU with 256-bit vectors
#   sve512   the SVE build on qemu's `max` CPU with 512-bit vectors
# Each run tells the tests which CPU it asked for (LADDER_EXPECTED_SVE_BITS), so the lane checks have an
# oracle of their own. Emulation proves what the code computes and on which registers, not how fast.
# The edge case of a million nodes is left out unless asked for (--million-nodes runs it alone): its
# references are sums in 128-bit long double, software arithmetic on aarch64, about 10 minutes a CPU under
# emulation. BUILD_ROOT keeps both builds, so the next run is incremental. Skipped (77) where the cross
# toolchain is not installed and this user cannot install it (scripts/install-deps.sh --cross arm64 needs root).
#   usage: aarch64_tiers_test.sh SOURCE_DIR BUILD_ROOT [--million-nodes] [CPU …]   (default: neon sve256 sve512)
set -uo pipefail
source_dir=$1 build_root=$2
shift 2
filter=-*TiersAtAMillionNodes* suffix=""
if [ "${1:-}" = --million-nodes ]; then
  filter=*TiersAtAMillionNodes* suffix=-million-nodes
  shift
fi
cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(neon sve256 sve512)
fail() {
  echo "FAIL: $*"
  exit 1
}
if ! command -v qemu-aarch64-static >/dev/null || ! command -v aarch64-linux-gnu-g++ >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "skipped: the aarch64 cross toolchain and qemu-user are not installed (scripts/install-deps.sh --cross arm64, as root)"
    exit 77
  fi
fi

# Builds the tests for one -march into BUILD_ROOT/NAME, once for every CPU that runs them.
build() {
  local name=$1 arch=$2 start
  start=$(date +%s)
  "$source_dir/scripts/build-aarch64" --arch "$arch" --dir "$build_root/$name" aarch64_tier_tests \
    >"$build_root/$name.build.log" 2>&1 ||
    { grep -E 'error|FAILED|install-deps' "$build_root/$name.build.log" | head -40; fail "building $arch failed"; }
  echo "built the tier tests for $arch in $(($(date +%s) - start)) s ($build_root/$name.build.log)"
}

mkdir -p "$build_root"
status=0
built=""
for cpu in "${cpus[@]}"; do
  case "$cpu" in
    neon) build_name=neon arch=armv8-a qemu_cpu=cortex-a72 bits=0 ;;
    sve256) build_name=sve arch=armv8.2-a+sve qemu_cpu=max,sve256=on bits=256 ;;
    sve512) build_name=sve arch=armv8.2-a+sve qemu_cpu=max,sve512=on bits=512 ;;
    *) fail "unknown CPU '$cpu'; accepted: neon, sve256, sve512" ;;
  esac
  case " $built " in *" $build_name "*) ;; *) build "$build_name" "$arch"; built="$built $build_name" ;; esac

  log=$build_root/$cpu$suffix.log
  start=$(date +%s)
  QEMU_CPU=$qemu_cpu LADDER_EXPECTED_SVE_BITS=$bits qemu-aarch64-static \
    "$build_root/$build_name/tests/aarch64_tier_tests" --gtest_filter="$filter" >"$log" 2>&1
  result=$?
  grep -E '^\[  (FAILED|SKIPPED) \] [A-Z]' "$log" | sort -u | head -60
  ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$log")
  skipped=$(sed -nE 's/^\[  SKIPPED \] ([0-9]+) tests?, .*/\1/p' "$log")
  echo "$cpu ($arch on qemu -cpu $qemu_cpu): ${ran:-0} tests, ${skipped:-0} skipped, exit $result, $(($(date +%s) - start)) s ($log)"
  if [ "$result" -ne 0 ] || [ "${ran:-0}" -eq 0 ]; then status=1; fi
done
[ $status -eq 0 ] || fail "the aarch64 tier tests failed on at least one CPU (logs in $build_root)"
echo "PASS: the aarch64 tier tests on ${cpus[*]}"
