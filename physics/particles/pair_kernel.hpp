// SPDX-License-Identifier: MIT
#pragma once
// The particle-particle contacts' three passes (particle_collisions.cpp and
// update_velocities.cpp give the steps): the projection with friction, the
// pre-stabilisation and the bounce, written once for a lane type L (common/lanes.hpp)
// and instantiated per width: one row at a time where the passes run (their last rows of
// a colour), pair_kernel_sse2.cpp and pair_kernel_avx2.cpp (sweepPairs picks the
// width). Contacts of one colour share no particle (orderPairContacts), so n of them can
// be gathered, solved and scattered together with the bits of one at a time.
//
// For each pair, with d = p_a - p_b and reach = r_a + r_b:
//   C = |d| - reach >= 0; if C < 0 (and w_a + w_b > 0):
//   n = d / |d| (the contact's normal of the world substep's start if |d| <= 1e-12),
//   p_a -= n (C w_a / (w_a + w_b)), p_b += n (C w_b / (w_a + w_b)),
//   then friction on the pair's relative displacement in the small step,
//   dx = (p_a - x_a) - (p_b - x_b): its tangential part t = dx - n (dx . n) is taken
//   away whole if |t| < mu_s |C| (stick), else shortened by mu_k |C| (at most all of
//   it), shared by w_a / (w_a + w_b) and w_b / (w_a + w_b) (Macklin et al. 2014).
// Every operation in that order, sums of three in Eigen's x + (y + z): a lane that does
// not touch computes the same and keeps its old values (select), and divides by 1
// where it would divide by zero (the tests trap); a register none of whose rows touch
// stops after the distances. The conditions are the one-at-a-time code's, NaN included
// (a NaN distance goes on, as there: select(x >= 0, 0, 1) for its !(x >= 0)).

#include "common/hot_inline.hpp"
#include "common/lanes.hpp"
#include "physics/particles/pair_rows.hpp"

#include <cstddef>

namespace jounce::detail {

template <class L> struct PairKernel {
    using T = typename L::Real;
    static constexpr int n = L::width;

    struct Ends {
        V3<L> a, b; ///< the two particles' positions
    };

    /// x . y summed as Eigen sums a 3-vector's products: x0 y0 + (x1 y1 + x2 y2).
    JOUNCE_HOT_INLINE static L sum3(const V3<L>& u, const V3<L>& v) { return u.x * v.x + (u.y * v.y + u.z * v.z); }
    JOUNCE_HOT_INLINE static V3<L> select3(typename L::Mask m, const V3<L>& u, const V3<L>& v) {
        return {select(m, u.x, v.x), select(m, u.y, v.y), select(m, u.z, v.z)};
    }

    /// Rows [i, i + n): their particles' new positions.
    JOUNCE_HOT_INLINE static Ends solve(const PairRowView& r, std::size_t i, const Ends& at) {
        const L zero = L::splat(T(0)), one = L::splat(T(1)), tiny = L::splat(T(1e-12));
        const L wa = L::gather(r.w, r.a + i, 1), wb = L::gather(r.w, r.b + i, 1), total = wa + wb;
        const L reach = L::gather(r.radius, r.a + i, 1) + L::gather(r.radius, r.b + i, 1);
        const V3<L> d = at.a - at.b;
        const L length = sqrt(sum3(d, d));
        const L value = length - reach;
        const auto touching = both(total > zero, select(value >= zero, zero, one) > zero); // !(C >= 0)
        if (!any(touching)) return at; // most candidate pairs do not touch: the same bits, sooner
        const auto apart = length > tiny;
        const L divisor = select(apart, length, one);
        const V3<L> normal{select(apart, d.x / divisor, L::load(r.nx + i)), select(apart, d.y / divisor, L::load(r.ny + i)),
                           select(apart, d.z / divisor, L::load(r.nz + i))};
        const L shared = select(touching, total, one);
        const V3<L> a1 = at.a - normal * (value * wa / shared), b1 = at.b + normal * (value * wb / shared);
        // Friction on the relative displacement over the small step.
        const V3<L> dx = (a1 - gatherTriples<L>(r.x, r.a + i)) - (b1 - gatherTriples<L>(r.x, r.b + i));
        const V3<L> t = dx - normal * sum3(dx, normal);
        const L tangential = sqrt(sum3(t, t));
        // A lane that does not touch divides nothing by a tiny slip (no overflow to trap).
        const L depth = select(touching, -value, zero);
        const auto sticks = L::load(r.staticFriction + i) * depth > tangential;
        const auto slides = tangential > zero;
        const L kinetic = L::load(r.kineticFriction + i) * depth / select(slides, tangential, one);
        const L share = select(kinetic > one, one, kinetic); // std::min(kinetic, 1)
        const V3<L> f{select(sticks, t.x, select(slides, t.x * share, zero)), select(sticks, t.y, select(slides, t.y * share, zero)),
                      select(sticks, t.z, select(slides, t.z * share, zero))};
        return {select3(touching, a1 - f * (wa / shared), at.a), select3(touching, b1 + f * (wb / shared), at.b)};
    }

    JOUNCE_HOT_INLINE static Ends gather(const PairRowView& r, std::size_t i) {
        return {gatherTriples<L>(r.p, r.a + i), gatherTriples<L>(r.p, r.b + i)};
    }
    JOUNCE_HOT_INLINE static void scatter(const PairRowView& r, std::size_t i, const Ends& e) {
        scatterTriples<L>(r.p, r.a + i, e.a);
        scatterTriples<L>(r.p, r.b + i, e.b);
    }

    /// Rows [i, i + n) pre-stabilised (Macklin et al. 2014, sec. 5): a pair that overlaps
    /// at the small step's start x is pushed apart there, at x and p alike, by
    /// overlap w_a / (w_a + w_b) and overlap w_b / (w_a + w_b) along n.
    JOUNCE_HOT_INLINE static void stabilize(const PairRowView& r, std::size_t i) {
        const L zero = L::splat(T(0)), one = L::splat(T(1)), tiny = L::splat(T(1e-12));
        const L wa = L::gather(r.w, r.a + i, 1), wb = L::gather(r.w, r.b + i, 1), total = wa + wb;
        const L reach = L::gather(r.radius, r.a + i, 1) + L::gather(r.radius, r.b + i, 1);
        const V3<L> xa = gatherTriples<L>(r.x, r.a + i), xb = gatherTriples<L>(r.x, r.b + i);
        const V3<L> d = xa - xb;
        const L length = sqrt(sum3(d, d));
        const L overlap = reach - length;
        const auto overlapping = both(total > zero, overlap > zero);
        if (!any(overlapping)) return;
        const auto apart = length > tiny;
        const L divisor = select(apart, length, one), shared = select(overlapping, total, one);
        const V3<L> normal{select(apart, d.x / divisor, L::load(r.nx + i)), select(apart, d.y / divisor, L::load(r.ny + i)),
                           select(apart, d.z / divisor, L::load(r.nz + i))};
        const V3<L> moveA = normal * (overlap * wa / shared), moveB = normal * (-overlap * wb / shared);
        const V3<L> pa = gatherTriples<L>(r.p, r.a + i), pb = gatherTriples<L>(r.p, r.b + i);
        scatterTriples<L>(r.x, r.a + i, select3(overlapping, xa + moveA, xa));
        scatterTriples<L>(r.p, r.a + i, select3(overlapping, pa + moveA, pa));
        scatterTriples<L>(r.x, r.b + i, select3(overlapping, xb + moveB, xb));
        scatterTriples<L>(r.p, r.b + i, select3(overlapping, pb + moveB, pb));
    }
    static void preStabilize(const PairRowView& r, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; i += n) stabilize(r, i);
    }

    /// Rows [i, i + n) bounced (bouncePairs) at the end of a small step: a pair within
    /// its radii (+ 1e-6 m) gets the normal velocity -e times its closing speed of the
    /// world substep's start if that was at least the threshold; else it loses any
    /// separating speed (what the push out of an overlap gave it: not earned). The change
    /// is shared by inverse mass, and both particles' BDF2 histories end.
    JOUNCE_HOT_INLINE static void bounceRows(const PairRowView& r, std::size_t i) {
        const L zero = L::splat(T(0)), one = L::splat(T(1));
        const L reach = L::gather(r.radius, r.a + i, 1) + L::gather(r.radius, r.b + i, 1) + L::splat(T(1e-6));
        const V3<L> d = gatherTriples<L>(r.x, r.a + i) - gatherTriples<L>(r.x, r.b + i);
        const L squared = sum3(d, d);
        const auto near = select(squared > reach * reach, zero, one) > zero; // !(|d|^2 > reach^2)
        if (!any(near)) return;
        const auto hasDirection = squared > zero;
        const L divisor = select(hasDirection, sqrt(squared), one);
        const V3<L> normal{select(hasDirection, d.x / divisor, L::load(r.nx + i)),
                           select(hasDirection, d.y / divisor, L::load(r.ny + i)),
                           select(hasDirection, d.z / divisor, L::load(r.nz + i))};
        const V3<L> va = gatherTriples<L>(r.v, r.a + i), vb = gatherTriples<L>(r.v, r.b + i);
        const L vn = sum3(va - vb, normal);
        const L e = L::load(r.restitution + i), startVn = L::load(r.normalVelocity + i); // < 0: closing
        const auto bounces = both(e > zero, -startVn >= L::splat(r.restitutionThreshold));
        const L change = select(bounces, -e * startVn, zero) - vn;
        // Acts when it bounces or removes separating speed: bounces or !(change >= 0).
        const auto acts = both(near, select(bounces, one, select(change >= zero, zero, one)) > zero);
        if (!any(acts)) return;
        alignas(64) T acting[n];
        select(acts, one, zero).store(acting);
        for (int l = 0; l < n; ++l)
            if (acting[l] != T(0)) r.hasHistory[r.a[i + std::size_t(l)]] = r.hasHistory[r.b[i + std::size_t(l)]] = 0;
        const L wa = L::gather(r.w, r.a + i, 1), wb = L::gather(r.w, r.b + i, 1), total = wa + wb;
        const auto applies = both(acts, total > zero);
        const L shared = select(applies, total, one);
        scatterTriples<L>(r.v, r.a + i, select3(applies, va + normal * (change * wa / shared), va));
        scatterTriples<L>(r.v, r.b + i, select3(applies, vb - normal * (change * wb / shared), vb));
    }
    static void bounce(const PairRowView& r, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; i += n) bounceRows(r, i);
    }

    /// Rows [begin, end) of one colour, end - begin a multiple of n (one at a time for
    /// ScalarLanes). Two registers at a time, all loads before all stores, as the
    /// distance kernel does: the two chains of square roots and divisions overlap.
    static void project(const PairRowView& r, std::size_t begin, std::size_t end) {
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
