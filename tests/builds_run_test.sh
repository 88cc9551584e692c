#!/usr/bin/env bash
# Builds as a dimension of the matrix (`ladder run --compilers … --arch …`, harness/builds/builds.hpp), end to end:
#   - bad input (an unknown compiler or target, a compiler that is not installed, a build that fails to
#     configure) exits 2 before any cell, naming the value, and writes no results directory;
#   - a failed build leaves no worker a later run would use;
#   - a real build (GCC for x86-64-v2, beside the build at hand) is compiled, every cell records its build,
#     xsimd there runs on SSE registers (2 lanes) while the build at hand's own reading is kept for its
#     cells, and a second run reuses the build, saying so;
#   - `ladder plan` counts the build, and `ladder list --builds` shows it built.
# The builds go to BUILDS (kept between runs, so a second ctest run only checks them).
#   usage: builds_run_test.sh LADDER BUILDS
set -uo pipefail
ladder=$1 builds=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
quick=(--n 1e5 --reps 1 --min-time 0.01 --no-instructions --no-history --no-limits)

refused() {  # refused WORDS ARGS…: exit 2, the words said, no results directory
  local words=$1
  shift
  message=$(PATH=${RUN_PATH:-$PATH} LADDER_BUILDS_DIR=$scratch/bad-builds "$ladder" run "$@" --tiers naive "${quick[@]}" --out "$scratch/refused" 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "ladder run $* exited $status, not 2: $message"
  grep -q -- "$words" <<<"$message" || fail "ladder run $* did not say '$words': $message"
  [ ! -e "$scratch/refused" ] || fail "ladder run $* left a results directory"
}
refused "unknown compiler 'icc'; accepted: gcc, clang" --compilers icc
refused "unknown target 'x86-64-v9' for --arch; accepted: native, x86-64-v4, x86-64-v3, x86-64-v2, x86-64" --arch x86-64-v9
# No clang on PATH: named with its Debian package.
mkdir -p "$scratch/bin"
ln -s "$(command -v cmake)" "$scratch/bin/cmake"
RUN_PATH=$scratch/bin refused "compiler 'clang' is not installed" --compilers clang
RUN_PATH=$scratch/bin refused "install Debian's clang-16" --compilers clang
# A compiler that fails: the configure fails, the message names the log and its first error.
cat >"$scratch/bin/clang++-16" <<'FAKE'
#!/bin/sh
echo "error: this compiler refuses everything (a test's stand-in)" >&2
exit 1
FAKE
chmod +x "$scratch/bin/clang++-16"
RUN_PATH=$scratch/bin:$PATH refused "build clang-native failed to configure" --compilers clang
RUN_PATH=$scratch/bin:$PATH refused "$scratch/bad-builds/clang-native/build.log" --compilers clang
[ ! -e "$scratch/bad-builds/clang-native/ready/ladder-worker" ] || fail "a failed build left a worker in place"
echo "bad input: each refused with exit 2, before any cell, with no results directory"

# A real build beside the build at hand.
here=$("$ladder" list --builds --json | sed -n 's/.*"id": "\(.*\)".*/\1/p' | head -1)
compiler=${here%%-*}
export LADDER_BUILDS_DIR=$builds
"$ladder" run --compilers "$compiler" --arch native,x86-64-v2 --tiers naive,xsimd,dispatch "${quick[@]}" \
  --out "$scratch/first" >"$scratch/first.log" 2>&1 || fail "the first run failed: $(tail -30 "$scratch/first.log")"
/usr/bin/python3 - "$scratch/first/results.json" "$compiler" <<'PY' || fail "the cells' builds are wrong"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
compiler = sys.argv[2]
builds = {c["cell"].get("build") for c in cells}
assert builds == {compiler + "-native", compiler + "-x86-64-v2"}, builds
for c in cells:
    assert c["status"] == "ok", (c["name"], c["status"], c.get("reason"))
    record = c["build"]
    assert record["id"] == c["cell"]["build"], (c["name"], record)
    assert c["name"].endswith("/build:" + record["id"]), c["name"]
    assert ("-march=" + record["target"]) in record["flags"], record
    if c["cell"]["tier"] == "xsimd" and record["target"] == "x86-64-v2":
        assert record["lanes"] == 2, record  # SSE: what xsimd falls back to at x86-64-v2
        assert "sse" in record["instruction_set"], record
    if c["cell"]["tier"] == "dispatch":  # compiled for the baseline in both builds, the path chosen at run time
        assert "-march=x86-64 " in record["flags"] + " ", record
print("every cell records its build")
PY
"$ladder" run --compilers "$compiler" --arch native,x86-64-v2 --tiers naive "${quick[@]}" --out "$scratch/second" \
  >"$scratch/second.log" 2>&1 || fail "the second run failed: $(tail -30 "$scratch/second.log")"
grep -q "build $compiler-x86-64-v2: reused: up to date, no recompilation" "$scratch/second.log" ||
  fail "the second run did not reuse the build: $(cat "$scratch/second.log")"
"$ladder" plan --compilers "$compiler" --arch x86-64-v2 --tiers naive --n 1e5 --reps 1 --min-time 0.01 --no-instructions >"$scratch/plan.log" 2>&1
grep -q "building" "$scratch/plan.log" || fail "ladder plan does not count the build: $(cat "$scratch/plan.log")"
"$ladder" list --builds | grep -A4 "^$compiler-x86-64-v2" | grep -q "built" ||
  fail "ladder list --builds does not show $compiler-x86-64-v2 built: $("$ladder" list --builds)"
echo "a build compiled once and reused; every cell records its build; plan counts it; list --builds shows it"
