// The dispatch tier's SSE2 path, 2 doubles a register, which every x86-64 CPU runs: the kernel for every
// integrand the tier runs, in a file compiled with -march=x86-64 whatever the build's -march
// (cmake/dispatch_tier.cmake).
#include "dispatch_path.hpp"

namespace ladder::dispatched {

extern constinit const auto sse2_kernels = every_integrand<xsimd::sse2>(AllIntegrands{});

}  // namespace ladder::dispatched
