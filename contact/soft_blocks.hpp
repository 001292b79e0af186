// SPDX-License-Identifier: MIT
#pragma once
// The soft step's contacts as the lanes of a SIMD register see them (issue 28, "a
// coloured SIMD solver"). A manifold (its points' normal rows and its friction patch,
// as contact/soft_step.hpp describes them) becomes one lane of a block of
// `softBlockWidth` manifolds, packed straight from the narrow phase's manifold (soft_colours.cpp),
// every field an array over the lanes (structure of arrays), so one instruction
// updates the same field of 2, 4 or 8 manifolds.
//
// Blocks are filled one graph colour at a time: no two manifolds of a colour share a
// body that takes impulses, so the lanes of a block never write the same body and the
// order of the lanes within a colour changes nothing. That is what makes the scalar
// kernel (one lane at a time), SSE2 (2 doubles or 4 floats) and AVX2 (4 or 8) give
// bit-identical results: each lane does the same operations in the same order, with
// no contraction into fused multiply-adds (-ffp-contract=off) whatever the width.
//
// This header is plain data with no Eigen, so the AVX2 kernel's file, compiled with
// -mavx2, instantiates nothing another file could pick up by mistake.

#include <jounce/config.hpp>

#include <cstdint>

namespace jounce::detail {

/// The precision of the coloured solver's lanes: float in both builds (issue 28, "precision
/// chosen per quantity"; Jolt's large-world mode and Box2D do the same). The lanes hold
/// velocities, the motion since the step began and anchors relative to centres of mass:
/// quantities of metres and metres a second, where float's 7 digits are 0.1 um on a 1 m
/// anchor, well below the 5 mm contact margin. Positions stay in `real` (a body's place is
/// its double position plus the step's float displacement). Float doubles the lanes per
/// register (AVX2: 8) and halves the bytes each visit moves. JOUNCE_DOUBLE_LANES (a
/// compile definition, for measuring the difference) makes them `real` again.
#if defined(JOUNCE_DOUBLE_LANES) && !defined(JOUNCE_USE_FLOAT)
using lane_real = double;
#else
using lane_real = float;
#define JOUNCE_FLOAT_LANES 1
#endif

/// Manifolds per block: the widest lanes built (AVX2: 4 doubles, 8 floats).
inline constexpr int softBlockWidth = 32 / static_cast<int>(sizeof(lane_real));

/// A body's state in the substeps, 16 lane reals (one cache line in float, aligned to
/// it): velocities, and its motion since the step began (displacement, rotation as a
/// quaternion x y z w). The kernels load it as two halves of eight.
struct alignas(64) SoftState {
    lane_real v[3] = {0, 0, 0};
    lane_real w[3] = {0, 0, 0};
    lane_real dp[3] = {0, 0, 0};
    lane_real dq[4] = {0, 0, 0, 1};
    lane_real pad[3] = {0, 0, 0};
};

/// `softBlockWidth` manifolds (lanes) of one colour with the same number of points.
/// Lanes past the last manifold are empty: the world on both sides, no mass, no
/// impulse. Side 0 is body a (the normal points from b toward a).
struct SoftBlock {
    static constexpr int W = softBlockWidth;
    std::uint32_t body[2][W] = {};    ///< solver bodies (0: the world)
    std::uint8_t writes[2][W] = {};   ///< 1: this side takes impulses (dynamic and awake)
    std::uint32_t manifold[W] = {};   ///< the lane's SoftManifold (lanes < used)
    std::uint32_t firstPoint = 0;     ///< its points: SoftPointBlock [firstPoint, firstPoint + points)
    std::uint32_t points = 0;         ///< points per lane (1..4)
    std::uint32_t used = 0;           ///< lanes holding a manifold
    bool bouncy = false;              ///< some lane has restitution
    lane_real invMass[2][W] = {};
    lane_real invInertia[2][6][W] = {};    ///< world, symmetric: xx yy zz xy xz yz
    lane_real normal[3][W] = {};
    lane_real tangent[3][W] = {};
    lane_real bitangent[3][W] = {};
    lane_real centre[2][3][W] = {};        ///< the points' centre - each centre of mass [m]
    lane_real planarMass[3][W] = {};       ///< inverse of the 2x2 planar response at the centre: 00 01 11
    /// The friction rows' angular parts, fixed for the step (SoftKernels::prepare): per
    /// side and tangent axis e (tangent, bitangent), c x e at the points' centre c and
    /// I^-1 (c x e); per side, I^-1 n for the twist.
    lane_real planarLever[2][2][3][W] = {};
    lane_real planarTurn[2][2][3][W] = {};
    lane_real twistTurn[2][3][W] = {};
    lane_real twistMass[W] = {};
    lane_real twistReach[W] = {};
    lane_real friction[W] = {};
    lane_real slipTarget[2][W] = {};       ///< the surface velocity on the tangent, bitangent [m/s]
    lane_real restitution[W] = {};
    lane_real massScale[W] = {};           ///< softness (contact/soft_constraint.hpp)
    lane_real biasRate[W] = {};
    lane_real impulseScale[W] = {};
    lane_real kickAlong[W] = {};           ///< a substep's velocity change from forces along the normal [m/s]
    lane_real planar[2][W] = {};           ///< friction impulse this substep [N s]
    lane_real twist[W] = {};               ///< twist impulse this substep [N m s]
};

/// One point of each of a block's lanes.
struct SoftPointBlock {
    static constexpr int W = softBlockWidth;
    std::uint32_t contact[W] = {};    ///< the point's contact
    lane_real anchor[2][3][W] = {};        ///< point - centre of mass, world, at the step's start [m]
    /// The normal row's angular parts, fixed for the step with the anchors and the world
    /// inverse inertias: r x n on each side, and I^-1 (r x n), the spin one unit of
    /// impulse along n gives (SoftKernels::prepare).
    lane_real lever[2][3][W] = {};
    lane_real turn[2][3][W] = {};
    lane_real base[W] = {};                ///< separation less the anchors' offset along the normal [m]
    lane_real normalMass[W] = {};          ///< 0 in empty lanes: no impulse
    lane_real impulse[W] = {};             ///< normal impulse this substep [N s]
    lane_real pushed[W] = {};              ///< normal impulse applied this substep (restitution's test)
    lane_real applied[W] = {};             ///< normal impulse applied this step, warm starts and visits [N s]
    lane_real bounced[W] = {};             ///< restitution's impulse this step [N s]
    lane_real approach[W] = {};            ///< normal velocity before this substep's solve [m/s]
    lane_real gap[W] = {};                 ///< separation when this substep began [m]
    lane_real after[W] = {};               ///< separation after the step [m] (SoftKernels::finish)
    /// The closing velocity of A relative to B at the step's start, contact frame [m/s]
    /// (World::resolvedContacts' Contact::velocity).
    lane_real velocity[3][W] = {};
};

/// One pass over a range of blocks (or of the moving bodies, for kick and drift), cut
/// into items that workers claim. No two items of a stage write the same body.
struct SoftStage {
    enum class Kind : std::uint8_t { Kick, Note, Warm, Solve, Drift, Relax, Bounce };
    Kind kind = Kind::Kick;
    std::uint32_t first = 0, count = 0; ///< blocks, or entries of the moving bodies' list
    std::uint32_t per = 1;              ///< per item (the overflow colour: all in one item, in order)
    std::uint32_t substep = 0;          ///< the solver substep it belongs to (for the records)
    std::uint32_t colour = 0;           ///< passes over blocks: their colour (for the records)
    bool overflow = false;              ///< the overflow colour's blocks: scalar kernels, lanes in order
    std::uint32_t items() const { return (count + per - 1) / per; }
};

/// The visits a block gets, at one SIMD width: prepared once a step, the four passes
/// of the substeps, and finished once (each point's separation after the step).
struct SoftKernels {
    const char* name;
    void (*prepare)(SoftBlock&, SoftPointBlock*);
    void (*finish)(const SoftBlock&, SoftPointBlock*, const SoftState*);
    void (*warmStart)(SoftBlock&, SoftPointBlock*, SoftState*);
    void (*solve)(SoftBlock&, SoftPointBlock*, SoftState*, bool useBias, lane_real invH, lane_real maxPushOut);
    void (*noteApproach)(const SoftBlock&, SoftPointBlock*, const SoftState*);
    void (*bounce)(const SoftBlock&, SoftPointBlock*, SoftState*, lane_real threshold, lane_real h);
};

/// One lane after the other (also the overflow colour's blocks, whose lanes may share bodies).
const SoftKernels& scalarSoftKernels();

/// The same visits for lane `at` of a block alone, with the scalar kernel's arithmetic:
/// what a watched step (World::setResolverObserver) runs, one record per lane.
struct SoftLaneVisits {
    void (*warmStart)(SoftBlock&, SoftPointBlock*, SoftState*, int at);
    void (*solve)(SoftBlock&, SoftPointBlock*, SoftState*, bool useBias, lane_real invH, lane_real maxPushOut, int at);
    void (*noteApproach)(const SoftBlock&, SoftPointBlock*, const SoftState*, int at);
    void (*bounce)(const SoftBlock&, SoftPointBlock*, SoftState*, lane_real threshold, lane_real h, int at);
};
const SoftLaneVisits& scalarLaneVisits();
/// The SIMD kernels, or null where this build or processor has none.
const SoftKernels* sse2SoftKernels();
const SoftKernels* avx2SoftKernels();

} // namespace jounce::detail
