// SPDX-License-Identifier: MIT
#pragma once
// The tetrahedral volume and isometric bending projections (project_small_constraints.cpp
// gives their mathematics: constraintValue, and the XPBD step, multiplierChange), written
// once for a lane type L (common/lanes.hpp) and instantiated per width:
// project_small_constraints.cpp (one row at a time), small_kernel_sse2.cpp and
// small_kernel_avx2.cpp. Rows of one sweep level share no particle (small_rows.hpp), so n
// of them are gathered, projected and scattered together with the bits of projecting
// them one by one.
//
// The arithmetic is constraintValue's, operation for operation: Eigen's order for a dot
// product or squared norm of three, x + (y + z); a tetrahedron's sixths as products with
// the rounded 1/6; the weights summed from 0 corner by corner. A row whose weights are below
// 1e-24 (every particle pinned, or a flat stencil) is skipped, as constraintValue's
// callers skip it: its lane divides by 1 and keeps its old values (no lane divides by
// zero: the tests trap). So do the spare lanes of a level's last, part-full register,
// and they move by 0 (their multiplier change, not scaled by any weight, is dropped).

#include "common/hot_inline.hpp"
#include "common/lanes.hpp"
#include "physics/particles/small_rows.hpp"

#include <cstddef>

namespace jounce::detail {

template <class L> struct SmallKernel {
    using T = typename L::Real;
    static constexpr int n = L::width;
    using Corners = std::array<V3<L>, 4>;

    JOUNCE_HOT_INLINE static L sum3(L x, L y, L z) { return x + (y + z); } // Eigen's order
    JOUNCE_HOT_INLINE static L dot3(const V3<L>& a, const V3<L>& b) { return sum3(a.x * b.x, a.y * b.y, a.z * b.z); }

    JOUNCE_HOT_INLINE static Corners gather(const SmallRowView& r, std::size_t i) {
        Corners x;
        for (std::size_t k = 0; k < 4; ++k) {
            x[k] = gatherTriples<L>(r.p, r.index[k] + i);
        }
        return x;
    }
    /// Writes the first `lanes` lanes back to their particles.
    JOUNCE_HOT_INLINE static void scatter(const SmallRowView& r, std::size_t i, const Corners& x, int lanes = n) {
        for (std::size_t k = 0; k < 4; ++k) scatterTriples<L>(r.p, r.index[k] + i, x[k], lanes);
    }

    /// One XPBD (or PBD) update of rows [i, i + n) with value C and gradients grad_k C:
    /// dlambda = (-C - alpha~ lambda) / (sum_k w_k |grad_k|^2 + alpha~), x_k += w_k dlambda grad_k.
    JOUNCE_HOT_INLINE static Corners update(const SmallRowView& r, std::size_t i, const Corners& at, L value, const Corners& grad,
                                            typename L::Mask live) {
        const L one = L::splat(T(1));
        L w[4];
        L weights = L::splat(T(0));
        for (std::size_t k = 0; k < 4; ++k) {
            w[k] = L::load(r.w[k] + i);
            weights = weights + w[k] * dot3(grad[k], grad[k]);
        }
        const auto moves = both(weights > L::splat(minWeights), live);
        const L lambda = L::load(r.lambda + i);
        L dlambda;
        if (r.pbd) {
            dlambda = -L::splat(r.pbdStiffness) * value / select(moves, weights, one);
        } else {
            const L alphaTilde = L::load(r.alphaTilde + i);
            dlambda = (-value - alphaTilde * lambda) / select(moves, weights + alphaTilde, one);
        }
        // A lane that does not move (no weight, or past the level's end) stores back the
        // multiplier it read and moves by 0: its value, unscaled, could be anything.
        dlambda = select(moves, dlambda, L::splat(T(0)));
        select(moves, lambda + dlambda, lambda).store(r.lambda + i);
        Corners x;
        for (std::size_t k = 0; k < 4; ++k) {
            const L s = w[k] * dlambda;
            x[k] = {select(moves, at[k].x + grad[k].x * s, at[k].x), select(moves, at[k].y + grad[k].y * s, at[k].y),
                    select(moves, at[k].z + grad[k].z * s, at[k].z)};
        }
        return x;
    }

    /// V = 1/6 (x1 - x0) x (x2 - x0) . (x3 - x0); C = V - V0; grad_1 = e2 x e3 / 6 and
    /// cyclically, grad_0 = -(grad_1 + grad_2 + grad_3). The sixths are products with
    /// the rounded 1/6, as constraintValue's (ten divisions a row otherwise).
    JOUNCE_HOT_INLINE static Corners tetrahedron(const SmallRowView& r, std::size_t i, const Corners& x, typename L::Mask live) {
        const L sixth = L::splat(T(1) / T(6));
        const V3<L> e1 = x[1] - x[0], e2 = x[2] - x[0], e3 = x[3] - x[0];
        const V3<L> n12 = cross(e1, e2);
        const L value = dot3(n12, e3) * sixth - L::load(r.rest + i);
        Corners grad;
        grad[1] = cross(e2, e3) * sixth;
        grad[2] = cross(e3, e1) * sixth;
        grad[3] = n12 * sixth;
        const V3<L> sum = grad[1] + grad[2] + grad[3];
        grad[0] = {-sum.x, -sum.y, -sum.z};
        return update(r, i, x, value, grad, live);
    }

    /// C = 1/2 |s|^2 with s = sum_k c_k x_k; grad_k C = c_k s.
    JOUNCE_HOT_INLINE static Corners bend(const SmallRowView& r, std::size_t i, const Corners& x, typename L::Mask live) {
        const L zero = L::splat(T(0));
        V3<L> s{zero, zero, zero};
        L c[4];
        for (std::size_t k = 0; k < 4; ++k) {
            c[k] = L::load(r.c[k] + i);
            s = s + V3<L>{c[k] * x[k].x, c[k] * x[k].y, c[k] * x[k].z};
        }
        const L value = L::splat(T(0.5)) * dot3(s, s);
        Corners grad;
        for (std::size_t k = 0; k < 4; ++k) grad[k] = {c[k] * s.x, c[k] * s.y, c[k] * s.z};
        return update(r, i, x, value, grad, live);
    }

    /// Lanes [0, count) on, the others off.
    JOUNCE_HOT_INLINE static typename L::Mask firstLanes(int count) {
        alignas(64) T lane[n];
        for (int l = 0; l < n; ++l) lane[l] = T(l);
        return L::splat(T(count)) > L::load(lane);
    }

    /// A part-full register's rows, copied: lanes [0, lanes) are rows [i, i + lanes), the
    /// others repeat row i (its particles, weights and values: finite, so no lane traps)
    /// and are masked off, so they move nothing.
    struct Tail {
        alignas(64) std::uint32_t index[4][n];
        alignas(64) T w[4][n];
        alignas(64) T c[4][n];
        alignas(64) T rest[n];
        alignas(64) T alphaTilde[n];
        alignas(64) T lambda[n];
    };
    static SmallRowView copyTail(const SmallRowView& r, std::size_t i, int lanes, Tail& t) {
        SmallRowView local = r;
        for (int l = 0; l < n; ++l) {
            const std::size_t row = i + static_cast<std::size_t>(l < lanes ? l : 0);
            for (std::size_t k = 0; k < 4; ++k) {
                t.index[k][l] = r.index[k][row];
                t.w[k][l] = r.w[k][row];
                t.c[k][l] = r.c[k][row];
            }
            t.rest[l] = r.rest[row];
            t.alphaTilde[l] = r.alphaTilde[row];
            t.lambda[l] = r.lambda[row];
        }
        for (std::size_t k = 0; k < 4; ++k) {
            local.index[k] = t.index[k];
            local.w[k] = t.w[k];
            local.c[k] = t.c[k];
        }
        local.rest = t.rest;
        local.alphaTilde = t.alphaTilde;
        local.lambda = t.lambda;
        return local;
    }

    /// Rows [begin, end) of one level, a register of rows at a time. (Two in flight, as
    /// the distance rows take them, measured no faster: a tetrahedron's corners and
    /// gradients alone fill the sixteen registers.) The last register may hold fewer
    /// rows: it works on a copy of them (copyTail) and writes back only their particles
    /// and multipliers, so nothing past `end` is read or written (the rows after it may
    /// be another block's, which another worker projects at the same time: sweep_levels.hpp),
    /// and each row's bits are those of projecting it alone.
    template <Corners (*Project)(const SmallRowView&, std::size_t, const Corners&, typename L::Mask)>
    static void sweep(const SmallRowView& r, std::size_t begin, std::size_t end) {
        const typename L::Mask all = firstLanes(n);
        std::size_t i = begin;
        for (; i + n <= end; i += n) scatter(r, i, Project(r, i, gather(r, i), all));
        if (i == end) return;
        const int lanes = static_cast<int>(end - i);
        Tail tail;
        const SmallRowView local = copyTail(r, i, lanes, tail);
        scatter(local, 0, Project(local, 0, gather(local, 0), firstLanes(lanes)), lanes);
        for (int l = 0; l < lanes; ++l) r.lambda[i + static_cast<std::size_t>(l)] = tail.lambda[l];
    }
    static void tetrahedra(const SmallRowView& r, std::size_t begin, std::size_t end) { sweep<&tetrahedron>(r, begin, end); }
    static void bending(const SmallRowView& r, std::size_t begin, std::size_t end) { sweep<&bend>(r, begin, end); }
};

} // namespace jounce::detail
