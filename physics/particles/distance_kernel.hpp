// SPDX-License-Identifier: MIT
#pragma once
// The distance constraints' projection (project_constraints.cpp gives the XPBD step),
// written once for a lane type L (common/lanes.hpp) and instantiated per width:
// project_constraints.cpp (one row at a time, and projectDistances, which picks the
// width), distance_kernel_sse2.cpp and distance_kernel_avx2.cpp. Rows of one sweep level share no particle
// (sweep_levels.hpp), so n of them can be gathered, projected and scattered together
// with the bits of projecting them one by one.
//
// The arithmetic is the same for every width, operation for operation: |d|^2 in
// Eigen's order, x^2 + (y^2 + z^2); n = d * (1 / |d|), one division; the multiplier
// change times the row's packed scale (distance_rows.hpp), no division. A row whose
// particles coincide (|d| <= 1e-12) has no direction: it divides by 1 instead and its
// lane keeps its old values (no lane divides by zero: the tests trap).

#include "common/hot_inline.hpp"
#include "common/lanes.hpp"
#include "physics/particles/distance_rows.hpp"

#include <cstddef>

namespace jounce::detail {

template <class L> struct DistanceKernel {
    using T = typename L::Real;
    static constexpr int n = L::width;

    JOUNCE_HOT_INLINE static V3<L> gather3(const T* p, const std::uint32_t* index) { return gatherTriples<L>(p, index); }
    /// Writes lane l of v to particle index[l].
    JOUNCE_HOT_INLINE static void scatter3(T* p, const std::uint32_t* index, const V3<L>& v) { scatterTriples<L>(p, index, v); }

    struct Ends {
        V3<L> a, b; ///< the two particles' positions
    };

    /// Rows [i, i + n): their particles' new positions (their multipliers updated).
    JOUNCE_HOT_INLINE static Ends solve(const DistanceRowView& r, std::size_t i, const Ends& at) {
        const L tiny = L::splat(T(1e-12)), one = L::splat(T(1));
        const V3<L> d = at.a - at.b;
        const L length = sqrt(d.x * d.x + (d.y * d.y + d.z * d.z));
        const auto apart = length > tiny;
        const L inverse = one / select(apart, length, one);
        const V3<L> normal{d.x * inverse, d.y * inverse, d.z * inverse}; // grad_a C = n, grad_b C = -n
        const L wa = L::load(r.wa + i), wb = L::load(r.wb + i), lambda = L::load(r.lambda + i);
        const L c = length - L::load(r.restLength + i), scale = L::load(r.scale + i);
        // XPBD: dlambda = (-C - alpha~ lambda) / (wa + wb + alpha~); PBD: -k' C / (wa + wb).
        const L dlambda = r.pbd ? -c * scale : (-c - L::load(r.alphaTilde + i) * lambda) * scale;
        select(apart, lambda + dlambda, lambda).store(r.lambda + i);
        const L sa = wa * dlambda, sb = wb * dlambda;
        return {{select(apart, at.a.x + normal.x * sa, at.a.x), select(apart, at.a.y + normal.y * sa, at.a.y),
                 select(apart, at.a.z + normal.z * sa, at.a.z)},
                {select(apart, at.b.x - normal.x * sb, at.b.x), select(apart, at.b.y - normal.y * sb, at.b.y),
                 select(apart, at.b.z - normal.z * sb, at.b.z)}};
    }

    JOUNCE_HOT_INLINE static Ends gather(const DistanceRowView& r, std::size_t i) { return {gather3(r.p, r.a + i), gather3(r.p, r.b + i)}; }
    JOUNCE_HOT_INLINE static void scatter(const DistanceRowView& r, std::size_t i, const Ends& e) {
        scatter3(r.p, r.a + i, e.a);
        scatter3(r.p, r.b + i, e.b);
    }

    /// Rows [begin, end) of one level, end - begin a multiple of n. Two registers of rows
    /// at a time, all loads before all stores: the rows of a level share no particle, so
    /// this is allowed, and it lets the processor overlap the two chains of square root
    /// and division (a store the compiler cannot see past would otherwise order them).
    static void project(const DistanceRowView& r, std::size_t begin, std::size_t end) {
        std::size_t i = begin;
        for (; i + 2 * n <= end; i += 2 * n) {
            const Ends first = gather(r, i), second = gather(r, i + n);
            const Ends movedFirst = solve(r, i, first), movedSecond = solve(r, i + n, second);
            scatter(r, i, movedFirst);
            scatter(r, i + n, movedSecond);
        }
        if (i < end) scatter(r, i, solve(r, i, gather(r, i)));
    }
};

} // namespace jounce::detail
