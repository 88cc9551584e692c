#!/usr/bin/env bash
# `ladder ab` end to end, through the command line, on a clone of this checkout:
#   - bad input exits 2 before any cell, naming the bad value, and leaves nothing behind (no worker, no
#     summary file): an unknown revision, a directory that is no git checkout, --base the working tree while
#     it has uncommitted changes, an out-of-range --max-pairs; the options it shares with `run`, refused
#     in run's very words;
#   - a revision that does not build (its CMakeLists.txt fails on purpose) exits 2 with its log's path and
#     first error, and no worker is left in place;
#   - an A/A run of the tree this binary was built from uses the build at hand (nothing is built), writes
#     the JSON, the Markdown summary and Bencher's format, records each cell's noise floor in the history,
#     and a second A/A then reads it as its threshold. This part needs the binary built from a clean commit:
#     built from uncommitted changes, it is reported skipped (exit 77) with that reason.
#   usage: ab_cli_test.sh LADDER SOURCE_DIR
set -uo pipefail
ladder=$1 source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export LADDER_BUILDS_DIR=$scratch/builds
fail() {
  echo "FAIL: $*"
  exit 1
}
git clone -q "$source" "$scratch/repo" || fail "cannot clone $source"
repo=$scratch/repo
quick=(--tiers inlined --n 1e5 --threads 1 --reps 1 --min-time 0.005 --history "$scratch/history.sqlite")

refused() {  # refused WORDS ARGS…: exit 2, the words said, nothing written
  local words=$1
  shift
  message=$("$ladder" ab "$@" "${quick[@]}" --summary "$scratch/summary.md" 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "ladder ab $* exited $status, not 2: $message"
  grep -qF -- "$words" <<<"$message" || fail "ladder ab $* did not say '$words': $message"
  [ ! -e "$scratch/summary.md" ] || fail "ladder ab $* wrote a summary"
  [ ! -e "$scratch/history.sqlite" ] || fail "ladder ab $* wrote a history database"
  if [ -d "$scratch/builds" ] && find "$scratch/builds" -path '*/ready/*' | grep -q .; then
    fail "ladder ab $* left a worker in place"
  fi
}
refused "unknown revision 'no-such-branch'" --repo "$repo" --base no-such-branch
refused "unknown revision 'HEAD~999999'" --repo "$repo" --base HEAD --head HEAD~999999
mkdir -p "$scratch/not-git"
refused "is not in a git checkout" --repo "$scratch/not-git" --base HEAD
refused "--max-pairs 3 is out of range" --repo "$repo" --base HEAD --max-pairs 3
refused "a = 'abc' is not a finite number" --repo "$repo" --base HEAD --a abc
refused "b = 'nan' is not a finite number" --repo "$repo" --base HEAD --b nan
# The options ab shares with run are run's declarations: the same value is refused in the same words.
for option in "--min-time 200" "--reps 0" "--threads 0" "--n 7x"; do
  said_by_run=$("$ladder" run $option --out "$scratch/run-out" 2>&1)
  said_by_ab=$("$ladder" ab --repo "$repo" --base HEAD $option 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "ladder ab $option exited $status, not 2: $said_by_ab"
  [ "$said_by_ab" = "$said_by_run" ] || fail "ab and run refuse $option differently: '$said_by_ab' / '$said_by_run'"
  [ ! -e "$scratch/run-out" ] && [ ! -e "$scratch/history.sqlite" ] || fail "$option: something was written"
done
echo "an uncommitted change" >>"$repo/README.md"
refused "both the working tree, which has uncommitted changes" --repo "$repo" --base .
refused "--base . is the working tree, which has uncommitted changes" --repo "$repo" --base . --head HEAD
git -C "$repo" checkout -q -- README.md
# Outputs that cannot be written, or that would replace a file Ladder did not write: refused before any cell.
echo '{"mine": true}' >"$scratch/notes.json"
for output in "--summary $scratch:is a directory" "--bmf $scratch/notes.json:not Bencher metric format"; do
  option=${output%%:*} words=${output#*:}
  message=$("$ladder" ab --repo "$repo" --base HEAD "${quick[@]}" $option 2>&1)
  status=$?
  [ $status -eq 2 ] && grep -qF -- "$words" <<<"$message" || fail "ab $option: exit $status, not 2 saying '$words': $message"
  [ ! -e "$scratch/history.sqlite" ] || fail "ab $option measured before refusing it"
done
[ "$(cat "$scratch/notes.json")" = '{"mine": true}' ] || fail "--bmf replaced a file Ladder did not write"
echo "bad input: each refused with exit 2, naming the value, before any cell, nothing written"

# A revision that does not build.
git -C "$repo" checkout -q -b broken
# At the top: a worker-only build returns before the end of the file.
sed -i '1a message(FATAL_ERROR "broken on purpose by ab_cli_test.sh")' "$repo/CMakeLists.txt"
git -C "$repo" -c user.name=test -c user.email=test@example.invalid commit -q -am "broken on purpose"
refused "failed to configure" --repo "$repo" --base broken --head broken
refused "broken on purpose by ab_cli_test.sh" --repo "$repo" --base broken --head broken
refused "build.log" --repo "$repo" --base broken --head broken
ls "$scratch"/builds/rev-*/build.log >/dev/null 2>&1 || fail "the failed build's log is not kept"
git -C "$repo" checkout -q -
echo "a revision that does not build: exit 2, its log and first error named, no worker left"

# An A/A run of the build at hand.
if [ -n "$(git -C "$source" status --porcelain --untracked-files=no)" ]; then
  echo "SKIP: the checkout this ladder was built from has uncommitted changes, so an A/A of its HEAD would build a worker (minutes) instead of using the build at hand"
  exit 77
fi
commit=$(git -C "$source" rev-parse HEAD)
# The base by a branch name that is not UTF-8 (git allows one): --json still writes (issue 50, T5-12).
odd=$(printf 'caf\xe9')
git -C "$repo" branch -f "$odd" "$commit" 2>/dev/null || fail "cannot make the branch $odd"
if ! "$ladder" ab --repo "$repo" --base "$odd" --head "$commit" "${quick[@]}" --pairs 12 --json \
  --summary "$scratch/summary.md" --bmf "$scratch/bmf.json" >"$scratch/aa.json" 2>"$scratch/aa.err"; then
  fail "the A/A run failed: $(cat "$scratch/aa.err")"
fi
if find "$scratch/builds" -path '*/ready/*' 2>/dev/null | grep -q .; then
  fail "the A/A of the commit this ladder was built from built a worker instead of using the build at hand"
fi
python3 - "$scratch/aa.json" "$scratch/bmf.json" "$scratch/summary.md" <<'PY' || fail "the A/A's outputs"
import json, sys
result = json.load(open(sys.argv[1]))  # stdout holds the JSON alone
assert result["base"]["tree"] == result["head"]["tree"], result
assert "caf\ufffd" in json.dumps(result["base"], ensure_ascii=False), result["base"]  # the byte replaced
cells = result["cells"]
assert len(cells) == 1 and cells[0]["tier"] == "inlined" and cells[0]["n"] == 100000, cells
cell = cells[0]
assert cell["pairs"] == 12 and cell["low"] <= cell["ratio"] <= cell["high"], cell
assert cell["verdict"] in ("no change", "undecided"), cell
bmf = json.load(open(sys.argv[2]))
entry = bmf["inlined/gauss/n:100000/threads:1"]["ratio"]
assert entry["lower_value"] <= entry["value"] <= entry["upper_value"], bmf
assert "inlined/gauss" in open(sys.argv[3]).read()
PY
"$ladder" ab --repo "$repo" --base "$commit" --head "$commit" "${quick[@]}" --pairs 12 >"$scratch/aa2.txt" 2>&1 ||
  fail "the second A/A run failed: $(cat "$scratch/aa2.txt")"
grep -q "this machine's noise floor" "$scratch/aa2.txt" ||
  fail "the second A/A did not take the first one's noise floor as its threshold: $(cat "$scratch/aa2.txt")"
echo "A/A of the build at hand: JSON, summary and BMF written, the noise floor recorded and read back"
