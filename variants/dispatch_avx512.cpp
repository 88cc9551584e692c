// The dispatch tier's AVX-512 path, 8 doubles a register: the kernel for every integrand the tier runs, in
// a file compiled with -march=x86-64-v4 whatever the build's -march (cmake/dispatch_tier.cmake).
#include "dispatch_path.hpp"

namespace ladder::dispatched {

extern constinit const auto avx512_kernels = every_integrand<xsimd::avx512bw>(AllIntegrands{});

}  // namespace ladder::dispatched
