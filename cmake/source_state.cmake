# Run at every build (cmake -P, from the ladder_source_state target): the checkout's git commit, branch and
# dirty flag, and the SHA-256 of each tier's source file, written to OUTPUT as C++ (harness/builds/build_info.hpp's
# source_state()). The file is replaced only when its text changes, so a build where nothing changed
# relinks nothing. A checkout that is not a git repository of its own (a tarball, even one unpacked inside
# another repository), or a machine without git, gives "unknown".
#   cmake -DSOURCE_DIR=… -DOUTPUT=… -DFILES="variants/a.cpp|variants/b.hpp|…" [-DGIT=…] -P source_state.cmake
set(commit "unknown")
set(branch "unknown")
set(dirty "unknown")
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel OUTPUT_VARIABLE top
                  RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT failed)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(NOT failed AND top STREQUAL source)
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse HEAD OUTPUT_VARIABLE head
                    RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT failed)
      set(commit "${head}")
    endif()
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --abbrev-ref HEAD OUTPUT_VARIABLE name
                    RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT failed)
      if(name STREQUAL "HEAD")
        set(branch "(detached)")
      else()
        set(branch "${name}")
      endif()
    endif()
    # Dirty: a tracked file differs from the commit (untracked files, such as ladder-out/, do not count).
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE failed ERROR_QUIET)
    if(NOT failed)
      if(changes STREQUAL "")
        set(dirty "no")
      else()
        set(dirty "yes")
      endif()
    endif()
  endif()
endif()

# Text for a C++ string literal.
string(REPLACE "\\" "\\\\" branch "${branch}")
string(REPLACE "\"" "\\\"" branch "${branch}")

string(REPLACE "|" ";" files "${FILES}")
list(REMOVE_DUPLICATES files)
list(SORT files)
set(entries "")
foreach(relative IN LISTS files)
  file(SHA256 "${SOURCE_DIR}/${relative}" digest)
  string(APPEND entries "      {\"${relative}\", \"${digest}\"},\n")
endforeach()

string(CONFIGURE [=[// Generated at build time by cmake/source_state.cmake. Do not edit.
#include "build_info.hpp"

const ladder::SourceState& ladder::source_state() {
  static const SourceState state{"@commit@", "@branch@", "@dirty@", {
@entries@  }};
  return state;
}
]=] text @ONLY)
file(WRITE "${OUTPUT}.new" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
file(REMOVE "${OUTPUT}.new")
