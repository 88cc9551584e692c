#!/usr/bin/env bash
# A tier's kernel (variants/kernels/*) is a header a team can include as it is: it, and every header it
# includes, transitively, includes nothing of Ladder's registry, harness or cards (tier.hpp, registry.hpp,
# integrands.hpp, ladder_user_integrands.hpp, any harness/ header), and each of its quoted includes names a
# header of variants/ by its plain name ("simd_kernel.hpp", never "../x.hpp"), so that the kernel and the
# shared headers it uses still compile when copied flat into one directory.
# Prints every offending file and include.
#   usage: kernel_headers_test.sh SOURCE_DIR
#          kernel_headers_test.sh --self-test   (a crafted tree with violations must fail, naming them)
set -u

forbidden="tier.hpp registry.hpp integrands.hpp ladder_user_integrands.hpp"

# 0 when HEADER is one of the harness's, at its top level or in one of its rooms (harness/run/, …) under ROOT.
harness_header() {
  local place
  for place in "$1"/harness/"$2" "$1"/harness/*/"$2"; do [ -f "$place" ] && return 0; done
  return 1
}

# check SOURCE_DIR: 0 when every kernel keeps the rules, else 1, after printing each violation.
check() {
  local root=$1 status=0
  local -A seen=()
  local queue=()
  for kernel in "$root"/variants/kernels/*; do
    [ -f "$kernel" ] && queue+=("${kernel#"$root"/}")
  done
  if [ ${#queue[@]} -eq 0 ]; then
    echo "no kernel headers in $root/variants/kernels"
    return 1
  fi
  while [ ${#queue[@]} -gt 0 ]; do
    local file=${queue[0]}
    queue=("${queue[@]:1}")
    [ -n "${seen[$file]:-}" ] && continue
    seen[$file]=1
    while IFS= read -r line; do
      local kind=${line:9:1} header
      header=$(sed -E 's/#include *["<]([^">]*)[">].*/\1/' <<<"$line")
      local base=${header##*/} close='"'
      [ "$kind" = '<' ] && close='>'
      if [[ " $forbidden " == *" $base "* ]] || [[ $header == harness/* ]] ||
         { [ "$kind" = '"' ] && harness_header "$root" "$header"; }; then
        echo "$file includes $kind$header$close: a kernel must include nothing of Ladder's registry, harness or cards"
        status=1
        continue
      fi
      [ "$kind" = '"' ] || continue  # a library's header (<xsimd/xsimd.hpp>, <mpi.h>)
      if [[ $header == */* ]]; then
        echo "$file includes \"$header\": a kernel includes the shared headers by plain name, never a path"
        status=1
      elif [ ! -f "$root/variants/$header" ]; then
        echo "$file includes \"$header\", which is not a header of variants/"
        status=1
      else
        queue+=("variants/$header")
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "$root/$file" |
             sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*/#include /')
  done
  [ $status -eq 0 ] && echo "${#seen[@]} headers checked: every kernel includes only what a team can copy"
  return $status
}

if [ "${1:-}" = "--self-test" ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/variants/kernels" "$tree/harness/worker"
  printf '#pragma once\n#include "tier.hpp"\n' >"$tree/variants/shared.hpp"  # reached only transitively
  printf '#pragma once\n' >"$tree/variants/tier.hpp" >"$tree/harness/worker/worker.hpp" >"$tree/variants/fine.hpp"
  printf '#pragma once\n#include <vector>\n#include "fine.hpp"\n#include "shared.hpp"\n' >"$tree/variants/kernels/a.hpp"
  printf '#pragma once\n#include "../fine.hpp"\n#include "worker.hpp"\n#include "missing.hpp"\n' \
    >"$tree/variants/kernels/b.cuh"
  output=$(check "$tree")
  echo "$output"
  for expected in 'variants/shared.hpp includes "tier.hpp"' 'variants/kernels/b.cuh includes "../fine.hpp"' \
                  'variants/kernels/b.cuh includes "worker.hpp": a kernel must include nothing' 'variants/kernels/b.cuh includes "missing.hpp"'; do
    if ! grep -qF "$expected" <<<"$output"; then
      echo "self-test: the check did not report: $expected"
      exit 1
    fi
  done
  if check "$tree" >/dev/null; then
    echo "self-test: the check passed a tree with violations"
    exit 1
  fi
  echo "self-test: every violation reported, and the check fails"
  exit 0
fi

check "$1"
