#!/usr/bin/env bash
# The build's line counter counts lines with code and skips blank lines and comments of both kinds.
#   usage: count_lines_test.sh COUNT_LINES_BINARY FIXTURE
set -euo pipefail
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" "$out" "$2|$2|-fflag"
expected='{"count_lines_sample.cpp", 6, {"count_lines_sample.cpp"}, 6, {"-fflag"}}'
if grep -qF "$expected" "$out"; then
  echo "counted as expected: $expected"
else
  echo "expected $expected, got:" >&2
  cat "$out" >&2
  exit 1
fi
