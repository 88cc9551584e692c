# User integrands: headers that follow the contract of variants/ladder/integrand.hpp, built into every tier.
# They come from three places, in this order:
#   integrands/*.hpp                 the repository's folder for a team's own integrands
#   examples/integrands/*.hpp        the shipped examples (-DLADDER_EXAMPLE_INTEGRANDS=OFF leaves them out)
#   -DLADDER_USER_INTEGRANDS=a.hpp;b.hpp   headers anywhere else (absolute, or relative to the repository)
#
# Each integrand is compiled alone here, at configure time, before any tier sees it:
#   - for double and long double, with the project's warnings: the contract. A header that fails stops the
#     configuration with the compiler's message and the header's name, not a template backtrace in a tier;
#   - for cpp_bin_float_quad and Boost autodiff's fvar (the references'), and for each kind of argument a tier
#     calls it with that a ladder_add_tier line names with PROBE (xsimd batches, Eigen arrays, native_simd,
#     SleefBatch, Highway's Vector, …; ladder_add_evaluation_kind below): what it can do. A failed probe is not
#     an error: the tiers (or references) that need it are unavailable for that integrand, and the first line
#     of the compiler's message is kept as the reason.
# The results go to generated/ladder_user_integrands.hpp: the headers, their IntegrandBuild<F> records and
# the list UserIntegrands (variants/integrands.hpp). Editing a header reruns all of this.
option(LADDER_EXAMPLE_INTEGRANDS "Build the example integrands of examples/integrands into every tier" ON)
set(LADDER_USER_INTEGRANDS "" CACHE STRING
    "User integrand headers outside integrands/, ;-separated (absolute, or relative to the repository)")

# One kind of argument a tier calls an integrand with, and how the build probes an integrand on it: the CMake
# half of an EvaluationKind row (variants/tier.hpp), whose id is ID. ladder_add_tier(... PROBE ID ...) calls
# it from the line of the tier that brings the kind.
#   ladder_add_evaluation_kind(ID WHAT "words" INCLUDE header [LANES count] EXPR expression [LINK library…])
# The probe includes INCLUDE (<…>, or a header of variants/, whose edits probe again), then the integrand's
# header, and evaluates `EXPR` with `f` the integrand, for LANES points at a time (default: all 96) from
# `const double* in` into `double* out` (cmake/integrand_probe.hpp compares the values with those on doubles);
# WHAT names the argument in its messages. It is compiled and run for the build's target, and for the
# profiling build's where it has one (the target changes what a vector is).
function(ladder_add_evaluation_kind id)
  cmake_parse_arguments(PARSE_ARGV 1 KIND "" "WHAT;INCLUDE;LANES;EXPR;KIND_LIST" "LINK")
  if(NOT KIND_WHAT OR NOT KIND_INCLUDE OR NOT KIND_EXPR)
    message(FATAL_ERROR "ladder_add_evaluation_kind(${id}): WHAT, INCLUDE and EXPR are needed")
  endif()
  if(NOT KIND_KIND_LIST)
    set(KIND_KIND_LIST LADDER_EVALUATION_KINDS)
  endif()
  get_property(known GLOBAL PROPERTY LADDER_EVALUATION_KINDS)
  get_property(references GLOBAL PROPERTY LADDER_REFERENCE_PROBES)
  if(id IN_LIST known OR id IN_LIST references)
    message(FATAL_ERROR "ladder_add_evaluation_kind: the probe '${id}' is defined twice")
  endif()
  set_property(GLOBAL APPEND PROPERTY ${KIND_KIND_LIST} ${id})
  if(NOT KIND_LANES)
    set(KIND_LANES "ladder::probe::points().size()")
  endif()
  if(NOT KIND_INCLUDE MATCHES "^<")
    set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_HEADER ${PROJECT_SOURCE_DIR}/variants/${KIND_INCLUDE})
    set(KIND_INCLUDE "\"${KIND_INCLUDE}\"")
  endif()
  set(libraries)
  foreach(library IN LISTS KIND_LINK)
    string(APPEND libraries " '${library}'")
  endforeach()
  set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_include "${KIND_INCLUDE}")
  set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_what "${KIND_WHAT}")
  set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_lanes "${KIND_LANES}")
  set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_expr "${KIND_EXPR}")
  set_property(GLOBAL PROPERTY LADDER_PROBE_${id}_libraries "${libraries}")
endfunction()

# The references' own probes (harness/worker/reference_library.hpp): quadrature in cpp_bin_float_quad, derivatives
# by autodiff's fvar, for the build's target alone. Their records are IntegrandBuild's `wide` and `autodiff`.
ladder_add_evaluation_kind(wide KIND_LIST LADDER_REFERENCE_PROBES WHAT "cpp_bin_float_quad" LANES 1
                           INCLUDE <boost/multiprecision/cpp_bin_float.hpp>
                           EXPR "*out = static_cast<double>(f(boost::multiprecision::cpp_bin_float_quad(*in)))")
ladder_add_evaluation_kind(autodiff KIND_LIST LADDER_REFERENCE_PROBES WHAT "Boost autodiff's fvar" LANES 1
                           INCLUDE <boost/math/differentiation/autodiff.hpp>
                           EXPR "*out = static_cast<double>(f(boost::math::differentiation::make_fvar<long double, 3>(*in)).derivative(0))")

# Writes one capability probe of one integrand, unless an identical one ran before (same header, integrand,
# compiler, compile line and probe code), as a script of its own run below, a few at a time.
macro(ladder_probe probe header name capability)
  file(MD5 ${header} header_hash)
  string(MD5 stamp "${header_hash} ${name} ${CMAKE_CXX_COMPILER_VERSION} ${compile_line} ${probe_hash} ${probe_${capability}_include} ${probe_${capability}_lanes} ${probe_${capability}_expr} ${probe_${capability}_what} ${probe_${capability}_targets} ${probe_${capability}_libraries} ${probe_${capability}_hash}")
  set(stale TRUE)
  if(EXISTS ${probes}/${probe}.stamp AND EXISTS ${probes}/${probe}.rc)
    file(READ ${probes}/${probe}.stamp old_stamp)
    if(old_stamp STREQUAL stamp)
      set(stale FALSE)
    endif()
  endif()
  if(stale)
    file(WRITE ${probes}/${probe}.stamp "${stamp}")
    file(REMOVE ${probes}/${probe}.rc ${probes}/${probe}.log)
    file(WRITE ${probes}/${probe}.cpp
         "#include ${probe_${capability}_include}\n#include \"${header}\"\n#include \"integrand_probe.hpp\"\n"
         "int main() {\n  const ${name} f{};\n"
         "  [[maybe_unused]] const auto lanes = static_cast<std::size_t>(${probe_${capability}_lanes});\n"
         "  return ladder::probe::check([](double x) { return ${name}{}(x); },\n"
         "                              [&](const double* in, double* out) { ${probe_${capability}_expr}; }, lanes,\n"
         "                              \"${probe_${capability}_what}\");\n}\n")
    # Compiled and run for the build's target, and for the profiling build's where it has one (the SIMD types
    # only: the target changes what a batch is).
    set(steps "")
    # A cross build runs each probe under its emulator (cmake/toolchain-aarch64.cmake).
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emulator)
    foreach(target IN LISTS probe_${capability}_targets)
      ladder_arch_flag(${target} target_flag)
      string(APPEND steps "${compile_line} '${target_flag}' ${probe}.cpp -o ${probe} ${probe_${capability}_libraries} >> ${probe}.log 2>&1 && "
                          "${emulator} ./${probe} >> ${probe}.log 2>&1 && ")
    endforeach()
    file(WRITE ${probes}/${probe}.probe "${steps}true\necho $? > ${probe}.rc\n")
    set(script TRUE)
  endif()
endmacro()

# Runs the probes ladder_probe wrote (a few at a time), if any.
macro(ladder_run_probes)
  if(script)
    cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C sh -c "ls *.probe | xargs -P ${cores} -n 1 sh"
                    WORKING_DIRECTORY ${probes}
                    COMMAND_ERROR_IS_FATAL ANY)
    file(GLOB ran ${probes}/*.probe)
    file(REMOVE ${ran})
    set(script FALSE)
  endif()
endmacro()

function(ladder_user_integrands output)
  file(GLOB own CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/integrands/*.hpp)
  set(examples)
  if(LADDER_EXAMPLE_INTEGRANDS)
    file(GLOB examples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/integrands/*.hpp)
  endif()
  set(given)
  foreach(header IN LISTS LADDER_USER_INTEGRANDS)
    cmake_path(ABSOLUTE_PATH header BASE_DIRECTORY ${PROJECT_SOURCE_DIR} NORMALIZE OUTPUT_VARIABLE path)
    if(NOT EXISTS "${path}" OR IS_DIRECTORY "${path}")
      message(FATAL_ERROR "LADDER_USER_INTEGRANDS: '${header}' is not a header file (looked for ${path}); "
                          "give header files, absolute or relative to ${PROJECT_SOURCE_DIR}, separated by ';'")
    endif()
    list(APPEND given "${path}")
  endforeach()
  set(headers ${own} ${examples} ${given})
  list(REMOVE_DUPLICATES headers)
  # `ladder export` embeds them (CMakeLists.txt, export/).
  set(LADDER_USER_INTEGRAND_HEADERS ${headers} PARENT_SCOPE)
  if(NOT headers)
    file(WRITE ${output}.new "// Written by cmake/user_integrands.cmake: no user integrands in this build.\n#pragma once\n\n"
         "namespace ladder {\nusing UserIntegrands = IntegrandList<>;\n}  // namespace ladder\n")
    configure_file(${output}.new ${output} COPYONLY)
    return()
  endif()

  # The probes: the references' (wide, autodiff), then one for each kind of argument a tier calls the
  # integrand with (ladder_add_evaluation_kind, from the ladder_add_tier lines).
  get_property(reference_probes GLOBAL PROPERTY LADDER_REFERENCE_PROBES)
  get_property(kinds GLOBAL PROPERTY LADDER_EVALUATION_KINDS)
  set(capabilities ${reference_probes} ${kinds})
  set(whats)
  foreach(capability IN LISTS capabilities)
    foreach(field include what lanes expr libraries)
      get_property(probe_${capability}_${field} GLOBAL PROPERTY LADDER_PROBE_${capability}_${field})
    endforeach()
    list(APPEND whats "${probe_${capability}_what}")
    set(probe_${capability}_targets ${LADDER_ARCH})
    get_property(own_header GLOBAL PROPERTY LADDER_PROBE_${capability}_HEADER)
    if(own_header)  # a tier's own header: an edit of it probes again
      file(MD5 ${own_header} probe_${capability}_hash)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${own_header})
    endif()
  endforeach()
  if(LADDER_PROFILING)
    foreach(capability IN LISTS kinds)  # the target changes what a vector is
      list(APPEND probe_${capability}_targets ${LADDER_PROFILING_TARGET})
    endforeach()
  endif()
  list(JOIN whats ", " whats)

  set(include_flags -I${PROJECT_SOURCE_DIR}/variants)
  # The tiers' libraries' (cmake/libraries.cmake), and Boost's for the references.
  foreach(dir IN LISTS LADDER_LIBRARY_INCLUDE_DIRS Boost_INCLUDE_DIRS)
    if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)  # -isystem /usr/include breaks <cmath>
      list(APPEND include_flags -isystem ${dir})
    endif()
  endforeach()
  set(compile ${CMAKE_CXX_COMPILER} -std=c++20 ${LADDER_ARCH_FLAG} -O1 ${LADDER_WARNINGS} ${include_flags}
              -I${PROJECT_SOURCE_DIR}/cmake)
  # For the shell: each argument in single quotes (a path may hold spaces), without the -march (or -mcpu)
  # the probes set.
  set(quoted)
  foreach(argument IN LISTS compile)
    if(NOT argument MATCHES "^-m(arch|cpu)=")
      string(REPLACE "'" "'\\''" argument "${argument}")
      list(APPEND quoted "'${argument}'")
    endif()
  endforeach()
  list(JOIN quoted " " compile_line)
  file(MD5 ${PROJECT_SOURCE_DIR}/cmake/integrand_probe.hpp probe_hash)

  set(probes ${CMAKE_CURRENT_BINARY_DIR}/integrand_probes)
  file(MAKE_DIRECTORY ${probes})
  # A control integrand every probe must pass: if one fails, the probe is broken (a compiler or library
  # problem), not the user's header, and the configuration stops instead of leaving tiers out quietly. It is
  # needed only where no integrand passed: a probe that one integrand passes works. So the controls run
  # after the integrands' probes, for those kinds alone (a sixth of the probes a build makes, saved).
  file(WRITE ${probes}/control.hpp.new "#include \"ladder/integrand.hpp\"\nstruct ProbeControl {\n"
       "  static constexpr std::string_view name = \"probe-control\";\n"
       "  template <class T> T operator()(const T& x) const { using std::exp; return x * exp(x) + 1.0; }\n};\n")
  configure_file(${probes}/control.hpp.new ${probes}/control.hpp COPYONLY)
  set(script FALSE)
  set(types)
  set(sources)
  set(index 0)
  foreach(header IN LISTS headers)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
    file(STRINGS ${header} lines REGEX "^[ \t]*LADDER_INTEGRAND[ \t]*\\(")
    set(names)
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "LADDER_INTEGRAND[ \t]*\\([ \t]*([A-Za-z_:][A-Za-z0-9_:]*)[ \t]*\\)")
        message(FATAL_ERROR "${header}: cannot read the struct's name from '${line}'; "
                            "write LADDER_INTEGRAND(StructName); on a line of its own")
      endif()
      list(APPEND names ${CMAKE_MATCH_1})
    endforeach()
    if(NOT names)
      message(FATAL_ERROR "${header} registers no integrand: it needs a line LADDER_INTEGRAND(StructName); "
                          "see variants/ladder/integrand.hpp")
    endif()
    # The contract, for the whole header: double and long double, with the project's warnings.
    set(scalar "#include \"${header}\"\n")
    foreach(name IN LISTS names)
      string(APPEND scalar "double probe_${index}(double x) { return ${name}{}(x); }\n"
                           "long double probe_${index}(long double x) { return ${name}{}(x); }\n")
      foreach(capability IN LISTS capabilities)
        ladder_probe(${index}_${capability} ${header} ${name} ${capability})
      endforeach()
      list(APPEND types ${name})
      list(APPEND sources ${header})
      math(EXPR index "${index} + 1")
    endforeach()
    file(WRITE ${probes}/scalar.cpp "${scalar}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C ${compile} -fsyntax-only scalar.cpp
                    WORKING_DIRECTORY ${probes} RESULT_VARIABLE failed OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(failed)
      message(FATAL_ERROR "The integrand header ${header} does not compile for double and long double with "
                          "the project's warnings (-Wall -Wextra -Werror), so no tier can use it:\n${out}")
    endif()
  endforeach()
  if(script)
    message(STATUS "User integrands: ${types}; compiling and running each on ${whats}")
  endif()
  ladder_run_probes()
  set(controlled)
  math(EXPR last "${index} - 1")
  foreach(capability IN LISTS capabilities)
    set(passed FALSE)
    foreach(integrand RANGE ${last})
      file(READ ${probes}/${integrand}_${capability}.rc rc)
      if(rc STREQUAL "0\n")
        set(passed TRUE)
        break()
      endif()
    endforeach()
    if(NOT passed)
      ladder_probe(control_${capability} ${probes}/control.hpp ProbeControl ${capability})
      list(APPEND controlled ${capability})
    endif()
  endforeach()
  ladder_run_probes()
  foreach(capability IN LISTS controlled)
    file(READ ${probes}/control_${capability}.rc rc)
    if(NOT rc STREQUAL "0\n")
      file(READ ${probes}/control_${capability}.log log)
      file(REMOVE ${probes}/control_${capability}.stamp)
      message(FATAL_ERROR "The integrand probe for ${probe_${capability}_what} fails on a control integrand "
                          "(${probes}/control_${capability}.cpp), so it cannot judge user integrands:\n${log}")
    endif()
  endforeach()

  # The generated header: the headers, then each integrand's record, then the list.
  set(text "// Written by cmake/user_integrands.cmake for this build: do not edit.\n#pragma once\n\n")
  foreach(header IN LISTS headers)
    string(APPEND text "#include \"${header}\"\n")
  endforeach()
  string(APPEND text "\nnamespace ladder {\n")
  set(listed)
  set(index 0)
  foreach(name IN ZIP_LISTS types sources)
    set(name ${name_0})
    cmake_path(IS_PREFIX PROJECT_SOURCE_DIR "${name_1}" NORMALIZE inside)
    set(shown "${name_1}")
    if(inside)
      cmake_path(RELATIVE_PATH shown BASE_DIRECTORY ${PROJECT_SOURCE_DIR})
    endif()
    string(APPEND text "\ntemplate <>\nstruct IntegrandBuild<::${name}> {\n"
                       "  static constexpr std::string_view source = \"${shown}\";\n")
    set(kind_records "")
    foreach(capability IN LISTS capabilities)
      file(READ ${probes}/${index}_${capability}.rc rc)
      string(STRIP "${rc}" rc)
      set(reason "")
      if(NOT rc STREQUAL "0")
        set(log ${probes}/${index}_${capability}.log)
        # A compiler killed (out of memory, say) says nothing about the integrand: not kept as a verdict.
        file(STRINGS ${log} killed REGEX "Killed signal|internal compiler error")
        if(killed)
          file(REMOVE ${probes}/${index}_${capability}.stamp)
          message(FATAL_ERROR "Probing ${name_0} (${name_1}) on ${probe_${capability}_what}, the compiler stopped: "
                              "${killed}\nConfigure again (with more memory free); the log is ${log}")
        endif()
        # The first line the compiler flagged, without its directories; when that line is inside a library,
        # the line of the header that led there goes first. (The header's path is matched as text, not as a
        # regular expression: it may hold + or [.)
        file(STRINGS ${log} flagged REGEX "(error|warning): " LIMIT_COUNT 1)
        string(REGEX REPLACE "^[^:]*/" "" reason "${flagged}")
        if(reason STREQUAL "" AND rc GREATER 128)
          math(EXPR signal "${rc} - 128")
          set(reason "the probe stopped on signal ${signal} when it called the integrand")
        endif()
        cmake_path(GET name_1 FILENAME header_name)
        string(FIND "${reason}" "${header_name}:" at)
        if(NOT at EQUAL 0 AND NOT reason MATCHES "^error: ")
          file(STRINGS ${log} lines_of_log)
          foreach(logged IN LISTS lines_of_log)
            string(FIND "${logged}" "${name_1}:" at)
            if(at EQUAL 0)
              string(LENGTH "${name_1}:" prefix)
              string(SUBSTRING "${logged}" ${prefix} -1 rest)
              if(rest MATCHES "^([0-9]+):")
                set(line ${CMAKE_MATCH_1})
                string(REGEX REPLACE "^[^:]*:[0-9]+:[0-9]+: " "" message "${reason}")
                set(reason "${header_name}:${line}: ${message}")
                break()
              endif()
            endif()
          endforeach()
        endif()
        string(REPLACE "\\;" ";" reason "${reason}")
        string(REGEX REPLACE "^error: " "" reason "${reason}")
        string(LENGTH "${reason}" length)
        if(length GREATER 300)
          string(SUBSTRING "${reason}" 0 300 reason)
          string(APPEND reason " …")
        endif()
        if(reason STREQUAL "")
          set(reason "the compiler exited with status ${rc}")
        endif()
      endif()
      set(ok true)
      set(ulps 0)
      if(NOT rc STREQUAL "0")
        set(ok false)
      else()
        # The build's target first (the profiling build's figure, when there is one, follows).
        file(STRINGS ${probes}/${index}_${capability}.log measured REGEX "^ulps: " LIMIT_COUNT 1)
        string(REGEX REPLACE "^ulps: " "" ulps "${measured}")
      endif()
      set(record "{${ok}, R\"ladder(${reason})ladder\", ${ulps}}")
      if(capability IN_LIST kinds)
        string(APPEND kind_records "      {\"${capability}\", ${record}},\n")
      else()
        string(APPEND text "  static constexpr Probe ${capability}${record};\n")
      endif()
    endforeach()
    list(LENGTH kinds count)
    string(APPEND text "  static constexpr std::array<KindProbe, ${count}> probes{{\n${kind_records}  }};\n};\n")
    list(APPEND listed "::${name}")
    math(EXPR index "${index} + 1")
  endforeach()
  list(JOIN listed ", " listed)
  string(APPEND text "\nusing UserIntegrands = IntegrandList<${listed}>;\n\n}  // namespace ladder\n")
  file(WRITE ${output}.new "${text}")
  configure_file(${output}.new ${output} COPYONLY)  # rewritten only when it changed
endfunction()
