// SPDX-License-Identifier: MIT
// The soft step's coloured path (issue 28): the manifolds of every island without
// joints, coloured so that no two manifolds of a colour share a body that takes
// impulses, packed colour by colour into blocks of lanes (contact/soft_blocks.hpp) and
// solved over the substeps with the widest SIMD kernels the processor has.
//
// Colouring is greedy in contact order (Box2D v3 colours its constraint graph the same
// way): a manifold takes the lowest colour neither of its moving bodies is in yet.
// Static, kinematic and sleeping bodies take no impulses and colour nothing, so a
// floor touched by a thousand boxes does not spread them over a thousand colours.
// Manifolds that find no free colour among the first `colourCount` go to an overflow
// colour solved one lane after the other. Within a colour, manifolds are grouped by
// their number of points so every lane of a block does the same work.
//
// On several workers, islands that can be cut evenly go in shards, two (or one) per
// worker, each solved from start to end by the worker that takes it (runShard); otherwise the
// workers share each colour of each pass (runStages). A manifold's colour depends only
// on its own island's manifolds, so both give the same bits.

#include "contact/resolver_stages.hpp"
#include "contact/soft_step.hpp"
#include "common/growth.hpp"
#include "common/hot_inline.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"

#include <jounce/common/simd.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <thread>

namespace jounce {

// ---- which kernels ---------------------------------------------------------------------
namespace {

std::atomic<int> simdCap{static_cast<int>(SimdLevel::Avx2)};

SimdLevel processorLevel() {
#if defined(__x86_64__)
    // The processor first: nothing of the AVX2 file runs before it says yes.
    if (__builtin_cpu_supports("avx2") && detail::avx2SoftKernels() != nullptr) return SimdLevel::Avx2;
    if (detail::sse2SoftKernels() != nullptr) return SimdLevel::Sse2;
#endif
    return SimdLevel::Scalar;
}

const detail::SoftKernels& kernelsFor(SimdLevel level) {
    switch (level) {
    case SimdLevel::Avx2: return *detail::avx2SoftKernels();
    case SimdLevel::Sse2: return *detail::sse2SoftKernels();
    case SimdLevel::Scalar: break;
    }
    return detail::scalarSoftKernels();
}

} // namespace

SimdLevel simdLevel() {
    static const SimdLevel best = processorLevel();
    return std::min(best, static_cast<SimdLevel>(simdCap.load(std::memory_order_relaxed)));
}

void limitSimd(SimdLevel cap) { simdCap.store(static_cast<int>(cap), std::memory_order_relaxed); }

const char* simdName(SimdLevel level) {
    switch (level) {
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Sse2: return "sse2";
    case SimdLevel::Scalar: break;
    }
    return "scalar";
}

// ---- the bodies' state in the substeps -------------------------------------------------
constexpr std::uint32_t colourCount = 32;  ///< then the overflow colour
constexpr std::uint32_t keysPerColour = 5; ///< by points per manifold, 1..4
constexpr std::uint32_t keysPerShard = (colourCount + 1) * keysPerColour;

namespace detail {
namespace {

/// A real in a lane (float: contact/soft_blocks.hpp, lane_real).
lane_real narrow(real x) { return static_cast<lane_real>(x); }

SoftState stateOf(const SoftBody& b) {
    SoftState s;
    for (int k = 0; k < 3; ++k) {
        s.v[k] = narrow(b.linearVelocity[k]);
        s.w[k] = narrow(b.angularVelocity[k]);
    }
    return s; // no motion yet: dp = 0, dq = identity
}

void kickState(SoftState& s, const SoftBody& b) {
    if (!b.integrates) return;
    for (int k = 0; k < 3; ++k) {
        s.v[k] = narrow((s.v[k] + b.linearKick[k]) * b.linearKeep);
        s.w[k] = narrow((s.w[k] + b.angularKick[k]) * b.angularKeep);
    }
}

void driftState(SoftState& s, const SoftBody& b, real h) {
    Vec3 v(s.v[0], s.v[1], s.v[2]), w(s.w[0], s.w[1], s.w[2]);
    if (b.integrates) {
        if (b.locked) { // MotionLocks: nothing moves along or turns about a locked axis
            v = v.cwiseProduct(b.linearFree);
            w = w.cwiseProduct(b.angularFree);
        }
        limitSpeed(v);
        limitSpeed(w);
    }
    for (int k = 0; k < 3; ++k) {
        s.v[k] = narrow(v[k]);
        s.w[k] = narrow(w[k]);
        s.dp[k] = narrow(s.dp[k] + h * s.v[k]);
    }
    const Quat q = integrateOrientation(Quat(s.dq[3], s.dq[0], s.dq[1], s.dq[2]), w, h);
    s.dq[0] = narrow(q.x());
    s.dq[1] = narrow(q.y());
    s.dq[2] = narrow(q.z());
    s.dq[3] = narrow(q.w());
}

void storeState(const SoftState& s, SoftBody& b) {
    b.linearVelocity = Vec3(s.v[0], s.v[1], s.v[2]);
    b.angularVelocity = Vec3(s.w[0], s.w[1], s.w[2]);
    b.moved = Vec3(s.dp[0], s.dp[1], s.dp[2]);
    b.turned = Quat(s.dq[3], s.dq[0], s.dq[1], s.dq[2]); // unit to float precision (placeBody normalises)
    b.turn = b.turned.toRotationMatrix();
}

void put3(lane_real (&to)[3][softBlockWidth], int lane, const Vec3& v) {
    for (int k = 0; k < 3; ++k) to[k][lane] = static_cast<lane_real>(v[k]);
}

Vec3 get3(const lane_real (&from)[3][softBlockWidth], int lane) { return Vec3(from[0][lane], from[1][lane], from[2][lane]); }

/// A point's offset from the manifold's centre in the contact plane.
JOUNCE_HOT_INLINE Vec3 inPlane(const Vec3& d, const Vec3& n) { return d - n * n.dot(d); }

/// Lane `lane` of block `k` (and its point blocks) from manifold `m` (number `index` of
/// the coloured path's list; the narrow phase's `cm`), straight from it: anchors, frame,
/// masses and softness, and the warm start (the impulses its points carried; none unless
/// `warm`); the effective masses, levers and turns are computed afterwards in the block's
/// lanes (SoftKernels::prepare).
/// The manifold's contacts (World::resolvedContacts) are not written here:
/// describeColoured() makes them from the lanes when they are asked for (writing them
/// here and in unpack cost pyramid20 3 % of its step).
void pack(const ContactManifold& cm, const SoftManifold& m, std::uint32_t index, std::span<const Body> bodies,
          std::span<const SoftBody> soft, const std::array<Softness, 2>& softness, real perSubstep, bool warm, SoftBlock& k,
          SoftPointBlock* points, int lane) {
    const SoftBody& a = soft[m.body[0]];
    const SoftBody& b = soft[m.body[1]];
    const Vec3& n = cm.manifold.normal;
    const Mat3 basis = contactBasis(n);
    const Vec3 t = basis.col(1), u = basis.col(2);
    const std::array<const Body*, 2> body{&bodies[cm.bodyA.index], &bodies[cm.bodyB.index]};
    std::array<std::array<Vec3, 2>, Manifold::maxPoints> anchor;
    std::array<Vec3, 2> centre{Vec3::Zero(), Vec3::Zero()};
    for (std::uint32_t i = 0; i < m.count; ++i) {
        for (std::size_t side = 0; side < 2; ++side) {
            anchor[i][side] = cm.manifold.points[i].point - body[side]->position;
            centre[side] += anchor[i][side];
        }
    }
    const real share = 1 / static_cast<real>(m.count);
    centre[0] *= share;
    centre[1] *= share;

    k.manifold[lane] = index;
    for (int side = 0; side < 2; ++side) {
        const SoftBody& body = side == 0 ? a : b;
        k.body[side][lane] = m.body[static_cast<std::size_t>(side)];
        k.writes[side][lane] = body.inverseMass > 0 ? 1 : 0;
        k.invMass[side][lane] = body.inverseMass;
        const Mat3& i = body.inverseInertia;
        const real sym[6] = {i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)};
        for (int e = 0; e < 6; ++e) k.invInertia[side][e][lane] = sym[e];
        put3(k.centre[side], lane, centre[static_cast<std::size_t>(side)]);
    }
    put3(k.normal, lane, n);
    put3(k.tangent, lane, t);
    put3(k.bitangent, lane, u);
    k.friction[lane] = cm.friction;
    k.slipTarget[0][lane] = t.dot(cm.surfaceVelocity);
    k.slipTarget[1][lane] = u.dot(cm.surfaceVelocity);
    k.restitution[lane] = cm.restitution;
    const Softness& s = softness[a.inverseMass == 0 || b.inverseMass == 0 ? 1 : 0];
    k.massScale[lane] = s.massScale;
    k.biasRate[lane] = s.biasRate;
    k.impulseScale[lane] = s.impulseScale;
    k.kickAlong[lane] = n.dot(a.linearKick - b.linearKick);

    // The normal rows, and the friction the points carried read back as the planar and
    // twist impulses unpackLanes shared out (their tangent axes are the manifold's: one
    // normal, one basis).
    real planarT = 0, planarU = 0, twist = 0;
    for (std::uint32_t i = 0; i < m.count; ++i) {
        const ContactPoint& p = cm.manifold.points[i];
        const Vec3 carried = warm ? warmStartImpulse(cm, i, basis) : Vec3::Zero();
        const Vec3& ra = anchor[i][0];
        const Vec3& rb = anchor[i][1];
        SoftPointBlock& q = points[i];
        q.contact[lane] = m.first + i;
        put3(q.anchor[0], lane, ra);
        put3(q.anchor[1], lane, rb);
        // s = base + n . (moved_a + turned_a r_a - moved_b - turned_b r_b): -penetration at the start.
        q.base[lane] = -p.depth - n.dot(ra - rb);
        q.impulse[lane] = carried.x() * perSubstep;
        q.applied[lane] = 0;
        const Vec3 relative = a.linearVelocity + a.angularVelocity.cross(ra) - b.linearVelocity - b.angularVelocity.cross(rb);
        const real approach = n.dot(relative);
        q.approach[lane] = approach;
        put3(q.velocity, lane, Vec3(approach, t.dot(relative), u.dot(relative)));
        const Vec3 f = t * carried.y() + u * carried.z();
        planarT += carried.y();
        planarU += carried.z();
        const Vec3 d = inPlane(ra - centre[0], n);
        twist += n.dot(d.cross(f));
    }
    k.planar[0][lane] = planarT * perSubstep;
    k.planar[1][lane] = planarU * perSubstep;
    k.twist[lane] = twist * perSubstep;
}

/// Lane `lane`'s friction over the step (`perStep` substeps' worth), as storePatch
/// shares it out among the points: the planar impulse and the twist, with what the
/// share reads of the lane (its frame, its anchors' centre and their spread).
struct LaneFriction {
    Vec3 n, t, u, centre, planar;
    real spread = 0, twist = 0; ///< spread: sum of |d_i|^2
};
JOUNCE_HOT_INLINE LaneFriction laneFriction(const SoftBlock& k, const SoftPointBlock* points, real perStep, int lane) {
    LaneFriction f;
    f.n = get3(k.normal, lane);
    f.t = get3(k.tangent, lane);
    f.u = get3(k.bitangent, lane);
    f.centre = get3(k.centre[0], lane);
    for (std::uint32_t i = 0; i < k.points; ++i) f.spread += inPlane(get3(points[i].anchor[0], lane) - f.centre, f.n).squaredNorm();
    f.twist = k.twist[lane] * perStep;
    f.planar = (f.t * k.planar[0][lane] + f.u * k.planar[1][lane]) * (perStep / static_cast<real>(k.points));
    return f;
}

/// A point's impulse the step keeps for the next one's warm start, contact frame: the
/// normal impulse of the last substep (times `perStep`) and its share of the friction.
JOUNCE_HOT_INLINE Vec3 keptImpulse(const LaneFriction& f, const SoftPointBlock& q, real perStep, int lane) {
    const Vec3 share = frictionShare(f.planar, f.n, inPlane(get3(q.anchor[0], lane) - f.centre, f.n), f.twist, f.spread);
    return Vec3(q.impulse[lane] * perStep, f.t.dot(share), f.u.dot(share));
}

/// Lane `lane`'s impulses into the narrow phase's manifold `cm` for the next step's warm
/// start (what keepForWarmStart does for the other contacts), friction as a world vector
/// (keepImpulse, along the manifold's tangent axes as pack took them).
void unpack(const SoftBlock& k, const SoftPointBlock* points, real perStep, ContactManifold& cm, int lane) {
    const LaneFriction f = laneFriction(k, points, perStep, lane);
    const Mat3 basis = contactBasis(cm.manifold.normal);
    for (std::uint32_t i = 0; i < k.points; ++i) keepImpulse(cm, i, basis, keptImpulse(f, points[i], perStep, lane));
}

/// Point `i` of manifold `cm` (number `source` of the narrow phase's list; `key`:
/// contactKey(cm, 0); `basis`: contactBasis of its normal) as a contact of
/// World::resolvedContacts: what gatherContacts and the resolver's preparation would
/// write (frame, key, anchors, the closing velocity at the step's start: the last two
/// as the lane holds them), starting from `impulse`.
void describe(const ContactManifold& cm, std::uint32_t source, std::uint32_t i, std::uint64_t key, const Mat3& basis,
              const SoftPointBlock& q, int lane, const Vec3& impulse, Contact& c) {
    fillContact(cm, source, i, key, basis, impulse, c);
    c.relative = {get3(q.anchor[0], lane), get3(q.anchor[1], lane)};
    c.velocity = get3(q.velocity, lane);
    c.penetrationAtStart = cm.manifold.points[i].depth;
}

} // namespace
} // namespace detail

using detail::SoftBlock;
using detail::SoftState;
using detail::SoftPointBlock;

void SoftStepSolver::chooseColoured(std::span<const std::uint32_t> islandStarts, const std::vector<ContactManifold>& manifolds,
                                    const detail::ContactScratch& grouping, real massRatio, const Vec3& gravity, TaskSystem* tasks) {
    // Joints (contacts that do not only push: joint_contacts.cpp), and contacts that hold
    // a light body under a heavy one (soft_hold.cpp: the ghost follows its body only in
    // solveIsland), keep their island with the rows; so do bodies locked along a world
    // axis, whose inverse mass is a matrix (locked_mass.hpp) where a block's lane holds one
    // number. Decided from the manifolds, before the contacts are gathered: the blocks
    // take theirs straight from them; in chunks of an island's manifolds on the workers.
    const std::uint32_t count = grouping.manifoldFirsts.back();
    placeCount_ = count;
    const auto islands = static_cast<std::uint32_t>(detail::islandCount(islandStarts));
    const auto placed = static_cast<std::uint32_t>(std::min<std::size_t>(islands, grouping.placedIslands.size()));
    coloured_.assign(islands, 0);
    packed_.assign(manifolds.size(), 0);
    // The islands without joints in chunks of their manifolds (serial: a few integers a
    // chunk), so one island of thousands of contacts (spheres4096's pile is one) is read
    // on every worker, not on one.
    chunks_.clear();
    for (std::uint32_t k = 0; k < placed; ++k) {
        const detail::ContactScratch::PlacedIsland& island = grouping.placedIslands[k];
        if (island.joints != 0) continue;
        for (std::uint32_t at = island.firstManifold; at < island.lastManifold; at += chunkManifolds)
            detail::emplaceGrowing(chunks_, IslandChunk{k, at, std::min(island.lastManifold, at + chunkManifolds)});
    }
    const auto chunkCount = static_cast<std::uint32_t>(chunks_.size());
    detail::parallelFor(tasks, chunkCount, 2, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t c = first; c < last; ++c) {
            IslandChunk& chunk = chunks_[c];
            chunk.blocks = true;
            for (std::uint32_t i = chunk.first; i < chunk.last && chunk.blocks; ++i) {
                const ContactManifold& m = manifolds[grouping.manifoldOrder[i]];
                const detail::SoftBody& a = bodies_[detail::solverIndex(m.bodyA.index)];
                const detail::SoftBody& b = bodies_[detail::solverIndex(m.bodyB.index)];
                chunk.blocks = !a.linearLocked && !b.linearLocked && detail::heldSide(m.manifold.normal, a, b, massRatio, gravity) < 0;
            }
        }
    });
    // An island goes to the blocks when all its chunks may; the chosen islands' manifolds
    // in island order, each island's in contact order (as groupContacts placed them):
    // where each chunk's go (serial), then written on the workers.
    std::uint32_t chosen = 0;
    islandManifolds_.assign(1, 0);
    for (std::uint32_t c = 0; c < chunkCount;) {
        const std::uint32_t k = chunks_[c].island;
        std::uint32_t end = c;
        bool blocks = true;
        for (; end < chunkCount && chunks_[end].island == k; ++end) blocks = blocks && chunks_[end].blocks;
        coloured_[k] = blocks ? 1 : 0;
        const detail::ContactScratch::PlacedIsland& island = grouping.placedIslands[k];
        for (; blocks && c < end; ++c) chunks_[c].to = chosen + (chunks_[c].first - island.firstManifold);
        if (blocks) {
            chosen += island.lastManifold - island.firstManifold;
            islandManifolds_.push_back(chosen);
        }
        c = end;
    }
    detail::resizeGrowing(manifolds_, chosen);
    std::atomic<bool> bouncy{false};
    detail::parallelFor(tasks, chunkCount, 2, [&](std::uint32_t first, std::uint32_t last) {
        bool any = false;
        for (std::uint32_t c = first; c < last; ++c) {
            const IslandChunk& chunk = chunks_[c];
            if (!coloured_[chunk.island]) continue;
            std::uint32_t at = chunk.to;
            for (std::uint32_t i = chunk.first; i < chunk.last; ++i) {
                const std::uint32_t source = grouping.manifoldOrder[i];
                const ContactManifold& m = manifolds[source];
                packed_[source] = 1;
                any = any || m.restitution > 0;
                manifolds_[at++] = {grouping.manifoldFirsts[source], static_cast<std::uint32_t>(m.manifold.count),
                                    {detail::solverIndex(m.bodyA.index), detail::solverIndex(m.bodyB.index)}, source};
            }
        }
        if (any) bouncy.store(true, std::memory_order_relaxed);
    });
    bouncy_ = bouncy.load();
    // Rows (~480 bytes a contact) only when some island needs them: a pile or a pyramid
    // solved in blocks alone builds none.
    if (std::all_of(coloured_.begin(), coloured_.end(), [](std::uint8_t c) { return c != 0; })) {
        rows_.clear();
        return;
    }
    rows_.resize(count);
    for (std::size_t k = 0; k < coloured_.size(); ++k) {
        const auto [first, last] = detail::islandRange(islandStarts, k, count);
        const detail::SoftKind kind = coloured_[k] ? detail::SoftKind::InBlock : detail::SoftKind::Contact; // prepareSoftRow sets the rest
        for (std::uint32_t i = first; i < last; ++i) rows_[i].kind = kind;
    }
}

void SoftStepSolver::solveColoured(std::span<Contact> contacts, std::span<ContactManifold> manifolds,
                                   std::span<const Body> bodies, real h, const ResolverSettings& settings, TaskSystem* tasks) {
    const int substeps = settings.soft.substeps;
    const real sub = h / static_cast<real>(substeps);
    // (The places, not contacts.size(): a step whose blocks take every island is given none.)
    const std::uint32_t mark = placeCount_ + 2; // no island's (solveIsland marks first + 1 <= count)
    // Watched, the step runs on one thread: one shard, the colours numbered as ever.
    chooseShards(tasks != nullptr && watch_.observer == nullptr ? tasks->workerCount() : 1);
    const std::uint32_t shards = shardCount();
    // Each shard's moving bodies (in the order of its manifolds, which chooseColoured
    // listed in contact order), colours and sort, on its own worker: no two shards share
    // a moving body, and each writes only its own parts of the lists (its bodies from
    // twice its first manifold on: a manifold moves at most two).
    detail::resizeGrowing(colouredBodies_, 2 * manifolds_.size());
    colourMask_.resize(std::max(colourMask_.size(), bodies_.size()));
    detail::resizeGrowing(keys_, manifolds_.size());
    detail::resizeGrowing(order_, manifolds_.size());
    shardBodies_.assign(shards, 0);
    shardBodyEnds_.assign(shards, 0);
    shardPoints_.assign(shards, 0);
    counts_.assign(std::size_t{shards} * (keysPerShard + 1), 0);
    colourBlocks_.assign(std::size_t{shards} * (colourCount + 1), 0);
    detail::parallelFor(manifolds_.empty() ? nullptr : tasks, shards, 1, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t g = first; g < last; ++g) layoutShard(g, mark);
    });
    if (manifolds_.empty()) return;
    // The states of the bodies the blocks read but do not move (the moving ones' are
    // started with their motion: startBodies).
    states_.resize(bodies_.size());
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies_.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i)
            if (stamp_[i] != mark) states_[i] = detail::stateOf(bodies_[i]);
    });
    placeShards();
    const real contactHertz = std::min(settings.soft.contactHertz, 1 / (8 * sub));
    packing_ = {contacts, manifolds, bodies,
                {detail::makeSoft(contactHertz, settings.soft.contactDampingRatio, sub),
                 detail::makeSoft(2 * contactHertz, settings.soft.contactDampingRatio, sub)},
                sub, 1 / static_cast<real>(substeps), settings.warmStart};
    kernels_ = &kernelsFor(simdLevel());
    pass_ = {1 / sub, settings.soft.maxPushOut, settings.restitutionThreshold, sub};
    perStep_ = static_cast<real>(substeps);
    // Few blocks: one thread (the stages' hand-overs would cost more than they share).
    constexpr std::size_t minBlocksForThreads = 64;
    if (tasks != nullptr && (tasks->workerCount() < 2 || blocks_.size() < minBlocksForThreads)) tasks = nullptr;
    planStages(substeps, settings.soft.relaxIterations, tasks ? tasks->workerCount() : 1);
    if (shardCount() > 1) {
        // Each shard on one worker from start to end: its bodies, blocks and manifolds
        // stay in that core's cache through every pass, and no worker waits for another
        // before the end.
        shardDepths_.resize(shardCount());
        detail::parallelFor(tasks, shardCount(), 1, [&](std::uint32_t first, std::uint32_t last) {
            for (std::uint32_t g = first; g < last; ++g) {
                listBlocks(g);
                runShard(g);
            }
        });
        colouredDepth_ = {-std::numeric_limits<real>::infinity(), -std::numeric_limits<real>::infinity()};
        for (const std::array<real, 2>& d : shardDepths_)
            colouredDepth_ = {std::max(colouredDepth_[0], d[0]), std::max(colouredDepth_[1], d[1])};
    } else {
        listBlocks(0);
        const auto movers = shardBodyEnds_[0];
        const auto blocks = static_cast<std::uint32_t>(blocks_.size());
        detail::parallelFor(tasks, movers, 256, [&](std::uint32_t begin, std::uint32_t end) { startBodies(begin, end); });
        detail::parallelFor(tasks, blocks, 128, [&](std::uint32_t begin, std::uint32_t end) { fillBlocks(begin, end); });
        detail::parallelFor(tasks, static_cast<std::uint32_t>(manifolds_.size()), 256,
                            [&](std::uint32_t begin, std::uint32_t end) { packLanes(begin, end); });
        detail::parallelFor(tasks, blocks, 128, [&](std::uint32_t begin, std::uint32_t end) { prepareBlocks(begin, end); });
        runStages(tasks);
        // Back into the bodies and the manifolds.
        detail::parallelFor(tasks, movers, 256, [&](std::uint32_t begin, std::uint32_t end) { storeBodies(begin, end); });
        std::atomic<real> before{-std::numeric_limits<real>::infinity()}, after{-std::numeric_limits<real>::infinity()};
        detail::parallelFor(tasks, blocks, 128, [&](std::uint32_t begin, std::uint32_t end) { finishBlocks(begin, end); });
        detail::parallelFor(tasks, static_cast<std::uint32_t>(manifolds_.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
            const std::array<real, 2> deepest = unpackLanes(begin, end);
            // (Only ResolverStats reads them: which of -0 and +0 stays does not matter.)
            detail::keepHighest(before, deepest[0]);
            detail::keepHighest(after, deepest[1]);
        });
        colouredDepth_ = {before.load(), after.load()};
    }
    describedSizes_ = {placeCount_, manifolds.size()};
    if (watch_.observer != nullptr) describeColoured(contacts, manifolds); // as a fast step leaves them when asked
}

void SoftStepSolver::startBodies(std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t k = first; k < last; ++k) {
        const std::uint32_t i = colouredBodies_[k];
        startMotion(i, packing_.sub);
        states_[i] = detail::stateOf(bodies_[i]);
    }
}

void SoftStepSolver::storeBodies(std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t k = first; k < last; ++k) detail::storeState(states_[colouredBodies_[k]], bodies_[colouredBodies_[k]]);
}

void SoftStepSolver::finishBlocks(std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t k = first; k < last; ++k) kernels_->finish(blocks_[k], pointBlocks_.data() + blocks_[k].firstPoint, states_.data());
}

std::array<real, 2> SoftStepSolver::unpackLanes(std::uint32_t first, std::uint32_t last) {
    // In contact order, as packed (in block order, the manifolds written all over memory
    // cost spheres4096 a fifth more).
    real deepestBefore = -std::numeric_limits<real>::infinity(), deepestAfter = deepestBefore;
    for (std::uint32_t m = first; m < last; ++m) {
        const SoftBlock& b = blocks_[slots_[m] / detail::softBlockWidth];
        const int lane = static_cast<int>(slots_[m] % detail::softBlockWidth);
        ContactManifold& cm = packing_.manifolds[manifolds_[m].source];
        const SoftPointBlock* points = pointBlocks_.data() + b.firstPoint;
        for (std::uint32_t i = 0; i < b.points; ++i) {
            deepestBefore = std::max(deepestBefore, cm.manifold.points[i].depth);
            deepestAfter = std::max(deepestAfter, real(-points[i].after[lane]));
        }
        detail::unpack(b, points, perStep_, cm, lane);
    }
    return {deepestBefore, deepestAfter};
}

void SoftStepSolver::runShard(std::uint32_t g) {
    const std::uint32_t firstBlock = colourStarts_[shardColours_[g]], lastBlock = colourStarts_[shardColours_[g + 1]];
    startBodies(shardBodies_[g], shardBodyEnds_[g]);
    fillBlocks(firstBlock, lastBlock);
    packLanes(shardManifolds_[g], shardManifolds_[g + 1]);
    prepareBlocks(firstBlock, lastBlock);
    for (std::uint32_t at = shardStages_[g]; at < shardStages_[g + 1]; ++at)
        for (std::uint32_t item = 0; item < stages_[at].items(); ++item) runItem(stages_[at], item);
    storeBodies(shardBodies_[g], shardBodyEnds_[g]);
    finishBlocks(firstBlock, lastBlock);
    shardDepths_[g] = unpackLanes(shardManifolds_[g], shardManifolds_[g + 1]);
}

void SoftStepSolver::describeColoured(std::span<Contact> contacts, std::span<const ContactManifold> manifolds) const {
    // The lists the last solve was given, or nothing: a caller that kept the flag past a
    // change of either (World::restoreBackup, settleColouredContacts reset it) would
    // otherwise write out of bounds.
    if (contacts.size() != describedSizes_[0] || manifolds.size() != describedSizes_[1]) return;
    for (std::size_t m = 0; m < manifolds_.size(); ++m) {
        const SoftBlock& b = blocks_[slots_[m] / detail::softBlockWidth];
        const int lane = static_cast<int>(slots_[m] % detail::softBlockWidth);
        const detail::SoftManifold& soft = manifolds_[m];
        const ContactManifold& cm = manifolds[soft.source];
        const SoftPointBlock* points = pointBlocks_.data() + b.firstPoint;
        const detail::LaneFriction f = detail::laneFriction(b, points, perStep_, lane);
        const Mat3 basis = contactBasis(cm.manifold.normal);
        const std::uint64_t key = detail::contactKey(cm, 0);
        for (std::uint32_t i = 0; i < b.points; ++i) {
            const SoftPointBlock& q = points[i];
            Contact& c = contacts[q.contact[lane]];
            const Vec3 kept = detail::keptImpulse(f, q, perStep_, lane);
            detail::describe(cm, soft.source, i, key, basis, q, lane, kept, c);
            // The step's whole normal impulse, less the kept one (soft_step.hpp: an
            // impact's, taken in one substep, would warm start the next step with an impact).
            c.bounceImpulse = Vec3(q.applied[lane] + q.bounced[lane] - kept.x(), 0, 0);
            c.penetration = -q.after[lane]; // after the step (SoftKernels::finish)
        }
    }
}

void SoftStepSolver::layoutShard(std::uint32_t g, std::uint32_t mark) {
    const std::uint32_t first = shardManifolds_[g], last = shardManifolds_[g + 1];
    // Its moving bodies, each once; the colours of its dynamic bodies cleared (its
    // island's own: islands share no dynamic body).
    // (motions_, a byte a body, not the bodies: stampMoving's test of `moves` with it.)
    std::uint32_t body = 2 * first;
    shardBodies_[g] = body;
    for (std::uint32_t k = first; k < last; ++k)
        for (const std::uint32_t i : manifolds_[k].body) {
            const std::uint8_t motion = motions_[i];
            if (motion & takesImpulses) colourMask_[i] = 0;
            if (i == 0 || stamp_[i] == mark || !(motion & movesHere)) continue;
            stamp_[i] = mark;
            colouredBodies_[body++] = i;
        }
    shardBodyEnds_[g] = body;
    // Colours: the lowest free one of the two moving bodies, else the overflow.
    std::uint32_t top = 0; // the highest colour given
    for (std::uint32_t k = first; k < last; ++k) {
        const detail::SoftManifold& m = manifolds_[k];
        const bool movesA = (motions_[m.body[0]] & takesImpulses) != 0, movesB = (motions_[m.body[1]] & takesImpulses) != 0;
        const std::uint64_t taken = (movesA ? colourMask_[m.body[0]] : 0) | (movesB ? colourMask_[m.body[1]] : 0);
        std::uint32_t colour = static_cast<std::uint32_t>(std::countr_zero(~taken));
        if (colour >= colourCount) {
            colour = colourCount;
        } else {
            if (movesA) colourMask_[m.body[0]] |= std::uint64_t{1} << colour;
            if (movesB) colourMask_[m.body[1]] |= std::uint64_t{1} << colour;
        }
        keys_[k] = colour * keysPerColour + m.count;
        top = std::max(top, colour);
    }
    // A counting sort by (colour, points), stable: contact order within each (over the
    // keys of the colours given: a column of ten boxes has two of 33).
    const std::uint32_t keys = (top + 1) * keysPerColour;
    std::uint32_t* counts = counts_.data() + std::size_t{g} * (keysPerShard + 1);
    for (std::uint32_t k = first; k < last; ++k) ++counts[keys_[k] + 1];
    // The blocks each colour takes (softBlockWidth manifolds of one key a block), and
    // their point blocks (as many as a block's manifolds have points).
    std::uint32_t* blocks = colourBlocks_.data() + std::size_t{g} * (colourCount + 1);
    for (std::uint32_t key = 0; key < keys; ++key) {
        const std::uint32_t n = (counts[key + 1] + detail::softBlockWidth - 1) / detail::softBlockWidth;
        blocks[key / keysPerColour] += n;
        shardPoints_[g] += n * (key % keysPerColour);
    }
    counts[0] = first;
    for (std::uint32_t key = 0; key < keys; ++key) counts[key + 1] += counts[key];
    for (std::uint32_t k = first; k < last; ++k) order_[counts[keys_[k]]++] = k; // (counts now each key's next slot)
}

void SoftStepSolver::placeShards() {
    // Where each shard's colours, blocks and point blocks begin (serial: a few integers a
    // colour), in shard order: the blocks in (shard, colour, points) order.
    colourStarts_.clear();
    colourOverflows_.clear();
    shardColours_.clear();
    shardBlocks_.clear();
    shardPointStarts_.clear();
    std::uint32_t blocks = 0, points = 0;
    for (std::uint32_t g = 0; g < shardCount(); ++g) {
        shardColours_.push_back(static_cast<std::uint32_t>(colourStarts_.size()));
        shardBlocks_.push_back(blocks);
        shardPointStarts_.push_back(points);
        for (std::uint32_t c = 0; c <= colourCount; ++c) {
            const std::uint32_t n = colourBlocks_[std::size_t{g} * (colourCount + 1) + c];
            if (n == 0) continue;
            colourStarts_.push_back(blocks);
            colourOverflows_.push_back(c == colourCount ? 1 : 0);
            blocks += n;
        }
        points += shardPoints_[g];
    }
    shardColours_.push_back(static_cast<std::uint32_t>(colourStarts_.size()));
    shardBlocks_.push_back(blocks);
    shardPointStarts_.push_back(points);
    colourStarts_.push_back(blocks);
    // Each shard's first block starts at its first manifold (listBlocks writes the rest:
    // the block after a shard's last is the next shard's, which its own worker must not
    // write while this one reads it).
    detail::resizeGrowing(blockFirst_, blocks + 1);
    detail::resizeGrowing(blockPoints_, blocks);
    for (std::uint32_t g = 0; g < shardCount(); ++g)
        if (shardBlocks_[g] < shardBlocks_[g + 1]) blockFirst_[shardBlocks_[g]] = shardManifolds_[g];
    blockFirst_[blocks] = static_cast<std::uint32_t>(manifolds_.size());
    detail::resizeGrowing(blocks_, blocks); // (a settled step keeps the sizes: nothing is constructed or allocated)
    detail::resizeGrowing(pointBlocks_, points);
    detail::resizeGrowing(slots_, manifolds_.size());
}

void SoftStepSolver::listBlocks(std::uint32_t g) {
    // Consecutive manifolds of one key in the shard's order, softBlockWidth at a time.
    std::uint32_t block = shardBlocks_[g], point = shardPointStarts_[g], lane = detail::softBlockWidth, blockKey = 0;
    for (std::uint32_t at = shardManifolds_[g]; at < shardManifolds_[g + 1]; ++at) {
        const std::uint32_t key = keys_[order_[at]];
        if (lane == detail::softBlockWidth || key != blockKey) {
            if (block > shardBlocks_[g]) blockFirst_[block] = at; // (the first: placeShards)
            blockPoints_[block] = point;
            point += key % keysPerColour;
            ++block;
            lane = 0;
            blockKey = key;
        }
        ++lane;
    }
}

void SoftStepSolver::fillBlocks(std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t k = first; k < last; ++k) {
        SoftBlock& b = blocks_[k];
        b = SoftBlock{};
        b.firstPoint = blockPoints_[k];
        b.points = manifolds_[order_[blockFirst_[k]]].count;
        b.used = blockFirst_[k + 1] - blockFirst_[k];
        for (std::uint32_t i = 0; i < b.points; ++i) pointBlocks_[b.firstPoint + i] = SoftPointBlock{};
        for (std::uint32_t lane = 0; lane < b.used; ++lane) slots_[order_[blockFirst_[k] + lane]] = k * detail::softBlockWidth + lane;
    }
}

void SoftStepSolver::packLanes(std::uint32_t first, std::uint32_t last) {
    // The lanes filled in contact order, the order the manifolds lie in: a manifold's
    // bodies are mostly its neighbours' too, and stay in the cache (in colour order each
    // lane read two bodies from all over memory: spheres4096 a fifth slower).
    const Packing& p = packing_;
    for (std::uint32_t m = first; m < last; ++m) {
        SoftBlock& b = blocks_[slots_[m] / detail::softBlockWidth];
        const detail::SoftManifold& soft = manifolds_[m];
        const int lane = static_cast<int>(slots_[m] % detail::softBlockWidth);
        SoftPointBlock* points = pointBlocks_.data() + b.firstPoint;
        const ContactManifold& cm = p.manifolds[soft.source];
        detail::pack(cm, soft, m, p.bodies, bodies_, p.softness, p.perSubstep, p.warm, b, points, lane);
        if (watch_.observer == nullptr) continue;
        // Watched: the records read the contacts during the solve (soft_records.cpp),
        // as gatherContacts leaves the others, from their warm starts.
        const Mat3 basis = contactBasis(cm.manifold.normal);
        const std::uint64_t key = detail::contactKey(cm, 0);
        for (std::uint32_t i = 0; i < soft.count; ++i)
            detail::describe(cm, soft.source, i, key, basis, points[i], lane,
                             p.warm ? detail::warmStartImpulse(cm, i, basis) : Vec3::Zero(), p.contacts[soft.first + i]);
    }
}

void SoftStepSolver::prepareBlocks(std::uint32_t first, std::uint32_t last) {
    // The effective masses, levers and turns, a block at a time in its lanes (SoftKernels::prepare).
    for (std::uint32_t k = first; k < last; ++k) {
        SoftBlock& b = blocks_[k];
        kernels_->prepare(b, pointBlocks_.data() + b.firstPoint);
        for (std::uint32_t lane = 0; lane < b.used; ++lane) b.bouncy = b.bouncy || b.restitution[lane] > 0;
    }
}

} // namespace jounce

// ---- the passes as stages, on one thread or several ----------------------------------------
namespace jounce {

using detail::SoftStage;

void SoftStepSolver::chooseShards(std::uint32_t workers) {
    // Two shards a worker where they cut evenly, else one: each worker starts at its own
    // shards and takes any another has not begun, so a worker that starts late, or
    // whose processor the host takes away for a while, leaves its second shard to the
    // others instead of holding them all up at the end.
    if (workers >= 2)
        for (const std::uint32_t shards : {2 * workers, workers})
            if (cutShards(shards)) return;
    shardManifolds_.assign({0, static_cast<std::uint32_t>(manifolds_.size())});
}

bool SoftStepSolver::cutShards(std::uint32_t shards) {
    const auto islands = static_cast<std::uint32_t>(islandManifolds_.size() - 1);
    // Work enough for each shard to run alone (as for the colours shared among
    // workers, solveColoured's minBlocksForThreads), and islands enough to cut.
    constexpr std::uint32_t minManifoldsPerShard = 128;
    if (islands < shards || manifolds_.size() < std::size_t{minManifoldsPerShard} * shards) return false;
    // Contact points before each island (a block's passes cost about its points).
    std::uint64_t total = 0;
    for (const detail::SoftManifold& m : manifolds_) total += m.count;
    shardManifolds_.assign(1, 0);
    std::uint64_t sum = 0, most = 0, shardSum = 0;
    std::uint32_t island = 0;
    for (std::uint32_t g = 0; g < shards; ++g) {
        // Whole islands while the next one ends nearer this shard's share of the points
        // than it starts (the last shard takes the rest).
        const std::uint64_t goal = total * (g + 1) / shards;
        shardSum = 0;
        while (island < islands) {
            std::uint64_t points = 0;
            for (std::uint32_t k = islandManifolds_[island]; k < islandManifolds_[island + 1]; ++k) points += manifolds_[k].count;
            if (g + 1 < shards && shardSum > 0 && 2 * (sum + shardSum) + points > 2 * goal) break;
            shardSum += points;
            ++island;
        }
        sum += shardSum;
        most = std::max(most, shardSum);
        shardManifolds_.push_back(islandManifolds_[island]);
    }
    // Even enough: the slowest shard within a fifth of the mean.
    return 5 * most * shards <= 6 * total;
}

void SoftStepSolver::planStages(int substeps, int relaxIterations, std::uint32_t workers) {
    stages_.clear();
    shardStages_.clear();
    const bool bouncy = bouncy_; // (the blocks are packed after the plan, by the workers)
    // Shards run on one worker each: their stages are single items (a shard of one
    // walks each stage in items, for the workers to share).
    if (shardCount() > 1) workers = 1;
    // Items: two per worker, and at least 64 bodies or 4 blocks each, so claiming (an
    // atomic exchange per item, staged_run.hpp) costs little beside the work.
    constexpr std::uint32_t bodiesPerItem = 64, blocksPerItem = 4;
    std::uint32_t substep = 0;
    const auto add = [&](SoftStage::Kind kind, std::uint32_t first, std::uint32_t last, std::uint32_t least,
                         std::uint32_t colour = 0, bool overflow = false) {
        if (first == last) return;
        const std::uint32_t per = workers == 1 ? last - first : std::max(least, (last - first + 2 * workers - 1) / (2 * workers));
        stages_.push_back({kind, first, last - first, overflow ? last - first : per, substep, colour, overflow});
    };
    for (std::uint32_t g = 0; g < shardCount(); ++g) {
        shardStages_.push_back(static_cast<std::uint32_t>(stages_.size()));
        const std::uint32_t firstColour = shardColours_[g], lastColour = shardColours_[g + 1];
        const std::uint32_t firstBody = shardBodies_[g], lastBody = shardBodyEnds_[g];
        const std::uint32_t firstBlock = colourStarts_[firstColour], lastBlock = colourStarts_[lastColour];
        // A pass that writes bodies goes colour by colour; the overflow colour is one
        // item, its lanes in order (they may share bodies).
        const auto byColour = [&](SoftStage::Kind kind) {
            for (std::uint32_t c = firstColour; c < lastColour; ++c)
                add(kind, colourStarts_[c], colourStarts_[c + 1], blocksPerItem, c - firstColour, colourOverflows_[c] != 0);
        };
        for (int s = 0; s < substeps; ++s) {
            substep = static_cast<std::uint32_t>(s);
            add(SoftStage::Kind::Kick, firstBody, lastBody, bodiesPerItem);
            if (bouncy) add(SoftStage::Kind::Note, firstBlock, lastBlock, blocksPerItem); // reads bodies, writes only its blocks
            byColour(SoftStage::Kind::Warm);
            byColour(SoftStage::Kind::Solve);
            add(SoftStage::Kind::Drift, firstBody, lastBody, bodiesPerItem);
            for (int r = 0; r < relaxIterations; ++r) byColour(SoftStage::Kind::Relax);
            if (bouncy) byColour(SoftStage::Kind::Bounce);
        }
    }
    shardStages_.push_back(static_cast<std::uint32_t>(stages_.size()));
}

void SoftStepSolver::runItem(const SoftStage& stage, std::uint32_t item) {
    const std::uint32_t begin = stage.first + item * stage.per;
    const std::uint32_t end = std::min(stage.first + stage.count, begin + stage.per);
    using Kind = SoftStage::Kind;
    if (stage.kind == Kind::Kick || stage.kind == Kind::Drift) {
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t i = colouredBodies_[k];
            if (stage.kind == Kind::Kick)
                detail::kickState(states_[i], bodies_[i]);
            else
                detail::driftState(states_[i], bodies_[i], pass_.sub);
        }
        return;
    }
    SoftState* states = states_.data();
    for (std::uint32_t b = begin; b < end; ++b) {
        const detail::SoftKernels& k = stage.overflow ? detail::scalarSoftKernels() : *kernels_;
        SoftBlock& block = blocks_[b];
        SoftPointBlock* points = pointBlocks_.data() + block.firstPoint;
        switch (stage.kind) {
        case Kind::Note:
            if (block.bouncy) k.noteApproach(block, points, states);
            break;
        case Kind::Warm: k.warmStart(block, points, states); break;
        case Kind::Solve: k.solve(block, points, states, true, pass_.invSub, pass_.maxPushOut); break;
        case Kind::Relax: k.solve(block, points, states, false, pass_.invSub, pass_.maxPushOut); break;
        case Kind::Bounce:
            if (block.bouncy) k.bounce(block, points, states, pass_.threshold, pass_.sub);
            break;
        case Kind::Kick:
        case Kind::Drift: break;
        }
    }
}

void SoftStepSolver::runStages(TaskSystem* tasks) {
    if (watch_.observer != nullptr) { // watched: one thread, lane by lane (soft_records.cpp)
        for (const SoftStage& stage : stages_)
            for (std::uint32_t item = 0; item < stage.items(); ++item) runItemWatched(stage, item);
        return;
    }
    if (tasks == nullptr) {
        for (const SoftStage& stage : stages_)
            for (std::uint32_t item = 0; item < stage.items(); ++item) runItem(stage, item);
        return;
    }
    // Each worker walks a stage's blocks from its own share on, so unhindered it gets the
    // same blocks in every substep and they stay in its core's cache (Box2D v3's workers
    // start at their own blocks the same way); a slow worker's blocks go to the others.
    staged_.clear();
    for (const SoftStage& stage : stages_) staged_.addStage(stage.items());
    staged_.execute(*tasks, [this](std::uint32_t stage, std::uint32_t item) { runItem(stages_[stage], item); });
}

} // namespace jounce
