#!/usr/bin/env bash
# The tiers as an aarch64 build computes them, under qemu-user: the project cross-built twice with
# scripts/build-aarch64 (armv8-a: NEON; armv8.2-a+sve: NEON and SVE of any vector length), and the tier tests
# (the aarch64_tier_tests target: every tier × integrand × edge case against the references, the lanes of the
# SIMD tiers, each hot loop's vectorization from the aarch64 disassembly) run on three CPUs:
#   neon     the armv8-a build on a Cortex-A72 (NEON, no SVE)
#   sve256   the SVE build on qemu's `max` CPU with 256-bit vectors (the lanes, vectorization, tuned-exp and
#            new-rung suites; the tier × integrand × edge-case suite runs on the other two)
#   sve512   the SVE build on qemu's `max` CPU with 512-bit vectors
# Each run tells the tests which CPU it asked for (LADDER_EXPECTED_SVE_BITS), so the lane checks have an
# oracle of their own. Emulation proves what the code computes and on which registers, not how fast.
# The edge case of a million nodes is left out unless asked for (--million-nodes runs it alone): its
# references are sums in 128-bit long double, software arithmetic on aarch64, about 10 minutes a CPU under
# emulation. --exports LADDER runs, instead, `LADDER export` of the xsimd and highway tiers as a team would
# take them to an ARM machine: each project cross-built with the toolchain file (-march=armv8-a) and its own
# tests run by ctest under qemu (about 4 minutes each). --emulated-run TESTS cross-builds `ladder` itself
# (armv8-a, in BUILD_ROOT/neon) and runs TESTS (the x86-64 ladder_emulation_tests) filtered to
# EmulatedAarch64.*: `ladder run --preset quick` under qemu says it is emulated and its report ranks nothing
# (about 3 minutes to build, 3 to run), after `ladder eval --tier openmp --threads 2` under qemu with and
# without -L (eval_openmp_on_two_threads, below). BUILD_ROOT keeps the builds, so the next run is incremental.
# Skipped (77) where the cross toolchain is not installed and this user cannot install it
# (scripts/install-deps.sh --cross arm64 needs root).
#   usage: aarch64_tiers_test.sh SOURCE_DIR BUILD_ROOT [--million-nodes | --exports LADDER |
#                                                      --emulated-run TESTS] [CPU …]
#          (CPUs: neon, sve256, sve512; default all three)
set -uo pipefail
source_dir=$1 build_root=$2
shift 2
filter=-*TiersAtAMillionNodes* suffix="" ladder="" emulation_tests=""
if [ "${1:-}" = --million-nodes ]; then
  filter=*TiersAtAMillionNodes* suffix=-million-nodes
  shift
elif [ "${1:-}" = --exports ]; then
  ladder=$2
  shift 2
elif [ "${1:-}" = --emulated-run ]; then
  emulation_tests=$2
  shift 2
fi
cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(neon sve256 sve512)
fail() {
  echo "FAIL: $*"
  exit 1
}
if [ "$(uname -m)" = aarch64 ]; then
  echo "skipped: this machine is aarch64, where the build's own tests (ladder_tests) run these natively"
  exit 77
fi
if ! command -v qemu-aarch64-static >/dev/null || ! command -v aarch64-linux-gnu-g++ >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "skipped: the aarch64 cross toolchain and qemu-user are not installed (scripts/install-deps.sh --cross arm64, as root)"
    exit 77
  fi
fi

# Builds the tests (or TARGET) for one -march into BUILD_ROOT/NAME, once for every CPU that runs them.
build() {
  local name=$1 arch=$2 target=${3:-aarch64_tier_tests} start
  start=$(date +%s)
  nice -n 10 "$source_dir/scripts/build-aarch64" --arch "$arch" --dir "$build_root/$name" "$target" \
    >"$build_root/$name.build.log" 2>&1 ||
    { grep -E 'error|FAILED|install-deps' "$build_root/$name.build.log" | head -40; fail "building $arch failed"; }
  echo "built $target for $arch in $(($(date +%s) - start)) s ($build_root/$name.build.log)"
}

# `ladder export TIER`, cross-built and its own tests run under qemu on a NEON CPU.
export_and_test() {
  local tier=$1 out=$build_root/export/$1 start
  start=$(date +%s)
  rm -rf "$out"
  "$ladder" export "$tier" --integrand gauss --out "$out" >"$out.log" 2>&1 || fail "ladder export $tier: $(cat "$out.log")"
  cmake -S "$out" -B "$out/build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$source_dir/cmake/toolchain-aarch64.cmake" \
    -Dmidpoint_ARCH=armv8-a >>"$out.log" 2>&1 && cmake --build "$out/build" >>"$out.log" 2>&1 ||
    { tail -30 "$out.log"; fail "the exported $tier project does not cross-build for aarch64 ($out.log)"; }
  QEMU_CPU=cortex-a72 ctest --test-dir "$out/build" --output-on-failure >>"$out.log" 2>&1 ||
    { tail -30 "$out.log"; fail "the exported $tier project's tests fail under qemu ($out.log)"; }
  grep -qE '^100% tests passed, 0 tests failed out of [1-9]' "$out.log" || fail "the exported $tier project ran no test"
  echo "ladder export $tier: cross-built, its tests pass under qemu (cortex-a72), $(($(date +%s) - start)) s"
}

mkdir -p "$build_root"
if [ -n "$ladder" ]; then
  "$source_dir/scripts/install-deps.sh" --cross arm64 >/dev/null || fail "cannot install the cross toolchain"
  mkdir -p "$build_root/export"
  for tier in xsimd highway; do export_and_test "$tier"; done
  echo "PASS: the xsimd and highway exports on aarch64"
  exit 0
fi
# `ladder eval --tier openmp --threads 2` of the aarch64 build under qemu (issue 50), started the two ways
# a user may: as cmake/toolchain-aarch64.cmake does (the :arm64 multiarch glibc's loader), where it must
# answer on two threads, and with -L and the cross sysroot, whose loader can be another glibc build than
# the multiarch libc.so.6 it then finds: it answers, or refuses saying so (exit 3); it never hangs.
eval_openmp_on_two_threads() {
  local ladder=$1 output result
  output=$(timeout 120 qemu-aarch64-static "$ladder" eval --tier openmp --threads 2 --n 1e5 2>&1)
  result=$?
  [ $result -eq 0 ] && grep -qE '^n, threads +100000, 2$' <<<"$output" ||
    fail "eval --tier openmp --threads 2 under qemu: exit $result (124: it hung 120 s): $output"
  if [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
    output=$(timeout 120 qemu-aarch64-static -L /usr/aarch64-linux-gnu "$ladder" eval --tier openmp --threads 2 \
      --n 1e5 2>&1)
    result=$?
    { [ $result -eq 0 ] && grep -qE '^n, threads +100000, 2$' <<<"$output"; } ||
      { [ $result -eq 3 ] && grep -q 'two builds of glibc' <<<"$output"; } ||
      fail "eval --tier openmp --threads 2 under qemu -L /usr/aarch64-linux-gnu: exit $result (124: it hung 120 s): $output"
    echo "qemu -L /usr/aarch64-linux-gnu: eval --tier openmp --threads 2 exit $result: $(tail -c 300 <<<"$output")"
  fi
  echo "PASS: eval --tier openmp --threads 2 of the aarch64 build under qemu answers or says why not"
}

if [ -n "$emulation_tests" ]; then
  build neon armv8-a ladder
  eval_openmp_on_two_threads "$build_root/neon/ladder"
  log=$build_root/emulated-run.log
  start=$(date +%s)
  LADDER_AARCH64_LADDER=$build_root/neon/ladder "$emulation_tests" --gtest_filter='EmulatedAarch64.*' \
    >"$log" 2>&1
  result=$?
  # A skipped test exits 0 too: the one test must have passed.
  grep -q '^\[  PASSED  \] 1 test' "$log" && [ $result -eq 0 ] ||
    { tail -40 "$log"; fail "the emulated aarch64 quick run did not pass ($log)"; }
  echo "PASS: ladder run --preset quick of the aarch64 build under qemu, $(($(date +%s) - start)) s ($log)"
  exit 0
fi
# Both builds first, then the CPUs' runs side by side (emulation is one thread a run, so on a machine of
# several cores they take the time of the longest, not of all three), each reported once it is done.
status=0
built=""
declare -A pids started logs
for cpu in "${cpus[@]}"; do
  case "$cpu" in
    neon) build_name=neon arch=armv8-a ;;
    sve256 | sve512) build_name=sve arch=armv8.2-a+sve ;;
    *) fail "unknown CPU '$cpu'; accepted: neon, sve256, sve512" ;;
  esac
  case " $built " in *" $build_name "*) ;; *) build "$build_name" "$arch"; built="$built $build_name" ;; esac
done
# A run is a CPU, or a part of one: the SVE-512 run of every suite takes three times the others' emulated
# time, so it is split in two by GoogleTest's sharding (GTEST_TOTAL_SHARDS), which runs each test in exactly
# one part and keeps two cores busy until the end.
runs=()
for cpu in "${cpus[@]}"; do
  if [ "$cpu" = sve512 ]; then runs+=(sve512:0:2 sve512:1:2); else runs+=("$cpu:0:1"); fi
done
for run in "${runs[@]}"; do
  IFS=: read -r cpu shard shards <<<"$run"
  case "$cpu" in
    neon) build_name=neon qemu_cpu=cortex-a72 bits=0 ;;
    sve256) build_name=sve qemu_cpu=max,sve256=on bits=256 ;;
    sve512) build_name=sve qemu_cpu=max,sve512=on bits=512 ;;
  esac
  # SVE at 256 bits: the suites whose oracle is the vector length (the lanes, each hot loop's registers, the
  # tuned exp, the new rungs); every tier × integrand × edge case runs at NEON and at SVE-512, the same SVE
  # build (vector-length agnostic) at another length: 420 s of emulation here that the 512-bit run repeats.
  cpu_filter=$filter
  [ "$cpu" = sve256 ] && [ -z "$suffix" ] && cpu_filter="$filter:EveryTierAndIntegrand/TierCorrectness.*"
  log=$build_root/$cpu$suffix.log
  [ "$shards" -gt 1 ] && log=$build_root/$cpu$suffix.part$((shard + 1)).log
  started[$run]=$(date +%s)
  QEMU_CPU=$qemu_cpu LADDER_EXPECTED_SVE_BITS=$bits GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$shard \
    nice -n 10 qemu-aarch64-static "$build_root/$build_name/tests/aarch64_tier_tests" --gtest_filter="$cpu_filter" \
    >"$log" 2>&1 &
  pids[$run]=$!
  logs[$run]=$log
done
for run in "${runs[@]}"; do
  IFS=: read -r cpu shard shards <<<"$run"
  wait "${pids[$run]}"
  result=$?
  log=${logs[$run]}
  case "$cpu" in
    neon) arch=armv8-a qemu_cpu=cortex-a72 ;;
    sve256) arch=armv8.2-a+sve qemu_cpu=max,sve256=on ;;
    sve512) arch=armv8.2-a+sve qemu_cpu=max,sve512=on ;;
  esac
  part=""
  [ "$shards" -gt 1 ] && part=", part $((shard + 1)) of $shards"
  grep -E '^\[  FAILED  \] [A-Z]' "$log" | sed -E 's/ \([0-9]+ ms\)$//' | sort -u | head -40
  # Each skip's reason, once, with how many tests gave it.
  grep -A1 -E ': Skipped$' "$log" | grep -vE -- '^--$|: Skipped$' | sort | uniq -c | sed 's/^ */  skipped /'
  ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$log")
  skipped=$(sed -nE 's/^\[  SKIPPED \] ([0-9]+) tests?, .*/\1/p' "$log")
  echo "$cpu$part ($arch on qemu -cpu $qemu_cpu): ${ran:-0} tests, ${skipped:-0} skipped, exit $result, done $(($(date +%s) - started[$run])) s after its start ($log)"
  if [ "$result" -ne 0 ] || [ "${ran:-0}" -eq 0 ]; then status=1; fi
done
[ $status -eq 0 ] || fail "the aarch64 tier tests failed on at least one CPU (logs in $build_root)"
echo "PASS: the aarch64 tier tests on ${cpus[*]}"
