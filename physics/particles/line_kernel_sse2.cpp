// SPDX-License-Identifier: MIT
// The lines' solve (line_kernel.hpp) on SSE2 registers.

#include "physics/particles/line_kernel.hpp"

#if defined(__SSE2__) && defined(__x86_64__)
#include "common/lanes_sse2.hpp"

namespace jounce::detail {

LineLanes sse2LineLanes() { return {LineKernel<Sse2Lanes<real>>::n, &LineKernel<Sse2Lanes<real>>::solve}; }

} // namespace jounce::detail

#else

namespace jounce::detail {
LineLanes sse2LineLanes() { return {}; }
} // namespace jounce::detail

#endif
