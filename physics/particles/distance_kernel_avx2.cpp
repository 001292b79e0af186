// SPDX-License-Identifier: MIT
// The distance rows' projection (distance_kernel.hpp) on AVX2 registers.
// This file alone is compiled with -mavx2 (CMakeLists.txt); projectDistances calls it
// only when simdLevel() says the processor has AVX2.

#include "physics/particles/distance_kernel.hpp"

#if defined(__AVX2__) && defined(__x86_64__)
#include "common/lanes_avx2.hpp"

namespace jounce::detail {

DistanceLanes avx2DistanceLanes() {
    using K = DistanceKernel<Avx2Lanes<real>>;
    return {K::n, &K::project};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
DistanceLanes avx2DistanceLanes() { return {}; }
} // namespace jounce::detail

#endif
