#!/usr/bin/env bash
# The build's line counter counts lines with code and skips blank lines and comments of both kinds. A tier's
# source_lines are its kernel header's (given as it is, and shown on the card as given); a tier given no
# kernel has its own file counted; an entry without its four fields is refused.
#   usage: count_lines_test.sh COUNT_LINES_BINARY FIXTURE
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out.cpp
tier=$work/tier.cpp
printf '// a card\n#include "kernels/tier.hpp"\n\nint registration = 0;\n' >"$tier"  # 2 lines of code

expect() {  # expect ENTRY LINE
  "$COUNT_LINES" "$out" "$1"
  if grep -qF "$2" "$out"; then
    echo "counted as expected: $2"
  else
    echo "for '$1' expected $2, got:" >&2
    cat "$out" >&2
    exit 1
  fi
}
COUNT_LINES=$1
# The kernel's lines, not the tier file's.
expect "$tier|$2|$2|-fflag" "{\"tier.cpp\", \"$2\", 6, {\"count_lines_sample.cpp\"}, 6, {\"-fflag\"}}"
# No kernel: the tier file's own lines.
expect "$tier|||" '{"tier.cpp", "", 2, {}, 0, {}}'
# An entry in the old three-field form is refused, naming it.
if "$COUNT_LINES" "$out" "$tier|$2|-fflag" 2>"$work/error"; then
  echo "a three-field entry was accepted" >&2
  exit 1
fi
grep -qF "expected 'file|kernel|shares|flags'" "$work/error" || { cat "$work/error" >&2; exit 1; }
echo "a three-field entry is refused: $(cat "$work/error")"
