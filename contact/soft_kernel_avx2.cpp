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
#include <immintrin.h>

namespace jounce::detail {
namespace {

#if defined(JOUNCE_FLOAT_LANES)
struct Avx2Lane {
    static constexpr int width = 8;
    struct Mask {
        __m256 m;
        friend Mask both(Mask a, Mask b) { return {_mm256_and_ps(a.m, b.m)}; }
    };
    __m256 v;
    static Avx2Lane load(const lane_real* p) { return {_mm256_loadu_ps(p)}; }
    static Avx2Lane splat(lane_real x) { return {_mm256_set1_ps(x)}; }
    static Avx2Lane gather(const lane_real* base, const std::uint32_t* index, int stride) {
        return {_mm256_set_ps(base[index[7] * stride], base[index[6] * stride], base[index[5] * stride], base[index[4] * stride],
                              base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(lane_real* p) const { _mm256_storeu_ps(p, v); }
    friend Avx2Lane operator+(Avx2Lane a, Avx2Lane b) { return {_mm256_add_ps(a.v, b.v)}; }
    friend Avx2Lane operator-(Avx2Lane a, Avx2Lane b) { return {_mm256_sub_ps(a.v, b.v)}; }
    friend Avx2Lane operator*(Avx2Lane a, Avx2Lane b) { return {_mm256_mul_ps(a.v, b.v)}; }
    friend Avx2Lane operator/(Avx2Lane a, Avx2Lane b) { return {_mm256_div_ps(a.v, b.v)}; }
    friend Mask operator>(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
    friend Mask operator>=(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)}; }
    friend Mask operator<=(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OQ)}; }
    friend Avx2Lane max(Avx2Lane a, Avx2Lane b) { return {_mm256_max_ps(a.v, b.v)}; }
    friend Avx2Lane min(Avx2Lane a, Avx2Lane b) { return {_mm256_min_ps(a.v, b.v)}; }
    friend Avx2Lane sqrt(Avx2Lane a) { return {_mm256_sqrt_ps(a.v)}; }
    friend Avx2Lane select(Mask m, Avx2Lane a, Avx2Lane b) { return {_mm256_blendv_ps(b.v, a.v, m.m)}; }
};
#else
struct Avx2Lane {
    static constexpr int width = 4;
    struct Mask {
        __m256d m;
        friend Mask both(Mask a, Mask b) { return {_mm256_and_pd(a.m, b.m)}; }
    };
    __m256d v;
    static Avx2Lane load(const lane_real* p) { return {_mm256_loadu_pd(p)}; }
    static Avx2Lane splat(lane_real x) { return {_mm256_set1_pd(x)}; }
    static Avx2Lane gather(const lane_real* base, const std::uint32_t* index, int stride) {
        return {_mm256_set_pd(base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(lane_real* p) const { _mm256_storeu_pd(p, v); }
    friend Avx2Lane operator+(Avx2Lane a, Avx2Lane b) { return {_mm256_add_pd(a.v, b.v)}; }
    friend Avx2Lane operator-(Avx2Lane a, Avx2Lane b) { return {_mm256_sub_pd(a.v, b.v)}; }
    friend Avx2Lane operator*(Avx2Lane a, Avx2Lane b) { return {_mm256_mul_pd(a.v, b.v)}; }
    friend Avx2Lane operator/(Avx2Lane a, Avx2Lane b) { return {_mm256_div_pd(a.v, b.v)}; }
    friend Mask operator>(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ)}; }
    friend Mask operator>=(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GE_OQ)}; }
    friend Mask operator<=(Avx2Lane a, Avx2Lane b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_LE_OQ)}; }
    friend Avx2Lane max(Avx2Lane a, Avx2Lane b) { return {_mm256_max_pd(a.v, b.v)}; }
    friend Avx2Lane min(Avx2Lane a, Avx2Lane b) { return {_mm256_min_pd(a.v, b.v)}; }
    friend Avx2Lane sqrt(Avx2Lane a) { return {_mm256_sqrt_pd(a.v)}; }
    friend Avx2Lane select(Mask m, Avx2Lane a, Avx2Lane b) { return {_mm256_blendv_pd(b.v, a.v, m.m)}; }
};
#endif

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
