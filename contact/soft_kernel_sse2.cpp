// SPDX-License-Identifier: MIT
// The block kernels on SSE2 registers (every x86-64 processor has them): 2 doubles or
// 4 floats per instruction. The lane type offers what ScalarLane does, with the same
// results per lane (contact/soft_lanes.hpp).

#include "contact/soft_block_kernel.hpp"

// x86-64 only: a 32-bit build's scalar kernel may compute in x87's extended precision,
// and the widths would no longer give the same bits.
#if defined(__SSE2__) && defined(__x86_64__)
#include "common/lanes_sse2.hpp"

namespace jounce::detail {
namespace {

using Sse2Lane = Sse2Lanes<lane_real>;

} // namespace

const SoftKernels* sse2SoftKernels() {
    using K = SoftBlockKernel<Sse2Lane>;
    static constexpr SoftKernels kernels{"sse2", &K::prepare, &K::finish, &K::warmStart, &K::solve, &K::noteApproach, &K::bounce};
    return &kernels;
}

} // namespace jounce::detail

#else

namespace jounce::detail {
const SoftKernels* sse2SoftKernels() { return nullptr; }
} // namespace jounce::detail

#endif
