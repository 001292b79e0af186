// SPDX-License-Identifier: MIT
#pragma once
// The scalar "lane" the block kernels (contact/soft_block_kernel.hpp) are written for,
// and the small vector algebra over lanes they use. A SIMD lane type (soft_kernel_sse2.cpp,
// soft_kernel_avx2.cpp) offers the same operations; max and min are defined as the
// SIMD instructions define them, max(a, b) = a > b ? a : b, so every width computes
// the same bits.

#include "contact/soft_blocks.hpp"

#include <cmath>
#include <cstdint>

namespace jounce::detail {

/// One lane real: the kernels' scalar twin.
struct ScalarLane {
    static constexpr int width = 1;
    using Mask = bool;
    lane_real v;
    static ScalarLane load(const lane_real* p) { return {*p}; }
    static ScalarLane splat(lane_real x) { return {x}; }
    /// base[index[l] * stride] for each lane l.
    static ScalarLane gather(const lane_real* base, const std::uint32_t* index, int stride) { return {base[index[0] * stride]}; }
    void store(lane_real* p) const { *p = v; }
    friend ScalarLane operator+(ScalarLane a, ScalarLane b) { return {a.v + b.v}; }
    friend ScalarLane operator-(ScalarLane a, ScalarLane b) { return {a.v - b.v}; }
    friend ScalarLane operator*(ScalarLane a, ScalarLane b) { return {a.v * b.v}; }
    friend ScalarLane operator/(ScalarLane a, ScalarLane b) { return {a.v / b.v}; }
    friend Mask operator>(ScalarLane a, ScalarLane b) { return a.v > b.v; }
    friend Mask operator>=(ScalarLane a, ScalarLane b) { return a.v >= b.v; }
    friend Mask operator<=(ScalarLane a, ScalarLane b) { return a.v <= b.v; }
    friend ScalarLane max(ScalarLane a, ScalarLane b) { return {a.v > b.v ? a.v : b.v}; }
    friend ScalarLane min(ScalarLane a, ScalarLane b) { return {a.v < b.v ? a.v : b.v}; }
    friend ScalarLane sqrt(ScalarLane a) { return {std::sqrt(a.v)}; }
    friend ScalarLane select(Mask m, ScalarLane a, ScalarLane b) { return m ? a : b; }
};

/// Both masks (scalar: plain bools).
inline bool both(bool a, bool b) { return a && b; }

template <class L> struct V3 {
    L x, y, z;
};
template <class L> inline V3<L> operator+(const V3<L>& a, const V3<L>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class L> inline V3<L> operator-(const V3<L>& a, const V3<L>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class L> inline V3<L> operator*(const V3<L>& a, L s) { return {a.x * s, a.y * s, a.z * s}; }
template <class L> inline L dot(const V3<L>& a, const V3<L>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class L> inline V3<L> cross(const V3<L>& a, const V3<L>& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// A symmetric 3x3 matrix (a world inverse inertia): xx yy zz xy xz yz.
template <class L> struct Sym3 {
    L xx, yy, zz, xy, xz, yz;
};
template <class L> inline V3<L> operator*(const Sym3<L>& m, const V3<L>& v) {
    return {m.xx * v.x + m.xy * v.y + m.xz * v.z, m.xy * v.x + m.yy * v.y + m.yz * v.z,
            m.xz * v.x + m.yz * v.y + m.zz * v.z};
}

/// A unit quaternion's rotation of v: v + w t + u x t with t = 2 u x v.
template <class L> inline V3<L> rotate(const V3<L>& u, L w, const V3<L>& v) {
    const L two = L::splat(2);
    const V3<L> t = cross(u, v) * two;
    return v + t * w + cross(u, t);
}

} // namespace jounce::detail
