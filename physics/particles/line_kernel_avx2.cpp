// SPDX-License-Identifier: MIT
// The lines' solve (line_kernel.hpp) on AVX2 registers.
// This file alone is compiled with -mavx2 (CMakeLists.txt); solveDistanceLines calls it
// only when simdLevel() says the processor has AVX2.

#include "physics/particles/line_kernel.hpp"

#if defined(__AVX2__) && defined(__x86_64__)
#include "common/lanes_avx2.hpp"

namespace jounce::detail {

LineLanes avx2LineLanes() { return {LineKernel<Avx2Lanes<real>>::n, &LineKernel<Avx2Lanes<real>>::solve}; }

} // namespace jounce::detail

#else

namespace jounce::detail {
LineLanes avx2LineLanes() { return {}; }
} // namespace jounce::detail

#endif
