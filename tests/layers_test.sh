#!/usr/bin/env bash
# The layers point one way: app -> reports, history, harness, export; harness -> variants -> common;
# export -> variants -> common; reports -> history -> common.
# Every project include ("name.hpp") of each folder must resolve to a header of a folder that folder may see.
#   usage: layers_test.sh SOURCE_DIR
set -u
cd "$1" || exit 2
declare -A may_see=(
  [common]="common"
  [variants]="variants common"
  [harness]="harness variants common"
  [history]="history common"
  [export]="export variants common"
  [reports]="reports history common"
  [app]="app harness reports history export variants common"
  [tools]="tools common"  # the opcode table of the FLOP counts, common/flop_table.hpp
)
# Headers the build writes, and the layer whose include path holds them.
declare -A generated=(
  [ladder_user_integrands.hpp]="variants"  # cmake/user_integrands.cmake: the user integrands of this build
  [ladder_libraries.inc]="variants"        # cmake/libraries.cmake: export's table of the tiers' libraries
)
# A layer's rooms: its subfolders with a CMakeLists.txt of their own, which puts each on the layer's include
# path (harness/run/, harness/worker/, …): their headers are found by name as the layer's own.
rooms() { for room in "$1"/*/CMakeLists.txt; do [ -f "$room" ] && echo "${room%/CMakeLists.txt}"; done; }
status=0
for layer in "${!may_see[@]}"; do
  [ -d "$layer" ] || continue
  while IFS=: read -r file header; do
    found=""
    for folder in ${may_see[$layer]}; do
      for place in "$folder" $(rooms "$folder"); do
        [ -f "$place/$header" ] && found=$folder
      done
      [ "${generated[$header]:-}" = "$folder" ] && found=$folder
    done
    # Headers the build generates (build_info.hpp's definitions, the vectorization table) are declared in
    # harness/ and variants/ and found there.
    if [ -z "$found" ]; then
      owner=$(ls -d */"$header" */*/"$header" 2>/dev/null | head -1)
      echo "$file includes \"$header\"${owner:+ ($owner)}, which $layer/ may not see (it sees: ${may_see[$layer]})"
      status=1
    fi
  done < <(for place in "$layer" $(rooms "$layer"); do
             grep -Ho '#include "[^"]*"' "$place"/*.[ch]pp "$place"/*.in 2>/dev/null
           done | sed 's/#include "\(.*\)"/\1/')
done
[ $status -eq 0 ] && echo "every include points down the layers"
exit $status
