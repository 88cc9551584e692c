// How this binary was built (common/build.hpp's BuildInfo, made by CMake from
// harness/builds/build_info.cpp.in) and the checkout it was built from (SourceState): what every measurement
// needs beside it.
#pragma once

#include "build.hpp"

namespace ladder {

const BuildInfo& build_info();
const SourceState& source_state();

}  // namespace ladder
