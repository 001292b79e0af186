// SPDX-License-Identifier: MIT
#pragma once
// The soft step's visits to a block of manifolds (contact/soft_blocks.hpp), written once
// for any lane type L (ScalarLane, or the SSE2 and AVX2 registers) and instantiated in
// one file per width. The arithmetic per lane is the soft step's (soft_rows.cpp and
// soft_friction.cpp describe it): per point a soft normal row (Catto's soft
// constraint, speculative while apart), then the manifold's twist and planar friction
// at its points' centre, Coulomb-bounded by the points' summed normal impulse.
//
// A lane's bodies are gathered into registers, updated, and written back lane by lane
// (only the sides that take impulses). Nothing divides by zero or takes the root of a
// negative number in any lane, empty ones included: the tests run with floating-point
// traps on.

#include "contact/soft_blocks.hpp"
#include "contact/soft_lanes.hpp"

#include <cstdint>
#include <limits>

#if defined(__GNUC__)
#define JOUNCE_KERNEL_INLINE __attribute__((always_inline)) inline
#else
#define JOUNCE_KERNEL_INLINE inline
#endif

namespace jounce::detail {

template <class L> struct SoftBlockKernel {
    static constexpr int W = softBlockWidth;
    static constexpr int n = L::width;
    static constexpr int stateReals = sizeof(SoftState) / sizeof(lane_real);
    static_assert(sizeof(SoftState) == 16 * sizeof(lane_real), "SoftState is 16 lane reals, v w dp dq in this order");

    struct Body {
        V3<L> v, w, dp, u; ///< velocity, angular velocity, displacement, rotation's vector part
        L s;               ///< rotation's scalar part
    };

    // ---- lanes [at, at + n) of a block's arrays ------------------------------------
    static L get(const lane_real (&a)[W], int at) { return L::load(a + at); }
    static void put(lane_real (&a)[W], int at, L x) { x.store(a + at); }
    static void put3(lane_real (&a)[3][W], int at, const V3<L>& v) {
        put(a[0], at, v.x);
        put(a[1], at, v.y);
        put(a[2], at, v.z);
    }
    static V3<L> get3(const lane_real (&a)[3][W], int at) { return {get(a[0], at), get(a[1], at), get(a[2], at)}; }
    static Sym3<L> getSym(const lane_real (&a)[6][W], int at) {
        return {get(a[0], at), get(a[1], at), get(a[2], at), get(a[3], at), get(a[4], at), get(a[5], at)};
    }

    /// The lanes' bodies: the eight reals of each state's first half (velocity, angular
    /// velocity, dp x y) and, for `whole`, the other half too (dp z, the rotation), one
    /// load per body and a transpose where the lane type has one (common/lanes.hpp,
    /// gatherEight). Only what a visit reads is gathered: the warm start reads no motion.
    JOUNCE_KERNEL_INLINE static Body gather(const SoftState* states, const std::uint32_t* index, bool whole = true) {
        const lane_real* base = reinterpret_cast<const lane_real*>(states);
        L r[8];
        gatherEight<L>(base, index, stateReals, r);
        Body b{{r[0], r[1], r[2]}, {r[3], r[4], r[5]}, {r[6], r[7], L::splat(0)}, {L::splat(0), L::splat(0), L::splat(0)}, L::splat(1)};
        if (whole) {
            gatherEight<L>(base + 8, index, stateReals, r);
            b.dp.z = r[0];
            b.u = {r[1], r[2], r[3]};
            b.s = r[4];
        }
        return b;
    }

    /// Writes the first half of each state back (the new velocities; dp x y as they were
    /// read: a visit never moves a body), only where the side takes impulses. No other
    /// lane of the colour writes or reads that body (soft_blocks.hpp).
    JOUNCE_KERNEL_INLINE static void scatter(SoftState* states, const std::uint32_t* index, const std::uint8_t* writes, const Body& b) {
        const L r[8] = {b.v.x, b.v.y, b.v.z, b.w.x, b.w.y, b.w.z, b.dp.x, b.dp.y};
        scatterEight<L>(reinterpret_cast<lane_real*>(states), index, stateReals, r, writes);
    }

    /// A point's separation now: the normal and anchors fixed at the step's start, the
    /// anchors turned with their bodies (> 0 apart).
    JOUNCE_KERNEL_INLINE static L separation(const SoftPointBlock& p, int at, const V3<L>& normal, const Body& a, const Body& b) {
        const V3<L> ra = rotate(a.u, a.s, get3(p.anchor[0], at));
        const V3<L> rb = rotate(b.u, b.s, get3(p.anchor[1], at));
        return get(p.base, at) + dot(normal, a.dp - b.dp + ra - rb);
    }

    /// An impulse j along the normal at a point: +n j / m_a on a, -n j / m_b on b, and the
    /// spins from the point's turns I^-1 (r x n) (prepareLanes), one multiplication each.
    JOUNCE_KERNEL_INLINE static void pushNormal(Body& a, Body& b, const V3<L>& normal, L j, const SoftPointBlock& p, int at,
                                                L invMassA, L invMassB) {
        const V3<L> impulse = normal * j;
        a.v = a.v + impulse * invMassA;
        a.w = a.w + get3(p.turn[0], at) * j;
        b.v = b.v - impulse * invMassB;
        b.w = b.w - get3(p.turn[1], at) * j;
    }

    /// The planar pair's impulses d1 along t and d2 along u at the points' centre, and the
    /// twist's `twist` about the normal, through the block's turns (prepareLanes).
    JOUNCE_KERNEL_INLINE static void pushPlanar(Body& a, Body& b, const SoftBlock& k, int at, const V3<L>& t, const V3<L>& u, L d1,
                                                L d2, L invMassA, L invMassB) {
        const V3<L> impulse = t * d1 + u * d2;
        a.v = a.v + impulse * invMassA;
        a.w = a.w + get3(k.planarTurn[0][0], at) * d1 + get3(k.planarTurn[0][1], at) * d2;
        b.v = b.v - impulse * invMassB;
        b.w = b.w - (get3(k.planarTurn[1][0], at) * d1 + get3(k.planarTurn[1][1], at) * d2);
    }
    JOUNCE_KERNEL_INLINE static void pushTwist(Body& a, Body& b, const SoftBlock& k, int at, L twist) {
        a.w = a.w + get3(k.twistTurn[0], at) * twist;
        b.w = b.w - get3(k.twistTurn[1], at) * twist;
    }

    struct Manifold {
        V3<L> normal;
        L invMassA, invMassB;
        Sym3<L> invIA, invIB;
    };
    static Manifold manifold(const SoftBlock& k, int at) {
        return {get3(k.normal, at), get(k.invMass[0], at), get(k.invMass[1], at), getSym(k.invInertia[0], at),
                getSym(k.invInertia[1], at)};
    }

    /// Relative normal speed at a point (< 0 closing), from its levers r x n.
    JOUNCE_KERNEL_INLINE static L normalSpeed(const Manifold& m, const Body& a, const Body& b, const SoftPointBlock& p, int at) {
        return dot(m.normal, a.v - b.v) + dot(a.w, get3(p.lever[0], at)) - dot(b.w, get3(p.lever[1], at));
    }

    // ---- the visits ------------------------------------------------------------------
    static void warmStartLanes(SoftBlock& k, SoftPointBlock* points, SoftState* states, int at) {
        Body a = gather(states, k.body[0] + at, false), b = gather(states, k.body[1] + at, false);
        const Manifold m = manifold(k, at);
        for (std::uint32_t i = 0; i < k.points; ++i) {
            SoftPointBlock& p = points[i];
            const L j = get(p.impulse, at);
            put(p.pushed, at, get(p.pushed, at) + j);
            put(p.applied, at, get(p.applied, at) + j);
            pushNormal(a, b, m.normal, j, p, at, m.invMassA, m.invMassB);
        }
        pushPlanar(a, b, k, at, get3(k.tangent, at), get3(k.bitangent, at), get(k.planar[0], at), get(k.planar[1], at), m.invMassA,
                   m.invMassB);
        pushTwist(a, b, k, at, get(k.twist, at));
        scatter(states, k.body[0] + at, k.writes[0] + at, a);
        scatter(states, k.body[1] + at, k.writes[1] + at, b);
    }

    static void solveLanes(SoftBlock& k, SoftPointBlock* points, SoftState* states, bool useBias, lane_real invH,
                           lane_real maxPushOut, int at) {
        Body a = gather(states, k.body[0] + at), b = gather(states, k.body[1] + at);
        const Manifold m = manifold(k, at);
        const L zero = L::splat(0), one = L::splat(1);
        // Softness while overlapping: the spring with its bias when pushing out, rigid
        // and unbiased when relaxing; apart, a rigid row that lets the gap close within
        // this substep and no more (speculative).
        const L massScale = useBias ? get(k.massScale, at) : one;
        const L impulseScale = useBias ? get(k.impulseScale, at) : zero;
        const L biasRate = useBias ? get(k.biasRate, at) : zero;
        const L pushCap = L::splat(-maxPushOut), rate = L::splat(invH);
        L total = zero;
        for (std::uint32_t i = 0; i < k.points; ++i) {
            SoftPointBlock& p = points[i];
            const L s = separation(p, at, m.normal, a, b);
            const typename L::Mask apart = s > zero;
            const L bias = select(apart, s * rate, max(massScale * biasRate * s, pushCap));
            const L scale = select(apart, one, massScale);
            const L keep = select(apart, zero, impulseScale);
            const L vn = normalSpeed(m, a, b, p, at);
            const L before = get(p.impulse, at);
            const L after = max(before - get(p.normalMass, at) * (scale * vn + bias) - keep * before, zero);
            const L d = after - before;
            put(p.impulse, at, after);
            put(p.pushed, at, get(p.pushed, at) + d);
            put(p.applied, at, get(p.applied, at) + d);
            pushNormal(a, b, m.normal, d, p, at, m.invMassA, m.invMassB);
            total = total + after;
        }
        // Friction only in the relaxing sweep (Box2D v3 and Box3D do so now): the biased
        // sweep's push-out is not yet taken back there, and friction fitted to it let
        // pyramid20's top slide 12 mm as it settled (1.2 mm so), at half the cost.
        if (useBias) {
            scatter(states, k.body[0] + at, k.writes[0] + at, a);
            scatter(states, k.body[1] + at, k.writes[1] + at, b);
            return;
        }
        // Friction: twist about the normal first, then the planar pair at the centre
        // (Box3D's order: the planar rows, which carry most of the load, have the last word).
        const L limit = get(k.friction, at) * total;
        const L spin = dot(m.normal, a.w - b.w);
        const L twistLimit = limit * get(k.twistReach, at);
        const L twist0 = get(k.twist, at);
        const L twist = min(max(twist0 - get(k.twistMass, at) * spin, zero - twistLimit), twistLimit);
        pushTwist(a, b, k, at, twist - twist0);
        put(k.twist, at, twist);
        const V3<L> t = get3(k.tangent, at), u = get3(k.bitangent, at);
        // The slip along e: e . (v_a + w_a x c_a - v_b - w_b x c_b), with e . (w x c) = w . (c x e).
        const V3<L> linear = a.v - b.v;
        const L s1 = dot(t, linear) + dot(a.w, get3(k.planarLever[0][0], at)) - dot(b.w, get3(k.planarLever[1][0], at)) -
                     get(k.slipTarget[0], at);
        const L s2 = dot(u, linear) + dot(a.w, get3(k.planarLever[0][1], at)) - dot(b.w, get3(k.planarLever[1][1], at)) -
                     get(k.slipTarget[1], at);
        const L m00 = get(k.planarMass[0], at), m01 = get(k.planarMass[1], at), m11 = get(k.planarMass[2], at);
        const L p10 = get(k.planar[0], at), p20 = get(k.planar[1], at);
        L p1 = p10 - (m00 * s1 + m01 * s2);
        L p2 = p20 - (m01 * s1 + m11 * s2);
        const L squared = p1 * p1 + p2 * p2;
        const typename L::Mask outside = squared > limit * limit;
        const L shrink = limit / sqrt(max(squared, L::splat(tiny)));
        p1 = select(outside, p1 * shrink, p1);
        p2 = select(outside, p2 * shrink, p2);
        put(k.planar[0], at, p1);
        put(k.planar[1], at, p2);
        pushPlanar(a, b, k, at, t, u, p1 - p10, p2 - p20, m.invMassA, m.invMassB);
        scatter(states, k.body[0] + at, k.writes[0] + at, a);
        scatter(states, k.body[1] + at, k.writes[1] + at, b);
    }

    static void noteApproachLanes(const SoftBlock& k, SoftPointBlock* points, const SoftState* states, int at) {
        const Body a = gather(states, k.body[0] + at), b = gather(states, k.body[1] + at);
        const Manifold m = manifold(k, at);
        for (std::uint32_t i = 0; i < k.points; ++i) {
            SoftPointBlock& p = points[i];
            put(p.pushed, at, L::splat(0));
            put(p.approach, at, normalSpeed(m, a, b, p, at));
            put(p.gap, at, separation(p, at, m.normal, a, b));
        }
    }

    /// Restitution (soft_rows.cpp, bounceRow, derives it): the impulse that starts the
    /// flight out with e^2 of the discrete flight's energy I = v^2 - 2 (k / h) s + k v.
    static void bounceLanes(const SoftBlock& k, SoftPointBlock* points, SoftState* states, lane_real threshold, lane_real h,
                            int at) {
        Body a = gather(states, k.body[0] + at), b = gather(states, k.body[1] + at);
        const Manifold m = manifold(k, at);
        const L zero = L::splat(0), two = L::splat(2), half = L::splat(lane_real(0.5));
        const L e = get(k.restitution, at);
        const L kick = get(k.kickAlong, at);
        const L pull = kick / L::splat(h); // k / h: the normal acceleration [m/s^2]
        for (std::uint32_t i = 0; i < k.points; ++i) {
            SoftPointBlock& p = points[i];
            const L approach = get(p.approach, at);
            const L vIn = approach - kick;
            const L in = vIn * vIn - two * pull * get(p.gap, at) + kick * vIn;
            const L out = e * e * in + two * pull * separation(p, at, m.normal, a, b);
            const L disc = kick * kick + L::splat(4) * out;
            const L target = (sqrt(max(disc, zero)) - kick) * half;
            const L vn = normalSpeed(m, a, b, p, at);
            const L j0 = max(get(p.normalMass, at) * (target - vn), zero - get(p.impulse, at));
            const typename L::Mask hit =
                both(both(e > zero, approach <= L::splat(-threshold)), both(get(p.pushed, at) > zero, out > zero));
            const L j = select(both(both(hit, disc >= zero), j0 > zero), j0, zero);
            put(p.bounced, at, get(p.bounced, at) + j);
            pushNormal(a, b, m.normal, j, p, at, m.invMassA, m.invMassB);
        }
        scatter(states, k.body[0] + at, k.writes[0] + at, a);
        scatter(states, k.body[1] + at, k.writes[1] + at, b);
    }

    static constexpr lane_real tiny = lane_real(1e-30);

    /// 1 / x where x > 0, else 0 (no lane divides by zero: the traps are on in the tests).
    JOUNCE_KERNEL_INLINE static L inverseOrZero(L x) {
        const L zero = L::splat(0), one = L::splat(1);
        const typename L::Mask positive = x > zero;
        return select(positive, one / select(positive, x, one), zero);
    }

    /// The lanes' effective masses from what pack put in them (the arithmetic of
    /// soft_rows.cpp and soft_friction.cpp, preparePatch, 8 manifolds an instruction):
    /// each point's normal mass, the friction patch's 2x2 planar mass at the centre and
    /// its twist mass about the normal, and the points' mean reach from the centre in the
    /// contact plane (the twist's Coulomb bound per unit normal impulse); and the levers
    /// and turns the visits apply impulses with (each point's r x n and I^-1 (r x n), the
    /// centre's c x t, c x u and their turns, and the twist's I^-1 n, for either body).
    static void prepareLanes(SoftBlock& k, SoftPointBlock* points, int at) {
        const Manifold m = manifold(k, at);
        const L zero = L::splat(0);
        const L linear = m.invMassA + m.invMassB;
        const V3<L> ca = get3(k.centre[0], at), cb = get3(k.centre[1], at);
        L reach = zero;
        for (std::uint32_t i = 0; i < k.points; ++i) {
            SoftPointBlock& p = points[i];
            const V3<L> ra = get3(p.anchor[0], at), rb = get3(p.anchor[1], at);
            const V3<L> la = cross(ra, m.normal), lb = cross(rb, m.normal);
            const V3<L> sa = m.invIA * la, sb = m.invIB * lb;
            put3(p.lever[0], at, la);
            put3(p.lever[1], at, lb);
            put3(p.turn[0], at, sa);
            put3(p.turn[1], at, sb);
            put(p.normalMass, at, inverseOrZero(linear + dot(la, sa) + dot(lb, sb)));
            const V3<L> d = ra - ca;
            const V3<L> planar = d - m.normal * dot(m.normal, d);
            reach = reach + sqrt(dot(planar, planar));
        }
        put(k.twistReach, at, reach / L::splat(static_cast<lane_real>(k.points)));
        // The planar response at the centre, R_ij = delta_ij (1/m_a + 1/m_b) + sum over the
        // sides of (c x e_i) . I^-1 (c x e_j) (symmetric), and its inverse; an axis that
        // cannot be inverted with the other (det ~ 0) is inverted on its own.
        const V3<L> t = get3(k.tangent, at), u = get3(k.bitangent, at);
        const V3<L> la0 = cross(ca, t), la1 = cross(ca, u), lb0 = cross(cb, t), lb1 = cross(cb, u);
        const V3<L> ta0 = m.invIA * la0, ta1 = m.invIA * la1, tb0 = m.invIB * lb0, tb1 = m.invIB * lb1;
        put3(k.planarLever[0][0], at, la0);
        put3(k.planarLever[0][1], at, la1);
        put3(k.planarLever[1][0], at, lb0);
        put3(k.planarLever[1][1], at, lb1);
        put3(k.planarTurn[0][0], at, ta0);
        put3(k.planarTurn[0][1], at, ta1);
        put3(k.planarTurn[1][0], at, tb0);
        put3(k.planarTurn[1][1], at, tb1);
        const L r00 = linear + dot(la0, ta0) + dot(lb0, tb0);
        const L r01 = dot(la0, ta1) + dot(lb0, tb1);
        const L r11 = linear + dot(la1, ta1) + dot(lb1, tb1);
        const L det = r00 * r11 - r01 * r01;
        const typename L::Mask invertible = both(det > L::splat(std::numeric_limits<lane_real>::min() * 16),
                                                 det <= L::splat(std::numeric_limits<lane_real>::max()));
        const L invDet = inverseOrZero(select(invertible, det, zero));
        put(k.planarMass[0], at, select(invertible, r11 * invDet, inverseOrZero(r00)));
        put(k.planarMass[1], at, select(invertible, zero - r01 * invDet, zero));
        put(k.planarMass[2], at, select(invertible, r00 * invDet, inverseOrZero(r11)));
        const V3<L> twistA = m.invIA * m.normal, twistB = m.invIB * m.normal;
        put3(k.twistTurn[0], at, twistA);
        put3(k.twistTurn[1], at, twistB);
        put(k.twistMass, at, inverseOrZero(dot(m.normal, twistA) + dot(m.normal, twistB)));
    }

    /// Each point's separation once the substeps are done (what the contact reports as
    /// its penetration after the step, negated).
    static void finishLanes(const SoftBlock& k, SoftPointBlock* points, const SoftState* states, int at) {
        const Body a = gather(states, k.body[0] + at), b = gather(states, k.body[1] + at);
        const V3<L> normal = get3(k.normal, at);
        for (std::uint32_t i = 0; i < k.points; ++i) put(points[i].after, at, separation(points[i], at, normal, a, b));
    }

    // ---- whole blocks ------------------------------------------------------------------
    static void finish(const SoftBlock& k, SoftPointBlock* points, const SoftState* states) {
        for (int at = 0; at < W; at += n) finishLanes(k, points, states, at);
    }
    static void prepare(SoftBlock& k, SoftPointBlock* points) {
        for (int at = 0; at < W; at += n) prepareLanes(k, points, at);
    }
    static void warmStart(SoftBlock& k, SoftPointBlock* points, SoftState* states) {
        for (int at = 0; at < W; at += n) warmStartLanes(k, points, states, at);
    }
    static void solve(SoftBlock& k, SoftPointBlock* points, SoftState* states, bool useBias, lane_real invH, lane_real maxPushOut) {
        for (int at = 0; at < W; at += n) solveLanes(k, points, states, useBias, invH, maxPushOut, at);
    }
    static void noteApproach(const SoftBlock& k, SoftPointBlock* points, const SoftState* states) {
        for (int at = 0; at < W; at += n) noteApproachLanes(k, points, states, at);
    }
    static void bounce(const SoftBlock& k, SoftPointBlock* points, SoftState* states, lane_real threshold, lane_real h) {
        for (int at = 0; at < W; at += n) bounceLanes(k, points, states, threshold, h, at);
    }
};

} // namespace jounce::detail
