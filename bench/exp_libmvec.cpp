// glibc's vector exp (libmvec), as the autovec tier reaches it: this file alone is built with -ffast-math
// and -fopenmp-simd, under which GCC turns the loop below into calls of _ZGVeN8v_exp (AVX-512) or
// _ZGVdN4v_exp (AVX2). The 32-bit index keeps the loop vectorizable without AVX-512DQ.
#include <cmath>

void exp_libmvec(const double* inputs, double* outputs, int count) {
#pragma omp simd
  for (int i = 0; i < count; ++i) outputs[i] = std::exp(inputs[i]);
}
