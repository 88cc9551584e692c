#!/usr/bin/env bash
# `ladder run --peers python` builds the compiled peers' modules where its build folder lacks them (issue 52:
# scripts/main --preset quick builds `ladder` alone, and the documented next run then called cython, pythran
# and cpp-extension unavailable). A copy of the ladder binary in a stand-in CMake build folder whose
# ladder_peers target only makes the three modules' folders and a mark:
#   - the first run builds the target (its line printed) and measures the numpy peer;
#   - a second run, the folders there, builds nothing;
#   - with LADDER_PEER_MODULES set (the user's folder), nothing is built.
#   usage: peer_modules_build_test.sh LADDER
set -uo pipefail
ladder=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
mkdir "$scratch/project"
cat >"$scratch/project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(stand_in NONE)
add_custom_target(ladder_peers
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/cython-peers ${CMAKE_BINARY_DIR}/pythran-peers
          ${CMAKE_BINARY_DIR}/python-extension/build/modules
  COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/built-by-ladder-run)
CMAKE
tree=$scratch/tree
cmake -S "$scratch/project" -B "$tree" >/dev/null || fail "cannot configure the stand-in build folder"
cp "$ladder" "$tree/ladder"
run() {  # run OUT: the numpy peer at n = 1e4, once
  "$tree/ladder" run --peers python --tiers numpy --n 1e4 --reps 1 --min-time 0.001 --no-history --no-instructions \
    --no-limits --out "$scratch/$1" 2>&1
}
out=$(run first)
grep -qF "building the compiled peers' modules: cmake --build $tree --target ladder_peers" <<<"$out" ||
  fail "the first run did not say it builds the modules: $out"
[ -f "$tree/built-by-ladder-run" ] || fail "the first run did not build ladder_peers"
grep -q "numpy/gauss/n:10000/threads:1: ok" <<<"$out" || fail "the first run did not measure numpy: $out"
rm "$tree/built-by-ladder-run"
out=$(run second)
! grep -q "building the compiled" <<<"$out" && [ ! -f "$tree/built-by-ladder-run" ] ||
  fail "the second run built the modules again: $out"
rm -r "$tree/cython-peers"
out=$(LADDER_PEER_MODULES=$scratch/elsewhere run third)
! grep -q "building the compiled" <<<"$out" && [ ! -f "$tree/built-by-ladder-run" ] ||
  fail "a run with LADDER_PEER_MODULES built the modules: $out"
echo "the peers' modules: built where missing, then left alone, and never over LADDER_PEER_MODULES"
