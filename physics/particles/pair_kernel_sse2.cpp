// SPDX-License-Identifier: MIT
// The particle pairs' passes (pair_kernel.hpp) on SSE2 registers.

#include "physics/particles/pair_kernel.hpp"

#if defined(__SSE2__) && defined(__x86_64__)
#include "common/lanes_sse2.hpp"

namespace jounce::detail {

PairLanes sse2PairLanes() {
    using K = PairKernel<Sse2Lanes<real>>;
    return {K::n, &K::project, &K::preStabilize, &K::bounce};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
PairLanes sse2PairLanes() { return {}; }
} // namespace jounce::detail

#endif
