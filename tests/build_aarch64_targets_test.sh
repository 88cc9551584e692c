#!/usr/bin/env bash
# What scripts/build-aarch64 builds when it is given no target (its --targets) is a target of the build:
# a target renamed or removed here must not leave the documented command failing with "unknown target".
#   usage: build_aarch64_targets_test.sh SCRIPT NINJA BUILD_DIR
set -euo pipefail
script=$1 ninja=$2 build=$3
for target in $("$script" --targets); do
  "$ninja" -C "$build" -t query "$target" >/dev/null 2>&1 ||
    { echo "FAIL: scripts/build-aarch64 builds '$target' by default, and the build has no such target"; exit 1; }
  echo "ok: $target"
done
