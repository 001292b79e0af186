// SPDX-License-Identifier: MIT
// The tetrahedra's and isometric bending's projections (small_kernel.hpp) on SSE2 registers.

#include "physics/particles/small_kernel.hpp"

#if defined(__SSE2__) && defined(__x86_64__)
#include "common/lanes_sse2.hpp"

namespace jounce::detail {

SmallLanes sse2SmallLanes() {
    using K = SmallKernel<Sse2Lanes<real>>;
    return {K::n, &K::tetrahedra, &K::bending};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
SmallLanes sse2SmallLanes() { return {}; }
} // namespace jounce::detail

#endif
