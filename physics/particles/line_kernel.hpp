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
//                                                  end and link j + 1's first),
// symmetric positive definite while no link is degenerate, so Gaussian elimination
// without pivoting (the Thomas algorithm) solves it in O(n):
//   pivot_j = w_j + w_{j+1} - off_{j-1} upper_{j-1},   upper_j = off_j / pivot_j,
//   y_j = (-C_j - off_{j-1} y_{j-1}) / pivot_j,         dlambda_j = y_j - upper_j dlambda_{j+1},
// and the particles move by dp_i = w_i (n_i dlambda_i - n_{i-1} dlambda_{i-1}). A link
// whose ends coincide has no direction and no correction; a pivot that is not positive
// (round-off between pinned ends) decouples its link with no correction.

#include "common/hot_inline.hpp"
#include "common/lanes.hpp"
#include "physics/particles/distance_lines.hpp"

#include <cstddef>

namespace jounce::detail {

/// What the kernels read and write.
struct LineView {
    real* p = nullptr;            ///< positions, x y z triples
    const real* w = nullptr;      ///< inverse masses
    const std::uint32_t* particle = nullptr;
    const real* restLength = nullptr;
    real *lambda = nullptr, *nx = nullptr, *ny = nullptr, *nz = nullptr, *upper = nullptr, *rhs = nullptr;
};

template <class L> struct LineKernel {
    using T = typename L::Real;
    static constexpr int n = L::width;

    /// Lanes [lane, lane + n) of a bundle of `links` links per line whose particle and
    /// link entries start at `particles` and `linksAt` (in bundleWidth units); `write`
    /// of them are lines (the rest repeat the first and are not written back).
    static void solve(const LineView& v, std::size_t particles, std::size_t linksAt, std::size_t links, std::size_t lane, int write) {
        const std::uint32_t* q = v.particle + particles * bundleWidth + lane;
        const std::size_t o = linksAt * bundleWidth + lane;
        const L zero = L::splat(T(0)), one = L::splat(T(1)), tiny = L::splat(T(1e-12));
        // Directions and errors.
        for (std::size_t j = 0; j < links; ++j) {
            const std::size_t e = o + j * bundleWidth;
            const V3<L> d = gatherTriples<L>(v.p, q + j * bundleWidth) - gatherTriples<L>(v.p, q + (j + 1) * bundleWidth);
            const L length = sqrt(d.x * d.x + (d.y * d.y + d.z * d.z));
            const auto apart = length > tiny;
            const L inverse = one / select(apart, length, one);
            select(apart, d.x * inverse, zero).store(v.nx + e);
            select(apart, d.y * inverse, zero).store(v.ny + e);
            select(apart, d.z * inverse, zero).store(v.nz + e);
            select(apart, L::load(v.restLength + e) - length, zero).store(v.rhs + e);
        }
        // Elimination.
        L offBefore = zero, upperBefore = zero, yBefore = zero;
        for (std::size_t j = 0; j < links; ++j) {
            const std::size_t e = o + j * bundleWidth;
            const L wj = L::gather(v.w, q + j * bundleWidth, 1), wNext = L::gather(v.w, q + (j + 1) * bundleWidth, 1);
            const L pivot = wj + wNext - offBefore * upperBefore;
            L off = zero;
            if (j + 1 < links) {
                const std::size_t f = e + bundleWidth;
                const L along = L::load(v.nx + e) * L::load(v.nx + f) + (L::load(v.ny + e) * L::load(v.ny + f) + L::load(v.nz + e) * L::load(v.nz + f));
                off = -(wNext * along);
            }
            const auto positive = pivot > zero;
            const L inverse = one / select(positive, pivot, one);
            upperBefore = select(positive, off * inverse, zero);
            yBefore = select(positive, (L::load(v.rhs + e) - offBefore * yBefore) * inverse, zero);
            offBefore = select(positive, off, zero);
            upperBefore.store(v.upper + e);
            yBefore.store(v.rhs + e);
        }
        // Back substitution: rhs becomes dlambda.
        L after = L::load(v.rhs + o + (links - 1) * bundleWidth);
        for (std::size_t j = links - 1; j-- > 0;) {
            const std::size_t e = o + j * bundleWidth;
            after = L::load(v.rhs + e) - L::load(v.upper + e) * after;
            after.store(v.rhs + e);
        }
        // The particles' moves, and the multipliers.
        for (std::size_t i = 0; i <= links; ++i) {
            const std::size_t e = o + i * bundleWidth, b = e - bundleWidth;
            const L along = i < links ? L::load(v.rhs + e) : zero, before = i > 0 ? L::load(v.rhs + b) : zero;
            const V3<L> ni = i < links ? V3<L>{L::load(v.nx + e), L::load(v.ny + e), L::load(v.nz + e)} : V3<L>{zero, zero, zero};
            const V3<L> nb = i > 0 ? V3<L>{L::load(v.nx + b), L::load(v.ny + b), L::load(v.nz + b)} : V3<L>{zero, zero, zero};
            const L wi = L::gather(v.w, q + i * bundleWidth, 1);
            const V3<L> at = gatherTriples<L>(v.p, q + i * bundleWidth);
            const V3<L> moved{at.x + wi * (ni.x * along - nb.x * before), at.y + wi * (ni.y * along - nb.y * before),
                              at.z + wi * (ni.z * along - nb.z * before)};
            scatterTriples<L>(v.p, q + i * bundleWidth, moved, write);
        }
        for (std::size_t j = 0; j < links; ++j) {
            const std::size_t e = o + j * bundleWidth;
            (L::load(v.lambda + e) + L::load(v.rhs + e)).store(v.lambda + e);
        }
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
