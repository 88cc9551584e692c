# Run at every build (cmake -P, from the custom command in CMakeLists.txt): the text of each file `ladder
# export` hands over (the kernel headers, the shared kernel headers, the integrand headers and export/'s
# templates), written to OUTPUT as C++ (export/embedded.hpp's embedded_files()). So an export copies
# exactly the code this binary was built from, and works without the checkout beside it.
#   cmake -DSOURCE_DIR=… -DOUTPUT=… -DFILES="/abs/a.hpp|/abs/b.in|…" -P embed_files.cmake
# A file is named by its path relative to SOURCE_DIR when it lies inside it, else by its absolute path.
string(REPLACE "|" ";" files "${FILES}")
set(text "// Written by cmake/embed_files.cmake at build time: do not edit.\n#include \"embedded.hpp\"\n\n")
string(APPEND text "namespace ladder::exporter {\n\nstd::span<const EmbeddedFile> embedded_files() {\n")
string(APPEND text "  static const EmbeddedFile files[] = {\n")
set(delimiter "ladder_embedded")
foreach(file IN LISTS files)
  file(READ "${file}" content)
  string(FIND "${content}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw-string delimiter )${delimiter}\": it cannot be embedded")
  endif()
  cmake_path(IS_PREFIX SOURCE_DIR "${file}" NORMALIZE inside)
  set(shown "${file}")
  if(inside)
    cmake_path(RELATIVE_PATH shown BASE_DIRECTORY "${SOURCE_DIR}")
  endif()
  string(APPEND text "      {\"${shown}\", R\"${delimiter}(${content})${delimiter}\"},\n")
endforeach()
string(APPEND text "  };\n  return files;\n}\n\n}  // namespace ladder::exporter\n")
set(current "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" current)
endif()
if(NOT current STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
