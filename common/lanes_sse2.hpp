// SPDX-License-Identifier: MIT
#pragma once
// Lanes on SSE2 registers (every x86-64 processor has them): 2 doubles or 4 floats per
// instruction, with ScalarLanes' operations and results per lane (common/lanes.hpp).
// The types sit in an anonymous namespace: each file that includes this header gets
// its own copy, so no function built for one instruction set can stand in for another
// file's at link time. Include it only where __SSE2__ and __x86_64__ are defined (a
// 32-bit build's scalar twin may compute in x87's extended precision).

#include "common/lanes.hpp"

#include <emmintrin.h>

namespace jounce::detail {
namespace {

template <class T> struct Sse2Lanes;

template <> struct Sse2Lanes<float> {
    static constexpr int width = 4;
    using Real = float;
    struct Mask {
        __m128 m;
        friend Mask both(Mask a, Mask b) { return {_mm_and_ps(a.m, b.m)}; }
        friend bool any(Mask a) { return _mm_movemask_ps(a.m) != 0; }
    };
    __m128 v;
    static Sse2Lanes load(const float* p) { return {_mm_loadu_ps(p)}; }
    static Sse2Lanes splat(float x) { return {_mm_set1_ps(x)}; }
    static Sse2Lanes gather(const float* base, const std::uint32_t* index, int stride) {
        return {_mm_set_ps(base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(float* p) const { _mm_storeu_ps(p, v); }
    /// Eight adjacent floats of four records (common/lanes.hpp, gatherEight): two loads
    /// per record and two 4x4 transposes, where gather would take 32 loads.
    static void gatherEight(const float* base, const std::uint32_t* index, int stride, Sse2Lanes (&out)[8]) {
        const std::size_t st = static_cast<std::size_t>(stride);
        const float *r0 = base + index[0] * st, *r1 = base + index[1] * st, *r2 = base + index[2] * st, *r3 = base + index[3] * st;
        for (int h = 0; h < 8; h += 4) {
            __m128 a = _mm_loadu_ps(r0 + h), b = _mm_loadu_ps(r1 + h), c = _mm_loadu_ps(r2 + h), d = _mm_loadu_ps(r3 + h);
            _MM_TRANSPOSE4_PS(a, b, c, d);
            out[h].v = a, out[h + 1].v = b, out[h + 2].v = c, out[h + 3].v = d;
        }
    }
    /// gatherEight's inverse, for the lanes that write.
    static void scatterEight(float* base, const std::uint32_t* index, int stride, const Sse2Lanes (&in)[8], const std::uint8_t* writes) {
        const std::size_t st = static_cast<std::size_t>(stride);
        for (int h = 0; h < 8; h += 4) {
            __m128 a = in[h].v, b = in[h + 1].v, c = in[h + 2].v, d = in[h + 3].v;
            _MM_TRANSPOSE4_PS(a, b, c, d);
            if (writes[0]) _mm_storeu_ps(base + index[0] * st + h, a);
            if (writes[1]) _mm_storeu_ps(base + index[1] * st + h, b);
            if (writes[2]) _mm_storeu_ps(base + index[2] * st + h, c);
            if (writes[3]) _mm_storeu_ps(base + index[3] * st + h, d);
        }
    }
    friend Sse2Lanes operator+(Sse2Lanes a, Sse2Lanes b) { return {_mm_add_ps(a.v, b.v)}; }
    friend Sse2Lanes operator-(Sse2Lanes a, Sse2Lanes b) { return {_mm_sub_ps(a.v, b.v)}; }
    friend Sse2Lanes operator-(Sse2Lanes a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
    friend Sse2Lanes operator*(Sse2Lanes a, Sse2Lanes b) { return {_mm_mul_ps(a.v, b.v)}; }
    friend Sse2Lanes operator/(Sse2Lanes a, Sse2Lanes b) { return {_mm_div_ps(a.v, b.v)}; }
    friend Mask operator>(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
    friend Mask operator>=(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmpge_ps(a.v, b.v)}; }
    friend Mask operator<=(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmple_ps(a.v, b.v)}; }
    friend Sse2Lanes max(Sse2Lanes a, Sse2Lanes b) { return {_mm_max_ps(a.v, b.v)}; }
    friend Sse2Lanes min(Sse2Lanes a, Sse2Lanes b) { return {_mm_min_ps(a.v, b.v)}; }
    friend Sse2Lanes sqrt(Sse2Lanes a) { return {_mm_sqrt_ps(a.v)}; }
    friend Sse2Lanes select(Mask m, Sse2Lanes a, Sse2Lanes b) { return {_mm_or_ps(_mm_and_ps(m.m, a.v), _mm_andnot_ps(m.m, b.v))}; }
};

template <> struct Sse2Lanes<double> {
    static constexpr int width = 2;
    using Real = double;
    struct Mask {
        __m128d m;
        friend Mask both(Mask a, Mask b) { return {_mm_and_pd(a.m, b.m)}; }
        friend bool any(Mask a) { return _mm_movemask_pd(a.m) != 0; }
    };
    __m128d v;
    static Sse2Lanes load(const double* p) { return {_mm_loadu_pd(p)}; }
    static Sse2Lanes splat(double x) { return {_mm_set1_pd(x)}; }
    static Sse2Lanes gather(const double* base, const std::uint32_t* index, int stride) {
        return {_mm_set_pd(base[index[1] * stride], base[index[0] * stride])};
    }
    void store(double* p) const { _mm_storeu_pd(p, v); }
    friend Sse2Lanes operator+(Sse2Lanes a, Sse2Lanes b) { return {_mm_add_pd(a.v, b.v)}; }
    friend Sse2Lanes operator-(Sse2Lanes a, Sse2Lanes b) { return {_mm_sub_pd(a.v, b.v)}; }
    friend Sse2Lanes operator-(Sse2Lanes a) { return {_mm_xor_pd(a.v, _mm_set1_pd(-0.0))}; }
    friend Sse2Lanes operator*(Sse2Lanes a, Sse2Lanes b) { return {_mm_mul_pd(a.v, b.v)}; }
    friend Sse2Lanes operator/(Sse2Lanes a, Sse2Lanes b) { return {_mm_div_pd(a.v, b.v)}; }
    friend Mask operator>(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmpgt_pd(a.v, b.v)}; }
    friend Mask operator>=(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmpge_pd(a.v, b.v)}; }
    friend Mask operator<=(Sse2Lanes a, Sse2Lanes b) { return {_mm_cmple_pd(a.v, b.v)}; }
    friend Sse2Lanes max(Sse2Lanes a, Sse2Lanes b) { return {_mm_max_pd(a.v, b.v)}; }
    friend Sse2Lanes min(Sse2Lanes a, Sse2Lanes b) { return {_mm_min_pd(a.v, b.v)}; }
    friend Sse2Lanes sqrt(Sse2Lanes a) { return {_mm_sqrt_pd(a.v)}; }
    friend Sse2Lanes select(Mask m, Sse2Lanes a, Sse2Lanes b) { return {_mm_or_pd(_mm_and_pd(m.m, a.v), _mm_andnot_pd(m.m, b.v))}; }
};

} // namespace
} // namespace jounce::detail
