// SPDX-License-Identifier: MIT
#pragma once
// The lines' exact solve (distance_lines.hpp), written once for a lane type L
// (common/lanes.hpp) and instantiated per width: solve_lines.cpp (one line at a time,
// the twin a debugger steps through), line_kernel_sse2.cpp and line_kernel_avx2.cpp.
// A register holds the same step of several lines of one bundle; the lines of a colour
// share no particle, so they are gathered, solved and scattered together with the bits
// of solving them one by one.
//
// For one line of n links between particles 0 .. n, with directions n_j and
// inverse masses w_i, the linearised system (J W J^T) dlambda = -C has
//   diagonal    w_j + w_{j+1},
//   beside it   off_j = -w_{j+1} n_j . n_{j+1}   (particle j + 1 is link j's second
//                                                  end and link j + 1's first).
// It is singular for a straight line pinned at both ends (a uniform tension moves
// nothing) and nearly so for a nearly straight one, where the exact Newton step would
// throw the middle sideways by about C / theta for a kink of theta. That shows in the
// elimination as a pivot far below its diagonal (a hanging chain's pivots stay at
// least w_j, however long it is), so each pivot is kept at 1/64 of its diagonal or
// more: the step then stays within a few times |C| (the largest theta C /
// (theta^2 + mu) is C / (2 sqrt(mu))), and a line that is not nearly singular is
// solved exactly. Then Gaussian elimination without pivoting (the Thomas algorithm)
// solves it in O(n):
//   pivot_j = max(d_j - off_{j-1} upper_{j-1}, d_j / 64),   d_j = w_j + w_{j+1},
//   upper_j = off_j / pivot_j,   y_j = (-C_j - off_{j-1} y_{j-1}) / pivot_j,
//   dlambda_j = y_j - upper_j dlambda_{j+1},
// and the particles move by dp_i = w_i (n_i dlambda_i - n_{i-1} dlambda_{i-1}). A link
// whose ends coincide has no direction and no correction; a pivot that is not positive
// (never, but round-off is checked) decouples its link with no correction.

#include "common/hot_inline.hpp"
#include "common/lanes.hpp"
#include "physics/particles/distance_lines.hpp"

#include <cstddef>

namespace jounce::detail {

/// What the kernels read and write.
struct LineView {
    real* p = nullptr; ///< positions, x y z triples
    const std::uint32_t* particle = nullptr;
    const real* w = nullptr; ///< per particle entry
    real *px = nullptr, *py = nullptr, *pz = nullptr;
    const real* restLength = nullptr;
    real *lambda = nullptr, *nx = nullptr, *ny = nullptr, *nz = nullptr, *upper = nullptr, *rhs = nullptr;
};

template <class L> struct LineKernel {
    using T = typename L::Real;
    static constexpr int n = L::width;

    /// Particle entry e's position, gathered and kept for the way back.
    JOUNCE_HOT_INLINE static V3<L> fetch(const LineView& v, const std::uint32_t* q, std::size_t e) {
        const V3<L> at = gatherTriples<L>(v.p, q);
        at.x.store(v.px + e);
        at.y.store(v.py + e);
        at.z.store(v.pz + e);
        return at;
    }

    struct Link {
        V3<L> n; ///< direction (zero when the ends coincide)
        L rhs;   ///< -C (zero then too)
    };
    JOUNCE_HOT_INLINE static Link link(const V3<L>& a, const V3<L>& b, L rest) {
        const L zero = L::splat(T(0)), one = L::splat(T(1)), tiny = L::splat(T(1e-12));
        const V3<L> d = a - b;
        const L length = sqrt(d.x * d.x + (d.y * d.y + d.z * d.z));
        const auto apart = length > tiny;
        const L inverse = one / select(apart, length, one);
        return {{select(apart, d.x * inverse, zero), select(apart, d.y * inverse, zero), select(apart, d.z * inverse, zero)},
                select(apart, rest - length, zero)};
    }

    /// Particle entry e moved by w (n_i along - n_b before) and written back.
    JOUNCE_HOT_INLINE static void move(const LineView& v, const std::uint32_t* q, std::size_t e, const V3<L>& ni, L along,
                                       const V3<L>& nb, L before, int write) {
        const L wi = L::load(v.w + e);
        const V3<L> moved{L::load(v.px + e) + wi * (ni.x * along - nb.x * before), L::load(v.py + e) + wi * (ni.y * along - nb.y * before),
                          L::load(v.pz + e) + wi * (ni.z * along - nb.z * before)};
        scatterTriples<L>(v.p, q, moved, write);
    }

    /// Lanes [lane, lane + n) of a bundle of `links` links per line whose particle and
    /// link entries start at `particles` and `linksAt` (in bundleWidth units); `write`
    /// of them are lines (the rest repeat the first and are not written back). Two
    /// passes: forward, each link's direction one ahead of the elimination that needs
    /// it; backward, the substitution, each particle moved as soon as both its links'
    /// multipliers are known.
    static void solve(const LineView& v, std::size_t particles, std::size_t linksAt, std::size_t links, std::size_t lane, int write) {
        constexpr std::size_t B = bundleWidth;
        const std::uint32_t* q = v.particle + particles * B + lane;
        const std::size_t pe = particles * B + lane, le = linksAt * B + lane;
        const L zero = L::splat(T(0)), one = L::splat(T(1)), floor = L::splat(T(1) / 64);
        const V3<L> none{zero, zero, zero};
        V3<L> after = fetch(v, q + B, pe + B);
        Link here = link(fetch(v, q, pe), after, L::load(v.restLength + le));
        L offBefore = zero, upperBefore = zero, yBefore = zero;
        L wj = L::load(v.w + pe);
        for (std::size_t j = 0; j < links; ++j) {
            const std::size_t e = le + j * B;
            Link next{none, zero};
            if (j + 1 < links) {
                const V3<L> beyond = fetch(v, q + (j + 2) * B, pe + (j + 2) * B);
                next = link(after, beyond, L::load(v.restLength + e + B));
                after = beyond;
            }
            const L wNext = L::load(v.w + pe + (j + 1) * B);
            const L diagonal = wj + wNext;
            const L pivot = max(diagonal - offBefore * upperBefore, diagonal * floor);
            const L off = j + 1 < links ? -(wNext * (here.n.x * next.n.x + (here.n.y * next.n.y + here.n.z * next.n.z))) : zero;
            const auto positive = pivot > zero;
            const L inverse = one / select(positive, pivot, one);
            upperBefore = select(positive, off * inverse, zero);
            yBefore = select(positive, (here.rhs - offBefore * yBefore) * inverse, zero);
            offBefore = select(positive, off, zero);
            upperBefore.store(v.upper + e);
            yBefore.store(v.rhs + e);
            here.n.x.store(v.nx + e);
            here.n.y.store(v.ny + e);
            here.n.z.store(v.nz + e);
            here = next;
            wj = wNext;
        }
        // Backward: dlambda_j = y_j - upper_j dlambda_{j+1}; particle j + 1 moves once
        // dlambda_j and dlambda_{j+1} are known, particle 0 last.
        L along = zero; // dlambda_{j+1}
        V3<L> nAlong = none;
        for (std::size_t j = links; j-- > 0;) {
            const std::size_t e = le + j * B;
            const L x = j + 1 < links ? L::load(v.rhs + e) - L::load(v.upper + e) * along : L::load(v.rhs + e);
            const V3<L> nj{L::load(v.nx + e), L::load(v.ny + e), L::load(v.nz + e)};
            move(v, q + (j + 1) * B, pe + (j + 1) * B, nAlong, along, nj, x, write);
            (L::load(v.lambda + e) + x).store(v.lambda + e);
            along = x;
            nAlong = nj;
        }
        move(v, q, pe, nAlong, along, none, zero, write);
    }
};

/// A SIMD kernel for the lines (0 width: not built for this processor family).
struct LineLanes {
    int width = 0;
    void (*solve)(const LineView&, std::size_t particles, std::size_t linksAt, std::size_t links, std::size_t lane, int write) = nullptr;
};
LineLanes sse2LineLanes();
LineLanes avx2LineLanes();

} // namespace jounce::detail
