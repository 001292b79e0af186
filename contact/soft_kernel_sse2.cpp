// SPDX-License-Identifier: MIT
// The block kernels on SSE2 registers (every x86-64 processor has them): 2 doubles or
// 4 floats per instruction. The lane type offers what ScalarLane does, with the same
// results per lane (contact/soft_lanes.hpp).

#include "contact/soft_block_kernel.hpp"

// x86-64 only: a 32-bit build's scalar kernel may compute in x87's extended precision,
// and the widths would no longer give the same bits.
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>

namespace jounce::detail {
namespace {

#if defined(JOUNCE_FLOAT_LANES)
struct Sse2Lane {
    static constexpr int width = 4;
    struct Mask {
        __m128 m;
        friend Mask both(Mask a, Mask b) { return {_mm_and_ps(a.m, b.m)}; }
    };
    __m128 v;
    static Sse2Lane load(const lane_real* p) { return {_mm_loadu_ps(p)}; }
    static Sse2Lane splat(lane_real x) { return {_mm_set1_ps(x)}; }
    static Sse2Lane gather(const lane_real* base, const std::uint32_t* index, int stride) {
        return {_mm_set_ps(base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(lane_real* p) const { _mm_storeu_ps(p, v); }
    friend Sse2Lane operator+(Sse2Lane a, Sse2Lane b) { return {_mm_add_ps(a.v, b.v)}; }
    friend Sse2Lane operator-(Sse2Lane a, Sse2Lane b) { return {_mm_sub_ps(a.v, b.v)}; }
    friend Sse2Lane operator*(Sse2Lane a, Sse2Lane b) { return {_mm_mul_ps(a.v, b.v)}; }
    friend Sse2Lane operator/(Sse2Lane a, Sse2Lane b) { return {_mm_div_ps(a.v, b.v)}; }
    friend Mask operator>(Sse2Lane a, Sse2Lane b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
    friend Mask operator>=(Sse2Lane a, Sse2Lane b) { return {_mm_cmpge_ps(a.v, b.v)}; }
    friend Mask operator<=(Sse2Lane a, Sse2Lane b) { return {_mm_cmple_ps(a.v, b.v)}; }
    friend Sse2Lane max(Sse2Lane a, Sse2Lane b) { return {_mm_max_ps(a.v, b.v)}; }
    friend Sse2Lane min(Sse2Lane a, Sse2Lane b) { return {_mm_min_ps(a.v, b.v)}; }
    friend Sse2Lane sqrt(Sse2Lane a) { return {_mm_sqrt_ps(a.v)}; }
    friend Sse2Lane select(Mask m, Sse2Lane a, Sse2Lane b) { return {_mm_or_ps(_mm_and_ps(m.m, a.v), _mm_andnot_ps(m.m, b.v))}; }
};
#else
struct Sse2Lane {
    static constexpr int width = 2;
    struct Mask {
        __m128d m;
        friend Mask both(Mask a, Mask b) { return {_mm_and_pd(a.m, b.m)}; }
    };
    __m128d v;
    static Sse2Lane load(const lane_real* p) { return {_mm_loadu_pd(p)}; }
    static Sse2Lane splat(lane_real x) { return {_mm_set1_pd(x)}; }
    static Sse2Lane gather(const lane_real* base, const std::uint32_t* index, int stride) {
        return {_mm_set_pd(base[index[1] * stride], base[index[0] * stride])};
    }
    void store(lane_real* p) const { _mm_storeu_pd(p, v); }
    friend Sse2Lane operator+(Sse2Lane a, Sse2Lane b) { return {_mm_add_pd(a.v, b.v)}; }
    friend Sse2Lane operator-(Sse2Lane a, Sse2Lane b) { return {_mm_sub_pd(a.v, b.v)}; }
    friend Sse2Lane operator*(Sse2Lane a, Sse2Lane b) { return {_mm_mul_pd(a.v, b.v)}; }
    friend Sse2Lane operator/(Sse2Lane a, Sse2Lane b) { return {_mm_div_pd(a.v, b.v)}; }
    friend Mask operator>(Sse2Lane a, Sse2Lane b) { return {_mm_cmpgt_pd(a.v, b.v)}; }
    friend Mask operator>=(Sse2Lane a, Sse2Lane b) { return {_mm_cmpge_pd(a.v, b.v)}; }
    friend Mask operator<=(Sse2Lane a, Sse2Lane b) { return {_mm_cmple_pd(a.v, b.v)}; }
    friend Sse2Lane max(Sse2Lane a, Sse2Lane b) { return {_mm_max_pd(a.v, b.v)}; }
    friend Sse2Lane min(Sse2Lane a, Sse2Lane b) { return {_mm_min_pd(a.v, b.v)}; }
    friend Sse2Lane sqrt(Sse2Lane a) { return {_mm_sqrt_pd(a.v)}; }
    friend Sse2Lane select(Mask m, Sse2Lane a, Sse2Lane b) { return {_mm_or_pd(_mm_and_pd(m.m, a.v), _mm_andnot_pd(m.m, b.v))}; }
};
#endif

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
