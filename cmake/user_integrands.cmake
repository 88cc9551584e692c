# User integrands: headers that follow the contract of variants/ladder/integrand.hpp, built into every tier.
# They come from three places, in this order:
#   integrands/*.hpp                 the repository's folder for a team's own integrands
#   examples/integrands/*.hpp        the shipped examples (-DLADDER_EXAMPLE_INTEGRANDS=OFF leaves them out)
#   -DLADDER_USER_INTEGRANDS=a.hpp;b.hpp   headers anywhere else (absolute, or relative to the repository)
#
# Each integrand is compiled alone here, at configure time, before any tier sees it:
#   - for double and long double, with the project's warnings: the contract. A header that fails stops the
#     configuration with the compiler's message and the header's name, not a template backtrace in a tier;
#   - for xsimd batches, Eigen arrays, cpp_bin_float_quad, Boost autodiff's fvar, and the vector types of the
#     std-simd, sleef and highway tiers (native_simd<double>, SleefBatch, Highway's Vector): what it can do.
#     A failed probe is not an error: the tiers (or references) that need it are unavailable for that integrand, and
#     the first line of the compiler's message is kept as the reason.
# The results go to generated/ladder_user_integrands.hpp: the headers, their IntegrandBuild<F> records and
# the list UserIntegrands (variants/integrands.hpp). Editing a header reruns all of this.
option(LADDER_EXAMPLE_INTEGRANDS "Build the example integrands of examples/integrands into every tier" ON)
set(LADDER_USER_INTEGRANDS "" CACHE STRING
    "User integrand headers outside integrands/, ;-separated (absolute, or relative to the repository)")

# Writes one capability probe of one integrand, unless an identical one ran before (same header, integrand,
# compiler, compile line and probe code), as a script of its own run below, a few at a time.
macro(ladder_probe probe header name capability)
  file(MD5 ${header} header_hash)
  string(MD5 stamp "${header_hash} ${name} ${CMAKE_CXX_COMPILER_VERSION} ${compile_line} ${probe_hash} ${probe_${capability}_evaluate} ${probe_${capability}_targets} ${probe_${capability}_libraries} ${probe_${capability}_hash}")
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
         "std::vector<double> evaluate(const std::vector<double>& xs) {\n  const ${name} f{};\n"
         "${probe_${capability}_evaluate}\n  return out;\n}\n"
         "int main() {\n  return ladder::probe::check([](double x) { return ${name}{}(x); }, evaluate, "
         "\"${probe_${capability}_what}\");\n}\n")
    # Compiled and run for the build's target, and for the profiling build's where it has one (the SIMD types
    # only: the target changes what a batch is).
    set(steps "")
    foreach(target IN LISTS probe_${capability}_targets)
      string(APPEND steps "${compile_line} '-march=${target}' ${probe}.cpp -o ${probe} ${probe_${capability}_libraries} >> ${probe}.log 2>&1 && "
                          "./${probe} >> ${probe}.log 2>&1 && ")
    endforeach()
    file(WRITE ${probes}/${probe}.probe "${steps}true\necho $? > ${probe}.rc\n")
    set(script TRUE)
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

  # What a probe includes first (as the tiers do), and how it evaluates the integrand at many points with
  # that kind of argument (cmake/integrand_probe.hpp compares the values with those on doubles).
  set(probe_simd_include "<xsimd/xsimd.hpp>")
  set(probe_simd_what "xsimd batches")
  set(probe_simd_evaluate [=[
  using Batch = xsimd::batch<double>;
  std::vector<double> out(xs.size());
  for (std::size_t i = 0; i + Batch::size <= xs.size(); i += Batch::size)
    f(Batch::load_unaligned(xs.data() + i)).store_unaligned(out.data() + i);]=])
  set(probe_array_include "<Eigen/Core>")
  set(probe_array_what "Eigen arrays")
  set(probe_array_evaluate [=[
  const Eigen::ArrayXd nodes = Eigen::Map<const Eigen::ArrayXd>(xs.data(), Eigen::Index(xs.size()));
  const Eigen::ArrayXd values = f(nodes);
  std::vector<double> out(values.data(), values.data() + values.size());]=])
  set(probe_wide_include "<boost/multiprecision/cpp_bin_float.hpp>")
  set(probe_wide_what "cpp_bin_float_quad")
  set(probe_wide_evaluate [=[
  std::vector<double> out;
  for (double x : xs) out.push_back(static_cast<double>(f(boost::multiprecision::cpp_bin_float_quad(x))));]=])
  set(probe_autodiff_include "<boost/math/differentiation/autodiff.hpp>")
  set(probe_autodiff_what "Boost autodiff's fvar")
  set(probe_autodiff_evaluate [=[
  std::vector<double> out;
  for (double x : xs)
    out.push_back(static_cast<double>(f(boost::math::differentiation::make_fvar<long double, 3>(x)).derivative(0)));]=])
  # The vector types of the std-simd, sleef and highway tiers (variants/kernels/std_simd.hpp, sleef_exp.hpp,
  # highway_vector.hpp): each probe includes the tier's own header, so an edit of it probes again.
  set(probe_std_simd_include "<experimental/simd>")
  set(probe_std_simd_what "std::experimental::native_simd<double>")
  set(probe_std_simd_evaluate [=[
  namespace stdx = std::experimental;
  using Vector = stdx::native_simd<double>;
  std::vector<double> out(xs.size());
  for (std::size_t i = 0; i + Vector::size() <= xs.size(); i += Vector::size())
    Vector(f(Vector(xs.data() + i, stdx::element_aligned))).copy_to(out.data() + i, stdx::element_aligned);]=])
  set(probe_sleef_include "\"sleef_exp.hpp\"")
  set(probe_sleef_what "SleefBatch (xsimd batches with SLEEF's exp)")
  set(probe_sleef_evaluate [=[
  using Batch = xsimd::batch<double>;
  std::vector<double> out(xs.size());
  for (std::size_t i = 0; i + Batch::size <= xs.size(); i += Batch::size)
    f(ladder::sleef_exp::SleefBatch(Batch::load_unaligned(xs.data() + i))).value.store_unaligned(out.data() + i);]=])
  set(probe_sleef_libraries)
  foreach(library IN LISTS SLEEF_LINK_LIBRARIES)
    string(APPEND probe_sleef_libraries " '${library}'")
  endforeach()
  file(MD5 ${PROJECT_SOURCE_DIR}/variants/sleef_exp.hpp probe_sleef_hash)
  set(probe_highway_include "\"highway_vector.hpp\"")
  set(probe_highway_what "Highway vectors (the highway tier's Vector)")
  set(probe_highway_evaluate [=[
  namespace hn = ladder::highway_simd::hn;
  const ladder::highway_simd::Tag d;
  const auto width = static_cast<std::size_t>(ladder::highway_simd::width);
  std::vector<double> out(xs.size());
  for (std::size_t i = 0; i + width <= xs.size(); i += width)
    hn::StoreU(f(ladder::highway_simd::Vector(hn::LoadU(d, xs.data() + i))).value, d, out.data() + i);]=])
  file(MD5 ${PROJECT_SOURCE_DIR}/variants/highway_vector.hpp probe_highway_hash)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/variants/sleef_exp.hpp
                                                                 ${PROJECT_SOURCE_DIR}/variants/highway_vector.hpp)
  set(capabilities simd array wide autodiff std_simd sleef highway)
  foreach(capability IN LISTS capabilities)
    set(probe_${capability}_targets ${LADDER_ARCH})
  endforeach()
  if(LADDER_PROFILING)
    foreach(capability IN ITEMS simd std_simd sleef highway)  # the target changes what a vector is
      list(APPEND probe_${capability}_targets ${LADDER_PROFILING_TARGET})
    endforeach()
  endif()

  get_target_property(eigen_dirs Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
  set(include_flags -I${PROJECT_SOURCE_DIR}/variants)
  foreach(dir IN LISTS eigen_dirs xsimd_include_dirs Boost_INCLUDE_DIRS hwy_include_dirs SLEEF_INCLUDE_DIRS)
    if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)  # -isystem /usr/include breaks <cmath>
      list(APPEND include_flags -isystem ${dir})
    endif()
  endforeach()
  set(compile ${CMAKE_CXX_COMPILER} -std=c++20 -march=${LADDER_ARCH} -O1 ${LADDER_WARNINGS} ${include_flags}
              -I${PROJECT_SOURCE_DIR}/cmake)
  # For the shell: each argument in single quotes (a path may hold spaces), without the -march the probes set.
  set(quoted)
  foreach(argument IN LISTS compile)
    if(NOT argument MATCHES "^-march=")
      string(REPLACE "'" "'\\''" argument "${argument}")
      list(APPEND quoted "'${argument}'")
    endif()
  endforeach()
  list(JOIN quoted " " compile_line)
  file(MD5 ${PROJECT_SOURCE_DIR}/cmake/integrand_probe.hpp probe_hash)

  set(probes ${CMAKE_CURRENT_BINARY_DIR}/integrand_probes)
  file(MAKE_DIRECTORY ${probes})
  # A control integrand every probe must pass: if one fails, the probe is broken (a compiler or library
  # problem), not the user's header, and the configuration stops instead of leaving tiers out quietly.
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
  foreach(capability IN LISTS capabilities)
    ladder_probe(control_${capability} ${probes}/control.hpp ProbeControl ${capability})
  endforeach()
  if(script)
    message(STATUS "User integrands: ${types}; compiling and running each on SIMD batches, Eigen arrays, "
                   "cpp_bin_float_quad, autodiff, native_simd, SleefBatch and Highway vectors")
    cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C sh -c "ls *.probe | xargs -P ${cores} -n 1 sh"
                    WORKING_DIRECTORY ${probes}
                    COMMAND_ERROR_IS_FATAL ANY)
    file(GLOB ran ${probes}/*.probe)
    file(REMOVE ${ran})
  endif()
  foreach(capability IN LISTS capabilities)
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
      string(APPEND text "  static constexpr Probe ${capability}{${ok}, R\"ladder(${reason})ladder\", ${ulps}};\n")
    endforeach()
    string(APPEND text "  static constexpr Probe tuned{false, \"TunedBatch has only the operations of the built-in "
                       "integrands (arithmetic, exp, sin): the tuned exp is written and tested for those\", 0};\n"
                       "  static constexpr Probe device{false, \"user integrands are compiled for the host only\", 0};\n};\n")
    list(APPEND listed "::${name}")
    math(EXPR index "${index} + 1")
  endforeach()
  list(JOIN listed ", " listed)
  string(APPEND text "\nusing UserIntegrands = IntegrandList<${listed}>;\n\n}  // namespace ladder\n")
  file(WRITE ${output}.new "${text}")
  configure_file(${output}.new ${output} COPYONLY)  # rewritten only when it changed
endfunction()
