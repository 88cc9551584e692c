#!/usr/bin/env bash
# cmake/source_state.cmake, which every build runs: the checkout's git commit, branch and dirty flag and each
# tier file's SHA-256, written as C++ only when they change (nothing relinks otherwise); "unknown" in a
# checkout that is not a git repository of its own (a tarball, even unpacked inside another repository).
#   usage: tests/source_state_test.sh SOURCE_DIR CMAKE
set -uo pipefail
source_dir=$1 cmake=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
git=$(command -v git) || { echo "git is not installed"; exit 77; }
state() {  # state CHECKOUT: runs the script on CHECKOUT's two tier files into $scratch/state.cpp
  "$cmake" -DSOURCE_DIR="$1" -DOUTPUT="$scratch/state.cpp" "-DFILES=variants/b.cpp|variants/a.cpp|variants/a.cpp" \
    -DGIT="$git" -P "$source_dir/cmake/source_state.cmake" || fail "the script failed on $1"
}
sha() { sha256sum "$1" | cut -d' ' -f1; }

# A tarball: no repository.
mkdir -p "$scratch/tarball/variants"
echo 'int a;' >"$scratch/tarball/variants/a.cpp"
echo 'int b;' >"$scratch/tarball/variants/b.cpp"
state "$scratch/tarball"
cat "$scratch/state.cpp"
grep -q 'state{"unknown", "unknown", "unknown", {' "$scratch/state.cpp" || fail "a tarball's git state is not unknown"
grep -q "{\"variants/a.cpp\", \"$(sha "$scratch/tarball/variants/a.cpp")\"}" "$scratch/state.cpp" ||
  fail "variants/a.cpp's SHA-256 is not recorded"
[ "$(grep -c 'variants/a.cpp' "$scratch/state.cpp")" -eq 1 ] || fail "a file named twice is listed twice"

# The same tarball unpacked inside another repository: still unknown (not the outer repository's state).
mkdir -p "$scratch/outer"
"$git" -C "$scratch/outer" init -q
mv "$scratch/tarball" "$scratch/outer/tarball"
state "$scratch/outer/tarball"
grep -q 'state{"unknown", "unknown", "unknown", {' "$scratch/state.cpp" || fail "a tarball inside a repository took its state"

# A repository of its own: commit, branch, clean; then dirty with the new hash; unchanged text, same file.
repo="$scratch/repo"
mkdir -p "$repo/variants"
echo 'int a;' >"$repo/variants/a.cpp"
echo 'int b;' >"$repo/variants/b.cpp"
"$git" -C "$repo" init -q -b trunk
"$git" -C "$repo" add variants
"$git" -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm one
head=$("$git" -C "$repo" rev-parse HEAD)
state "$repo"
grep -q "state{\"$head\", \"trunk\", \"no\", {" "$scratch/state.cpp" || fail "a clean checkout's commit, branch or flag is wrong"
before=$(stat -c %y "$scratch/state.cpp")
sleep 1
state "$repo"
[ "$(stat -c %y "$scratch/state.cpp")" = "$before" ] || fail "the file was rewritten though nothing changed"
echo 'int a = 1;' >"$repo/variants/a.cpp"
state "$repo"
grep -q "state{\"$head\", \"trunk\", \"yes\", {" "$scratch/state.cpp" || fail "an edited tier did not make the checkout dirty"
grep -q "{\"variants/a.cpp\", \"$(sha "$repo/variants/a.cpp")\"}" "$scratch/state.cpp" ||
  fail "the edited tier's new SHA-256 is not recorded"
echo "ok"
