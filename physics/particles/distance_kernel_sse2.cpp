// SPDX-License-Identifier: MIT
// The distance rows' projection (distance_kernel.hpp) on SSE2 registers.

#include "physics/particles/distance_kernel.hpp"

#if defined(__SSE2__) && defined(__x86_64__)
#include "common/lanes_sse2.hpp"

namespace jounce::detail {

DistanceLanes sse2DistanceLanes() {
    using K = DistanceKernel<Sse2Lanes<real>>;
    return {K::n, &K::project};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
DistanceLanes sse2DistanceLanes() { return {}; }
} // namespace jounce::detail

#endif
