// SPDX-License-Identifier: MIT
#pragma once
// Lanes on 256-bit registers: 4 doubles or 8 floats per instruction, with ScalarLanes'
// operations and results per lane (common/lanes.hpp). Include it only in a file
// compiled with -mavx2 (CMakeLists.txt), and call that file's functions only after
// simdLevel() says the processor has AVX2. The types sit in an anonymous namespace, as
// in lanes_sse2.hpp.

#include "common/lanes.hpp"

#include <immintrin.h>

namespace jounce::detail {
namespace {

template <class T> struct Avx2Lanes;

template <> struct Avx2Lanes<float> {
    static constexpr int width = 8;
    using Real = float;
    struct Mask {
        __m256 m;
        friend Mask both(Mask a, Mask b) { return {_mm256_and_ps(a.m, b.m)}; }
        friend bool any(Mask a) { return _mm256_movemask_ps(a.m) != 0; }
    };
    __m256 v;
    static Avx2Lanes load(const float* p) { return {_mm256_loadu_ps(p)}; }
    static Avx2Lanes splat(float x) { return {_mm256_set1_ps(x)}; }
    static Avx2Lanes gather(const float* base, const std::uint32_t* index, int stride) {
        return {_mm256_set_ps(base[index[7] * stride], base[index[6] * stride], base[index[5] * stride], base[index[4] * stride],
                              base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(float* p) const { _mm256_storeu_ps(p, v); }
    /// Eight x y z points: each point's x y in one 8-byte load, z in another, then
    /// transposed (Avx2Lanes<double>::gatherTriples' way).
    static V3<Avx2Lanes> gatherTriples(const float* p, const std::uint32_t* index) {
        const auto xy = [&](int l) {
            return _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 3 * std::size_t{index[l]})));
        };
        const auto z = [&](int l) { return p[3 * std::size_t{index[l]} + 2]; };
        // (x0 y0 x1 y1 | x4 y4 x5 y5) and (x2 y2 x3 y3 | x6 y6 x7 y7)
        const __m256 a = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_movelh_ps(xy(0), xy(1))), _mm_movelh_ps(xy(4), xy(5)), 1);
        const __m256 b = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_movelh_ps(xy(2), xy(3))), _mm_movelh_ps(xy(6), xy(7)), 1);
        return {{_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))}, {_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))},
                {_mm256_set_ps(z(7), z(6), z(5), z(4), z(3), z(2), z(1), z(0))}};
    }
    /// Four 4x4 transposes side by side: within each 128-bit half, row r of the result
    /// is column r of (a, b, c, d). In-half shuffles only (on processors that split
    /// 256-bit work in two, a shuffle across the halves costs several). Written out, no
    /// arrays: GCC keeps the registers then.
    static void transposeHalves(__m256& a, __m256& b, __m256& c, __m256& d) {
        const __m256 t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpackhi_ps(a, b);
        const __m256 t2 = _mm256_unpacklo_ps(c, d), t3 = _mm256_unpackhi_ps(c, d);
        a = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
        b = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
        c = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
        d = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    }
    /// Four floats of records p and q in the two halves of one register.
    static __m256 pairOf(const float* p, const float* q) {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(q), 1);
    }
    /// Eight adjacent floats of eight records (common/lanes.hpp, gatherEight): records l
    /// and l + 4 share a register, four floats in each half, then the halves are
    /// transposed; 16 loads where gather would take 64 and their inserts.
    static void gatherEight(const float* base, const std::uint32_t* index, int stride, Avx2Lanes (&out)[8]) {
        const std::size_t st = static_cast<std::size_t>(stride);
        const float *r0 = base + index[0] * st, *r1 = base + index[1] * st, *r2 = base + index[2] * st, *r3 = base + index[3] * st;
        const float *r4 = base + index[4] * st, *r5 = base + index[5] * st, *r6 = base + index[6] * st, *r7 = base + index[7] * st;
        __m256 a = pairOf(r0, r4), b = pairOf(r1, r5), c = pairOf(r2, r6), d = pairOf(r3, r7);
        transposeHalves(a, b, c, d);
        __m256 e = pairOf(r0 + 4, r4 + 4), f = pairOf(r1 + 4, r5 + 4), g = pairOf(r2 + 4, r6 + 4), h = pairOf(r3 + 4, r7 + 4);
        transposeHalves(e, f, g, h);
        out[0].v = a, out[1].v = b, out[2].v = c, out[3].v = d;
        out[4].v = e, out[5].v = f, out[6].v = g, out[7].v = h;
    }
    /// gatherEight's inverse: the same transposes, then four floats per store, for the
    /// lanes that write.
    static void scatterEight(float* base, const std::uint32_t* index, int stride, const Avx2Lanes (&in)[8], const std::uint8_t* writes) {
        const std::size_t st = static_cast<std::size_t>(stride);
        __m256 a = in[0].v, b = in[1].v, c = in[2].v, d = in[3].v;
        __m256 e = in[4].v, f = in[5].v, g = in[6].v, h = in[7].v;
        transposeHalves(a, b, c, d);
        transposeHalves(e, f, g, h);
        const auto put = [&](int l, __m128 low, __m128 high) {
            if (!writes[l]) return;
            float* r = base + index[l] * st;
            _mm_storeu_ps(r, low);
            _mm_storeu_ps(r + 4, high);
        };
        put(0, _mm256_castps256_ps128(a), _mm256_castps256_ps128(e));
        put(1, _mm256_castps256_ps128(b), _mm256_castps256_ps128(f));
        put(2, _mm256_castps256_ps128(c), _mm256_castps256_ps128(g));
        put(3, _mm256_castps256_ps128(d), _mm256_castps256_ps128(h));
        put(4, _mm256_extractf128_ps(a, 1), _mm256_extractf128_ps(e, 1));
        put(5, _mm256_extractf128_ps(b, 1), _mm256_extractf128_ps(f, 1));
        put(6, _mm256_extractf128_ps(c, 1), _mm256_extractf128_ps(g, 1));
        put(7, _mm256_extractf128_ps(d, 1), _mm256_extractf128_ps(h, 1));
    }
    /// gatherTriples' inverse: each point's x y in one 8-byte store, z in another.
    static void scatterTriples(float* p, const std::uint32_t* index, const V3<Avx2Lanes>& v) {
        const auto at = [&](int l) { return p + 3 * std::size_t{index[l]}; };
        const auto storeXy = [](float* q, __m128 xy) { _mm_storel_epi64(reinterpret_cast<__m128i*>(q), _mm_castps_si128(xy)); };
        // (x0 y0 x1 y1 | x4 y4 x5 y5) and (x2 y2 x3 y3 | x6 y6 x7 y7)
        const __m256 lo = _mm256_unpacklo_ps(v.x.v, v.y.v), hi = _mm256_unpackhi_ps(v.x.v, v.y.v);
        const __m128 pieces[4] = {_mm256_castps256_ps128(lo), _mm256_castps256_ps128(hi), _mm256_extractf128_ps(lo, 1),
                                  _mm256_extractf128_ps(hi, 1)};
        for (int k = 0; k < 4; ++k) {
            storeXy(at(2 * k), pieces[k]);
            storeXy(at(2 * k + 1), _mm_movehl_ps(pieces[k], pieces[k]));
        }
        alignas(32) float z[8];
        _mm256_store_ps(z, v.z.v);
        for (int l = 0; l < 8; ++l) at(l)[2] = z[l];
    }
    friend Avx2Lanes operator+(Avx2Lanes a, Avx2Lanes b) { return {_mm256_add_ps(a.v, b.v)}; }
    friend Avx2Lanes operator-(Avx2Lanes a, Avx2Lanes b) { return {_mm256_sub_ps(a.v, b.v)}; }
    friend Avx2Lanes operator-(Avx2Lanes a) { return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))}; }
    friend Avx2Lanes operator*(Avx2Lanes a, Avx2Lanes b) { return {_mm256_mul_ps(a.v, b.v)}; }
    friend Avx2Lanes operator/(Avx2Lanes a, Avx2Lanes b) { return {_mm256_div_ps(a.v, b.v)}; }
    friend Mask operator>(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
    friend Mask operator>=(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)}; }
    friend Mask operator<=(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OQ)}; }
    friend Avx2Lanes max(Avx2Lanes a, Avx2Lanes b) { return {_mm256_max_ps(a.v, b.v)}; }
    friend Avx2Lanes min(Avx2Lanes a, Avx2Lanes b) { return {_mm256_min_ps(a.v, b.v)}; }
    friend Avx2Lanes sqrt(Avx2Lanes a) { return {_mm256_sqrt_ps(a.v)}; }
    friend Avx2Lanes select(Mask m, Avx2Lanes a, Avx2Lanes b) { return {_mm256_blendv_ps(b.v, a.v, m.m)}; }
};

template <> struct Avx2Lanes<double> {
    static constexpr int width = 4;
    using Real = double;
    struct Mask {
        __m256d m;
        friend Mask both(Mask a, Mask b) { return {_mm256_and_pd(a.m, b.m)}; }
        friend bool any(Mask a) { return _mm256_movemask_pd(a.m) != 0; }
    };
    __m256d v;
    static Avx2Lanes load(const double* p) { return {_mm256_loadu_pd(p)}; }
    static Avx2Lanes splat(double x) { return {_mm256_set1_pd(x)}; }
    static Avx2Lanes gather(const double* base, const std::uint32_t* index, int stride) {
        return {_mm256_set_pd(base[index[3] * stride], base[index[2] * stride], base[index[1] * stride], base[index[0] * stride])};
    }
    void store(double* p) const { _mm256_storeu_pd(p, v); }
    /// Four x y z points: each point's x y in one load, z in another, then transposed
    /// (12 scalar loads and their inserts otherwise; the x y z of a point are adjacent).
    static V3<Avx2Lanes> gatherTriples(const double* p, const std::uint32_t* index) {
        const double *p0 = p + 3 * std::size_t{index[0]}, *p1 = p + 3 * std::size_t{index[1]};
        const double *p2 = p + 3 * std::size_t{index[2]}, *p3 = p + 3 * std::size_t{index[3]};
        const __m256d xy02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p0)), _mm_loadu_pd(p2), 1);
        const __m256d xy13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p1)), _mm_loadu_pd(p3), 1);
        const __m128d z01 = _mm_loadh_pd(_mm_load_sd(p0 + 2), p1 + 2), z23 = _mm_loadh_pd(_mm_load_sd(p2 + 2), p3 + 2);
        return {{_mm256_unpacklo_pd(xy02, xy13)}, {_mm256_unpackhi_pd(xy02, xy13)},
                {_mm256_insertf128_pd(_mm256_castpd128_pd256(z01), z23, 1)}};
    }
    /// gatherTriples' inverse: each point's x y in one store, z in another.
    static void scatterTriples(double* p, const std::uint32_t* index, const V3<Avx2Lanes>& v) {
        double *p0 = p + 3 * std::size_t{index[0]}, *p1 = p + 3 * std::size_t{index[1]};
        double *p2 = p + 3 * std::size_t{index[2]}, *p3 = p + 3 * std::size_t{index[3]};
        const __m256d xy02 = _mm256_unpacklo_pd(v.x.v, v.y.v), xy13 = _mm256_unpackhi_pd(v.x.v, v.y.v);
        _mm_storeu_pd(p0, _mm256_castpd256_pd128(xy02));
        _mm_storeu_pd(p1, _mm256_castpd256_pd128(xy13));
        _mm_storeu_pd(p2, _mm256_extractf128_pd(xy02, 1));
        _mm_storeu_pd(p3, _mm256_extractf128_pd(xy13, 1));
        const __m128d z01 = _mm256_castpd256_pd128(v.z.v), z23 = _mm256_extractf128_pd(v.z.v, 1);
        _mm_store_sd(p0 + 2, z01);
        _mm_storeh_pd(p1 + 2, z01);
        _mm_store_sd(p2 + 2, z23);
        _mm_storeh_pd(p3 + 2, z23);
    }
    friend Avx2Lanes operator+(Avx2Lanes a, Avx2Lanes b) { return {_mm256_add_pd(a.v, b.v)}; }
    friend Avx2Lanes operator-(Avx2Lanes a, Avx2Lanes b) { return {_mm256_sub_pd(a.v, b.v)}; }
    friend Avx2Lanes operator-(Avx2Lanes a) { return {_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))}; }
    friend Avx2Lanes operator*(Avx2Lanes a, Avx2Lanes b) { return {_mm256_mul_pd(a.v, b.v)}; }
    friend Avx2Lanes operator/(Avx2Lanes a, Avx2Lanes b) { return {_mm256_div_pd(a.v, b.v)}; }
    friend Mask operator>(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ)}; }
    friend Mask operator>=(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GE_OQ)}; }
    friend Mask operator<=(Avx2Lanes a, Avx2Lanes b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_LE_OQ)}; }
    friend Avx2Lanes max(Avx2Lanes a, Avx2Lanes b) { return {_mm256_max_pd(a.v, b.v)}; }
    friend Avx2Lanes min(Avx2Lanes a, Avx2Lanes b) { return {_mm256_min_pd(a.v, b.v)}; }
    friend Avx2Lanes sqrt(Avx2Lanes a) { return {_mm256_sqrt_pd(a.v)}; }
    friend Avx2Lanes select(Mask m, Avx2Lanes a, Avx2Lanes b) { return {_mm256_blendv_pd(b.v, a.v, m.m)}; }
};

} // namespace
} // namespace jounce::detail
