// SPDX-License-Identifier: MIT
// The tetrahedra's and isometric bending's projections (small_kernel.hpp) on AVX2 registers.
// This file alone is compiled with -mavx2 (CMakeLists.txt); projectSmallConstraints calls
// it only when simdLevel() says the processor has AVX2.

#include "physics/particles/small_kernel.hpp"

#if defined(__AVX2__) && defined(__x86_64__)
#include "common/lanes_avx2.hpp"

namespace jounce::detail {

SmallLanes avx2SmallLanes() {
    using K = SmallKernel<Avx2Lanes<real>>;
    return {K::n, &K::tetrahedra, &K::bending};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
SmallLanes avx2SmallLanes() { return {}; }
} // namespace jounce::detail

#endif
