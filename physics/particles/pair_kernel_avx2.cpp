// SPDX-License-Identifier: MIT
// The particle pairs' passes (pair_kernel.hpp) on AVX2 registers.
// This file alone is compiled with -mavx2 (CMakeLists.txt); sweepPairs uses it only
// when simdLevel() says the processor has AVX2.

#include "physics/particles/pair_kernel.hpp"

#if defined(__AVX2__) && defined(__x86_64__)
#include "common/lanes_avx2.hpp"

namespace jounce::detail {

PairLanes avx2PairLanes() {
    using K = PairKernel<Avx2Lanes<real>>;
    return {K::n, &K::project, &K::preStabilize, &K::bounce};
}

} // namespace jounce::detail

#else

namespace jounce::detail {
PairLanes avx2PairLanes() { return {}; }
} // namespace jounce::detail

#endif
