#!/usr/bin/env bash
# Builds as a dimension of the matrix (`ladder run --compilers … --arch …`, harness/builds/builds.hpp), end to end:
#   - bad input (an unknown compiler or target, a compiler that is not installed, a build that fails to
#     configure) exits 2 before any cell, naming the value, and writes no results directory;
#   - a failed build leaves no worker a later run would use;
#   - a real build (GCC for x86-64-v2, beside the build at hand) is compiled, every cell records its build,
#     xsimd there runs on SSE registers (2 lanes) while the build at hand's own reading is kept for its
#     cells, and a second run reuses the build, saying so;
#   - the build carries the run's tiers alone, and a later run of a tier it lacks adds that one, compiling
#     none it had;
#   - `ladder plan` counts the build, and `ladder list --builds` shows it built.
# The builds go to a scratch folder, removed at the end: every run starts from no build (a kept one would
# carry the tiers the last run added).
#   usage: builds_run_test.sh LADDER
set -uo pipefail
ladder=$1
scratch=$(mktemp -d)
builds=$scratch/builds
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
# The build carries the run's tiers, not every tier.
tiers_of_build() {
  "$ladder" list --builds --json | /usr/bin/python3 -c "import json, sys
print(','.join(next(b for b in json.load(sys.stdin) if b['id'] == '$compiler-x86-64-v2')['tiers']))"
}
[ "$(tiers_of_build)" = dispatch,naive,xsimd ] || fail "the build carries '$(tiers_of_build)', not dispatch,naive,xsimd"
"$ladder" run --compilers "$compiler" --arch native,x86-64-v2 --tiers naive "${quick[@]}" --out "$scratch/second" \
  >"$scratch/second.log" 2>&1 || fail "the second run failed: $(tail -30 "$scratch/second.log")"
grep -q "build $compiler-x86-64-v2: reused: up to date, no recompilation" "$scratch/second.log" ||
  fail "the second run did not reuse the build: $(cat "$scratch/second.log")"
# A tier the build lacks: the plan says so, and the run adds it, compiling that tier and none it had.
"$ladder" plan --compilers "$compiler" --arch x86-64-v2 --tiers inlined --n 1e5 --reps 1 --min-time 0.01 \
  --no-instructions >"$scratch/plan-inlined.log" 2>&1
grep -q "built with tiers dispatch, naive, xsimd, not all of tiers inlined: adding them takes at most" \
  "$scratch/plan-inlined.log" || fail "ladder plan does not say the build lacks inlined: $(cat "$scratch/plan-inlined.log")"
"$ladder" run --compilers "$compiler" --arch x86-64-v2 --tiers inlined "${quick[@]}" --out "$scratch/third" \
  >"$scratch/third.log" 2>&1 || fail "the run of a tier the build lacked failed: $(tail -30 "$scratch/third.log")"
grep -q "build $compiler-x86-64-v2 (.*): adding what it lacks of tiers inlined (it had tiers dispatch, naive, xsimd)" \
  "$scratch/third.log" || fail "the third run did not say it adds inlined: $(cat "$scratch/third.log")"
grep -q "variants/inlined.cpp" "$builds/$compiler-x86-64-v2/build.log" || fail "the build did not compile inlined.cpp"
if grep -qE "variants/(naive|xsimd)\.cpp" "$builds/$compiler-x86-64-v2/build.log"; then
  fail "adding inlined compiled a tier the build had: $(grep -E 'variants/' "$builds/$compiler-x86-64-v2/build.log")"
fi
[ "$(tiers_of_build)" = dispatch,inlined,naive,xsimd ] || fail "the build now carries '$(tiers_of_build)'"
/usr/bin/python3 -c "import json, sys
cells = json.load(open(sys.argv[1]))['cells']
assert cells and all(c['status'] == 'ok' and c['cell']['tier'] == 'inlined' for c in cells), cells" \
  "$scratch/third/results.json" || fail "the inlined cells of the widened build are not ok"
echo "a build carries the run's tiers; a run that wants one it lacks adds that tier alone"
"$ladder" plan --compilers "$compiler" --arch x86-64-v2 --tiers naive --n 1e5 --reps 1 --min-time 0.01 --no-instructions >"$scratch/plan.log" 2>&1
grep -q "building" "$scratch/plan.log" || fail "ladder plan does not count the build: $(cat "$scratch/plan.log")"
"$ladder" list --builds | grep -A4 "^$compiler-x86-64-v2" | grep -q "built" ||
  fail "ladder list --builds does not show $compiler-x86-64-v2 built: $("$ladder" list --builds)"
echo "a build compiled once and reused; every cell records its build; plan counts it; list --builds shows it"
