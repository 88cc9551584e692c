#!/usr/bin/env bash
# The autovec tier is only itself if the compiler vectorized its loop: then the object calls glibc's
# vector exp and sin (libmvec, names like _ZGVeN8v_exp for 8 lanes of AVX-512). A loop that silently
# stopped vectorizing calls plain exp instead, and this check fails.
#   usage: autovec_calls_vector_math.sh AUTOVEC_OBJECT
set -euo pipefail
object=${1:?usage: autovec_calls_vector_math.sh AUTOVEC_OBJECT}
symbols=$(nm -u "$object")
status=0
for function in exp sin; do
  if vector=$(grep -oE "_ZGV[a-z]N[0-9]+v_${function}\b" <<<"$symbols" | sort -u | tr '\n' ' ') && [ -n "$vector" ]; then
    echo "autovec calls vector $function: $vector"
  else
    echo "autovec does not call a vector $function: its loop was not vectorized" >&2
    status=1
  fi
done
exit $status
