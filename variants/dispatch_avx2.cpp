// The dispatch tier's AVX2 path, 4 doubles a register with fused multiply-adds: the kernel for every
// integrand the tier runs, in a file compiled with -march=x86-64-v3 whatever the build's -march
// (cmake/dispatch_tier.cmake).
#include "dispatch_path.hpp"

namespace ladder::dispatched {

extern constinit const auto avx2_kernels = every_integrand<xsimd::fma3<xsimd::avx2>>(AllIntegrands{});

}  // namespace ladder::dispatched
