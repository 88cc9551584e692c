#!/usr/bin/env bash
# `ladder export` as a team would use it: the tier exported into a temporary directory outside the
# repository, configured and built there with plain CMake and the Debian packages its card lists, its own
# tests run (ctest), and its function compared with `ladder eval` of the same tier, integrand, n and
# threads: the same bits where the tier gives them (serial tiers, one thread, --reproducible), otherwise
# within the rounding bound `ladder eval` states.
#   usage: export_build_test.sh LADDER TIER INTEGRAND [--python] [--outside HEADER]
#     --outside HEADER  export the integrand from a copy of HEADER in a directory outside the repository
#     --python          add the pybind11 module: its Python test (run by ctest) compares it with the C++
#     --refused WHY     the tier cannot run the integrand: the export exits 2 saying WHY, and writes nothing
set -uo pipefail
ladder=$1 tier=$2 integrand=$3
shift 3
python=() outside="" refused=""
while [ $# -gt 0 ]; do
  case $1 in
    --python) python=(--python) ;;
    --outside) outside=$2; shift ;;
    --refused) refused=$2; shift ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
  shift
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
ns=t_$(echo "$tier" | tr '-' '_')
requested=$integrand
if [ -n "$outside" ]; then
  mkdir -p "$scratch/team"
  cp "$outside" "$scratch/team/"
  requested=$scratch/team/$(basename "$outside")
fi
out=$scratch/export/$ns
if [ -n "$refused" ]; then
  message=$("$ladder" export "$tier" --integrand "$requested" --namespace "$ns" --out "$out" 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "ladder export $tier --integrand $requested exited $status, not 2: $message"
  case $message in *"$refused"*) ;; *) fail "the refusal does not say '$refused': $message" ;; esac
  [ ! -e "$out" ] && [ ! -e "$scratch/export" ] || fail "a refused export wrote $(ls -A "$scratch/export")"
  echo "PASS: $tier refuses $integrand: $message"
  exit 0
fi
"$ladder" export "$tier" --integrand "$requested" --namespace "$ns" --out "$out" "${python[@]}" ||
  fail "ladder export $tier --integrand $requested exited $?"
[ -f "$out/CMakeLists.txt" ] && [ -f "$out/include/$ns/midpoint.hpp" ] || fail "the export has no CMakeLists.txt or midpoint.hpp"
if grep -rlE '#include "(tier|registry|integrands)\.hpp"' "$out/include"; then fail "the export includes Ladder's own headers"; fi

start=$(date +%s%N)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$out" -B "$out/build" "${generator[@]}" -DPython_EXECUTABLE=/usr/bin/python3 >"$scratch/configure.log" 2>&1 ||
  { cat "$scratch/configure.log"; fail "configuring the export failed"; }
nice -n 10 cmake --build "$out/build" --parallel 2 >"$scratch/build.log" 2>&1 || { tail -50 "$scratch/build.log"; fail "building the export failed"; }
ctest --test-dir "$out/build" --output-on-failure >"$scratch/ctest.log" 2>&1 || { cat "$scratch/ctest.log"; fail "the export's own tests failed"; }
elapsed=$((($(date +%s%N) - start) / 100000000))  # tenths of a second (bash arithmetic: no bc on a fresh root)
echo "configure + build + test: $((elapsed / 10)).$((elapsed % 10)) s; $(grep -c 'Test #' "$scratch/ctest.log") test programs passed"
if [ ${#python[@]} -gt 0 ]; then grep -q "${ns}_python_test .*Passed" "$scratch/ctest.log" || fail "the Python test did not run and pass"; fi

# The same integral from `ladder eval` and from the exported function (its example program), where the tier
# can run here (a CUDA kernel without a GPU is built and its tests skip; nothing to compare: exit 77, skipped).
why=$("$ladder" list --json | /usr/bin/python3 -c "import json,sys; t=next(t for t in json.load(sys.stdin) if t['id']=='$tier'); print('' if t.get('available', True) else t.get('unavailable_reason', 'unavailable'))")
if [ -n "$why" ]; then
  echo "SKIPPED the comparison with ladder eval: the $tier tier cannot run on this machine ($why); built, its tests skipped"
  exit 77
fi
parallel=$("$ladder" list --json | /usr/bin/python3 -c "import json,sys; print(next(t['parallel'] for t in json.load(sys.stdin) if t['id']=='$tier'))")
reproducible=$("$ladder" list --json | /usr/bin/python3 -c "import json,sys; print(next(t['reproducible'] for t in json.load(sys.stdin) if t['id']=='$tier'))")
name=$(/usr/bin/python3 -c "import json; print(json.load(open('$out/.ladder-export.json'))['integrand'])")
compare() {  # a b n threads
  local a=$1 b=$2 n=$3 threads=$4 args=() flags=()
  [ "$parallel" = True ] && args=("$threads")
  [ "$reproducible" = "on request" ] && flags=(--reproducible) && args+=(reproducible)
  local exported evaluated
  exported=$("$out/build/${ns}_integrate" "$a" "$b" "$n" "${args[@]}" | cut -d' ' -f2) || fail "${ns}_integrate $a $b $n ${args[*]} failed"
  evaluated=$("$ladder" eval --tier "$tier" --integrand "$name" --a "$a" --b "$b" --n "$n" --threads "$threads" "${flags[@]}" --json) ||
    fail "ladder eval --tier $tier --integrand $name --n $n --threads $threads failed"
  /usr/bin/python3 - "$exported" "$evaluated" "$tier" "$n" "$threads" "$parallel" "$reproducible" <<'PY' || exit 1
import json, sys
exported = float.fromhex(sys.argv[1])
evaluation = json.loads(sys.argv[2])
tier, n, threads, parallel, reproducible = sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7]
# The same bits where the card promises them (always, or on request: asked for), else within the bound.
same_bits_expected = reproducible in ("always", "on request")
result = evaluation["result"]
if same_bits_expected:
    if exported.hex() != result.hex():
        sys.exit(f"FAIL: {tier} n={n} threads={threads}: export {exported.hex()} but ladder eval {result.hex()}")
    print(f"{tier} n={n} threads={threads}: the same bits, {exported.hex()}")
else:
    bound = evaluation["rounding_bound"]
    if abs(exported - result) > 2 * bound:
        sys.exit(f"FAIL: {tier} n={n} threads={threads}: |{exported!r} - {result!r}| > twice the bound {bound}")
    print(f"{tier} n={n} threads={threads}: within twice the rounding bound ({abs(exported - result):.1e} <= 2 x {bound:.1e})")
PY
}
for n in 1 1000 1000003; do compare 0 1 "$n" 1; done
compare -2 3 777777 1
if [ "$parallel" = True ]; then
  compare 0 1 1000003 2
  compare -2 3 4194304 3
fi
echo "PASS: $tier on $name exported, built, tested, and agrees with ladder eval"
