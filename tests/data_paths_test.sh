#!/usr/bin/env bash
# The committed sample runs (data/) name their files relative to themselves: no absolute path of the machine
# that made them (its scratch folder, its checkout, a home) is left in any file. scripts/reference-run strips
# them before it packs a run; this check fails, naming the file and line, on one it missed.
#   usage: data_paths_test.sh DATA_DIR | --self-test
set -euo pipefail
pattern='(^|[^A-Za-z0-9_.~-])/(tmp|work|home|root|var/tmp|scratch)/'
check() {
  if grep -rnIE "$pattern" "$1" | cut -c1-200; then
    echo "FAIL: absolute paths of the machine above (scripts/reference-run strips them; strip these the same way)"
    return 1
  fi
  echo "ok: no absolute machine path under $1"
}
if [ "${1:-}" = --self-test ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  printf 'results: ranks/results.json\n' >"$tree/clean.txt"
  check "$tree" >/dev/null || { echo "FAIL: a clean file was flagged"; exit 1; }
  printf '{"command_line":"/work/main/build/ladder run"}\n' >"$tree/journal.jsonl"
  if check "$tree" >/dev/null; then echo "FAIL: the planted /work/main path was not found"; exit 1; fi
  echo "ok: the planted path is found"
  exit 0
fi
check "${1:?usage: data_paths_test.sh DATA_DIR | --self-test}"
