# Run at every build (cmake -P, from the ladder_source_state target): the checkout's git commit, branch and
# dirty flag, and the SHA-256 of each tier's source file, written to OUTPUT as C++ (harness/builds/build_info.hpp's
# source_state()). The file is replaced only when its text changes, so a build where nothing changed
# relinks nothing. A checkout that is not a git repository of its own (a tarball, even one unpacked inside
# another repository), or a machine without git, gives "unknown".
#   cmake -DSOURCE_DIR=… -DOUTPUT=… -DFILES="variants/a.cpp|variants/b.hpp|…" [-DGIT=…] -P source_state.cmake
set(commit "unknown")
set(branch "unknown")
set(dirty "unknown")

# `git ARGN` in SOURCE_DIR: its output (trailing white space stripped) in OUT; OUT unset where git failed.
function(git_output out)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} ${ARGN} OUTPUT_VARIABLE answer RESULT_VARIABLE failed
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(failed)
    unset(${out} PARENT_SCOPE)
  else()
    set(${out} "${answer}" PARENT_SCOPE)
  endif()
endfunction()

if(GIT)
  git_output(top rev-parse --show-toplevel)
  if(DEFINED top)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(DEFINED top AND top STREQUAL source)
    git_output(head rev-parse HEAD)
    if(DEFINED head)
      set(commit "${head}")
    endif()
    git_output(name rev-parse --abbrev-ref HEAD)
    if(name STREQUAL "HEAD")
      set(branch "(detached)")
    elseif(DEFINED name)
      set(branch "${name}")
    endif()
    # Dirty: a tracked file differs from the commit (untracked files, such as ladder-out/, do not count).
    git_output(changes status --porcelain --untracked-files=no)
    if(changes STREQUAL "")
      set(dirty "no")
    elseif(DEFINED changes)
      set(dirty "yes")
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
