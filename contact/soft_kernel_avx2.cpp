// SPDX-License-Identifier: MIT
// The block kernels on 256-bit registers: 4 doubles or 8 floats per instruction. This
// file alone is compiled with -mavx2 (CMakeLists.txt), and soft_colours.cpp asks the
// processor (__builtin_cpu_supports) before calling anything here, so the library still
// runs on any x86-64; the kernels' table is a constant, set up with no code. Everything it instantiates is its own (the lane type is in an anonymous
// namespace, the kernel header is plain data and arithmetic): no function compiled
// for AVX2 can stand in for another file's.

#include "contact/soft_block_kernel.hpp"

// x86-64 only (see soft_kernel_sse2.cpp).
#if defined(__AVX2__) && defined(__x86_64__)
#include "common/lanes_avx2.hpp"

namespace jounce::detail {
namespace {

using Avx2Lane = Avx2Lanes<lane_real>;

} // namespace

const SoftKernels* avx2SoftKernels() {
    using K = SoftBlockKernel<Avx2Lane>;
    static constexpr SoftKernels kernels{"avx2", &K::prepare, &K::finish, &K::warmStart, &K::solve, &K::noteApproach, &K::bounce};
    return &kernels;
}

} // namespace jounce::detail

#else

namespace jounce::detail {
const SoftKernels* avx2SoftKernels() { return nullptr; }
} // namespace jounce::detail

#endif
