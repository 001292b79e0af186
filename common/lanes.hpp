// SPDX-License-Identifier: MIT
#pragma once
// SIMD "lanes": a real, or a register of them, with one set of operations, so a kernel
// written once for a lane type L runs one value at a time (ScalarLanes, the twin a
// debugger steps through) or several (common/lanes_sse2.hpp, common/lanes_avx2.hpp)
// with the same bits in every lane. The rules that make the bits the same: only
// operations IEEE rounds exactly (+ - * / sqrt, compare, select), in the same order in
// every width; no fused multiply-add (the SIMD files are built without -mfma); max and
// min as the instructions define them, max(a, b) = a > b ? a : b; negation flips the sign
// bit (0 - x differs from -x at zero).
//
// Users: the coloured contact solver (contact/soft_block_kernel.hpp) and the particle
// layer's level sweeps (physics/particles/distance_kernel.hpp, small_kernel.hpp,
// pair_kernel.hpp) and its lines (line_kernel.hpp).

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace jounce::detail {

/// One real of type T: the kernels' scalar twin.
template <class T> struct ScalarLanes {
    static constexpr int width = 1;
    using Real = T;
    using Mask = bool;
    T v;
    static ScalarLanes load(const T* p) { return {*p}; }
    static ScalarLanes splat(T x) { return {x}; }
    /// base[index[l] * stride] for each lane l.
    static ScalarLanes gather(const T* base, const std::uint32_t* index, int stride) { return {base[index[0] * stride]}; }
    void store(T* p) const { *p = v; }
    /// gatherEight and scatterEight (below) for one lane: the record's reals straight.
    static void gatherEight(const T* base, const std::uint32_t* index, int stride, ScalarLanes (&out)[8]) {
        const T* r = base + static_cast<std::size_t>(index[0]) * static_cast<std::size_t>(stride);
        for (int f = 0; f < 8; ++f) out[f].v = r[f];
    }
    static void scatterEight(T* base, const std::uint32_t* index, int stride, const ScalarLanes (&in)[8], const std::uint8_t* writes) {
        if (!writes[0]) return;
        T* r = base + static_cast<std::size_t>(index[0]) * static_cast<std::size_t>(stride);
        for (int f = 0; f < 8; ++f) r[f] = in[f].v;
    }
    friend ScalarLanes operator+(ScalarLanes a, ScalarLanes b) { return {a.v + b.v}; }
    friend ScalarLanes operator-(ScalarLanes a, ScalarLanes b) { return {a.v - b.v}; }
    friend ScalarLanes operator-(ScalarLanes a) { return {-a.v}; }
    friend ScalarLanes operator*(ScalarLanes a, ScalarLanes b) { return {a.v * b.v}; }
    friend ScalarLanes operator/(ScalarLanes a, ScalarLanes b) { return {a.v / b.v}; }
    friend Mask operator>(ScalarLanes a, ScalarLanes b) { return a.v > b.v; }
    friend Mask operator>=(ScalarLanes a, ScalarLanes b) { return a.v >= b.v; }
    friend Mask operator<=(ScalarLanes a, ScalarLanes b) { return a.v <= b.v; }
    friend ScalarLanes max(ScalarLanes a, ScalarLanes b) { return {a.v > b.v ? a.v : b.v}; }
    friend ScalarLanes min(ScalarLanes a, ScalarLanes b) { return {a.v < b.v ? a.v : b.v}; }
    friend ScalarLanes sqrt(ScalarLanes a) { return {std::sqrt(a.v)}; }
    friend ScalarLanes select(Mask m, ScalarLanes a, ScalarLanes b) { return m ? a : b; }
};

/// Both masks (scalar: plain bools).
inline bool both(bool a, bool b) { return a && b; }
/// Whether any lane is set (scalar: the bool); for a kernel to pass over a register
/// with nothing to do, which changes no lane's bits.
inline bool any(bool a) { return a; }

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

/// Points stored as x y z triples: lane l of the result is point index[l] of p. A lane
/// type may bring its own (Avx2Lanes loads each point's x y and its z and transposes);
/// the values are the same either way.
template <class L> inline V3<L> gatherTriples(const typename L::Real* p, const std::uint32_t* index) {
    if constexpr (requires { L::gatherTriples(p, index); }) {
        return L::gatherTriples(p, index);
    } else {
        return {L::gather(p, index, 3), L::gather(p + 1, index, 3), L::gather(p + 2, index, 3)};
    }
}
/// Writes lanes [0, lanes) of v to points index[l] of p (the points of a register's
/// rows are distinct, so the order does not matter).
template <class L> inline void scatterTriples(typename L::Real* p, const std::uint32_t* index, const V3<L>& v, int lanes = L::width) {
    if constexpr (requires { L::scatterTriples(p, index, v); }) {
        if (lanes == L::width) return L::scatterTriples(p, index, v);
    }
    using T = typename L::Real;
    alignas(64) T x[L::width], y[L::width], z[L::width];
    v.x.store(x);
    v.y.store(y);
    v.z.store(z);
    for (int l = 0; l < lanes; ++l) {
        T* q = p + 3 * static_cast<std::size_t>(index[l]);
        q[0] = x[l];
        q[1] = y[l];
        q[2] = z[l];
    }
}

/// Eight adjacent reals of each lane's record: lane l of out[f] is
/// base[index[l] * stride + f]. A lane type may bring its own (Avx2Lanes<float> loads
/// each record's eight in one instruction and transposes); the values are the same.
template <class L> inline void gatherEight(const typename L::Real* base, const std::uint32_t* index, int stride, L (&out)[8]) {
    if constexpr (requires { L::gatherEight(base, index, stride, out); }) {
        L::gatherEight(base, index, stride, out);
    } else {
        for (int f = 0; f < 8; ++f) out[f] = L::gather(base + f, index, stride);
    }
}
/// gatherEight's inverse, for the lanes l where writes[l] is set (the records of those
/// lanes are distinct, so the order does not matter).
template <class L>
inline void scatterEight(typename L::Real* base, const std::uint32_t* index, int stride, const L (&in)[8], const std::uint8_t* writes) {
    if constexpr (requires { L::scatterEight(base, index, stride, in, writes); }) {
        L::scatterEight(base, index, stride, in, writes);
    } else {
        using T = typename L::Real;
        alignas(64) T t[8][L::width];
        for (int f = 0; f < 8; ++f) in[f].store(t[f]);
        for (int l = 0; l < L::width; ++l) {
            if (!writes[l]) continue;
            T* q = base + static_cast<std::size_t>(index[l]) * static_cast<std::size_t>(stride);
            for (int f = 0; f < 8; ++f) q[f] = t[f][l];
        }
    }
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
