// SPDX-License-Identifier: MIT
// Continuous collision for fast bodies (docs/collision.md, "Fast bodies"; the scheme
// of Box2D v3's continuous stage, with Mirtich's conservative advancement for the time
// of impact). A body that moves more than half its smallest size in a step could pass
// a wall thinner than itself between two steps. Such a body is swept against
// everything its swept broad-phase box meets, with the velocities the resolver left,
// and moves only up to the first impact. It keeps its velocity: next step the contact
// is there, within the margin, with the true normal and points, and the resolver
// stops it at the surface. The time it loses (the rest of the step) is what this
// costs; nothing passes through.

#include "collision/stages.hpp"
#include "common/disjoint_sets.hpp"
#include "common/parallel.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/time_of_impact.hpp>

#include <algorithm>
#include <exception>
#include <mutex>
#include <limits>
#include <variant>

namespace jounce::detail {
namespace {

/// Half the smallest size of a shape (its radius for round ones): what it may move in
/// a step without anything thinner than itself slipping through unseen.
real smallestHalfSize(const Shape& shape) {
    return std::visit(
        [](const auto& s) -> real {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere> || std::is_same_v<S, Capsule>) return s.radius;
            else if constexpr (std::is_same_v<S, Box>) return s.halfExtents.minCoeff();
            else if constexpr (std::is_same_v<S, Cylinder>) return std::min(s.radius, s.halfHeight);
            else if constexpr (std::is_same_v<S, ConvexHull>) {
                Vec3 low = Vec3::Constant(std::numeric_limits<real>::infinity()), high = -low;
                for (const Vec3& v : s.hull->vertices) {
                    low = low.cwiseMin(v);
                    high = high.cwiseMax(v);
                }
                return ((high - low) / 2).minCoeff();
            } else {
                return std::numeric_limits<real>::infinity(); // static only: never moves
            }
        },
        shape);
}

/// Lowers a body's share of the step to `share`; the array is made (all 1) on first use,
/// so a step where nothing is limited leaves it empty.
void limitShare(std::vector<real>& fraction, std::size_t slots, std::uint32_t body, real share) {
    if (fraction.empty()) fraction.assign(slots, 1);
    fraction[body] = std::min(fraction[body], share);
}

/// A body asleep while the contacts were found has none with static or sleeping
/// neighbours (the broad phase pairs only what moves); woken this step by a hit, it
/// would be pushed through the floor it rested on with nothing holding it (the soak:
/// a resting box struck by a falling one, 0.22 m through in one step). It keeps the
/// velocity the resolver gave it and moves from the next step, when its contacts are
/// all found.
void holdWokenBodies(const BodyArray& bodies, const std::vector<std::uint8_t>& asleep, std::vector<real>& fraction) {
    for (std::size_t i = 0; i < asleep.size(); ++i)
        if (asleep[i] && bodies.isAlive(i) && bodies.atSlot(i).awake)
            limitShare(fraction, bodies.slotCount(), static_cast<std::uint32_t>(i), 0);
}

/// The resolver may run out of iterations before it has stopped a body on static
/// ground: the soak found boxes struck down at 13-15 m/s by falling ones, still closing
/// on the floor after the resolver, moving their whole step (0.22 m) through its
/// surface. A dynamic body still closing on a contact point with a static or
/// kinematic body moves at most `margin` deeper into it (or up to it, if the point is
/// still apart); it keeps its velocity, and next step's resolver meets the contact
/// again. Between two dynamic bodies the resolver's impulses move both: not limited.
void limitMotionIntoStatic(const BodyArray& bodies, const std::vector<ContactManifold>& contacts, real margin, real h,
                           std::vector<std::pair<std::uint32_t, real>>& limits, std::vector<real>& fraction, TaskSystem* tasks) {
    // Each manifold's limit (its body and the least share its points allow, or none) on
    // the workers, into its own slot; then applied here in manifold order. A body keeps
    // the least of its limits, so the result is the same bits as one pass in order.
    constexpr real none = std::numeric_limits<real>::infinity();
    limits.resize(contacts.size());
    parallelFor(tasks, static_cast<std::uint32_t>(contacts.size()), 512, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t k = first; k < last; ++k) {
            const ContactManifold& m = contacts[k];
            limits[k] = {0, none};
            const Body& a = bodies[m.bodyA];
            const Body& b = bodies[m.bodyB];
            const bool limitA = a.isDynamic() && a.awake && !b.isDynamic();
            const bool limitB = b.isDynamic() && b.awake && !a.isDynamic();
            if (!limitA && !limitB) continue;
            real least = none;
            for (int i = 0; i < m.manifold.count; ++i) {
                const ContactPoint& p = m.manifold.points[static_cast<std::size_t>(i)];
                // The normal points from B toward A: A closes on B by -(vA - vB) . n.
                const real closing = -(a.velocityAt(p.point) - b.velocityAt(p.point)).dot(m.manifold.normal) * h;
                const real allowed = margin + std::max(-p.depth, real(0));
                if (!(closing > allowed)) continue;
                least = std::min(least, allowed / closing);
            }
            limits[k] = {limitA ? m.bodyA.index : m.bodyB.index, least};
        }
    });
    for (const auto& [body, share] : limits)
        if (share < none) limitShare(fraction, bodies.slotCount(), body, share);
}

/// A fast body already touching a static or kinematic shape: the time of impact is 0,
/// so the sweep says nothing, yet the body may turn about that contact and carry the
/// rest of itself through a thin surface (a 2 cm box at 100 m/s through a mesh floor:
/// 12 in 100 drops; one spinning at 42 rad/s across a mesh also slipped past the walk). Its centre of mass must not cross the surface: it moves at most
/// to `margin` before where the straight path of its centre enters the shape (a ray
/// cast; Box2D v3's continuous stage falls back to the centroid the same way). A mesh
/// or a half-space, which has no inside to push it back out of, then still holds it.
bool limitCentreCrossing(const Body& body, const Shape& own, const Transform& ownPose, const Body& other, const Shape& surface,
                         const Transform& pose, real h, real margin, real& share) {
    // Only a centre inside the body's own collider: a ring's or a bucket's centre lies in
    // the air, and stopping it at a peg would hang the ring there.
    if (!(signedDistance(own, ownPose, body.position).distance <= 0)) return false;
    // Relative to the surface: a kinematic platform moving with the body does not stop it.
    const Vec3 travel = (body.linearVelocity - other.velocityAt(body.position)) * h;
    const real length = travel.norm();
    ShapeRayHit hit;
    if (!(length > 0) || !rayCast(surface, pose, body.position, body.position + travel, hit)) return false;
    // hit.fraction <= 1: a travel shorter than the margin stops at once (and margin /
    // length, for a travel of a denormal's length, would overflow).
    share = std::min(share, length > margin ? std::max(real(0), hit.fraction - margin / length) : real(0));
    return true;
}

/// One pair with a fast body swept over the step: the share of its move each fast side
/// may make (limitFastMotion).
PairLimit sweepPair(const BodyArray& bodies, const Collider& ca, const Collider& cb, const std::vector<std::uint8_t>& fast,
                    const CollisionSettings& settings, real h, std::vector<Manifold>& scratch) {
    PairLimit limit;
    const std::uint32_t ia = ca.body.index, ib = cb.body.index;
    const Body& ba = bodies[ca.body];
    const Body& bb = bodies[cb.body];
    const Transform poseA = ba.origin() * ca.local, poseB = bb.origin() * cb.local;
    const TimeOfImpact toi = timeOfImpact(ca.shape, sweepOf(ba, poseA, h), cb.shape, sweepOf(bb, poseB, h),
                                          settings.collisionMargin, 32, &scratch);
    if (toi.hit && toi.fraction > 0) {
        if (fast[ia]) limit.limitsA = true, limit.shareA = toi.fraction;
        if (fast[ib]) limit.limitsB = true, limit.shareB = toi.fraction;
    }
    // Touching at the start (fraction 0), the resolver has dealt with the contact but
    // not with the rest of the body, which may turn about it and pass a thin surface;
    // and a body spinning fast across a mesh can slip past the walk. Its centre still
    // must not cross a static or kinematic shape.
    if (fast[ia] && !bb.isDynamic())
        limit.limitsA |= limitCentreCrossing(ba, ca.shape, poseA, bb, cb.shape, poseB, h, settings.collisionMargin, limit.shareA);
    if (fast[ib] && !ba.isDynamic())
        limit.limitsB |= limitCentreCrossing(bb, cb.shape, poseB, ba, ca.shape, poseA, h, settings.collisionMargin, limit.shareB);
    return limit;
}

/// The least bodies, colliders or swept pairs a worker takes at a time here.
constexpr std::uint32_t sweptPerRange = 256;
constexpr std::uint32_t pairsPerSweepRange = 16;

} // namespace

Sweep sweepOf(const Body& b, const Transform& pose, real h) {
    Sweep s;
    s.start = pose;
    s.centre = b.position;
    if (b.type != BodyType::Static) {
        s.linear = b.linearVelocity * h;
        s.angular = b.angularVelocity * h;
    }
    return s;
}

void markFastBodies(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings, real h,
                    CollisionScratch& scratch, TaskSystem* tasks) {
    std::vector<std::uint8_t>& fast = scratch.fast;
    fast.clear();
    // Which dynamic bodies sleep while the contacts are found (see holdWokenBodies).
    std::vector<std::uint8_t>& asleep = scratch.asleep;
    asleep.resize(bodies.slotCount());
    const auto bodySlots = static_cast<std::uint32_t>(bodies.slotCount());
    parallelFor(tasks, bodySlots, sweptPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i)
            asleep[i] = bodies.isAlive(i) && bodies.atSlot(i).isDynamic() && !bodies.atSlot(i).awake;
    });
    if (!settings.continuous) return;
    // Per collider slot, then per body slot: the smallest half size over a body's
    // colliders and how far they reach from its centre of mass. The colliders are
    // measured on the workers; a body's several colliders are then taken together here.
    std::vector<std::pair<real, real>>& measured = scratch.colliderSizes;
    measured.resize(colliders.slotCount());
    parallelFor(tasks, static_cast<std::uint32_t>(colliders.slotCount()), sweptPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            measured[i] = {std::numeric_limits<real>::infinity(), real(0)};
            if (!colliders.isAlive(i)) continue;
            const Collider& c = colliders.atSlot(i);
            const Body& b = bodies[c.body];
            if (!b.isDynamic() || !b.awake) continue;
            measured[i].first = smallestHalfSize(c.shape);
            // From the pose and box colliderProxies placed this collider at this substep
            // (the body has not moved since).
            const PlacedCollider& placed = scratch.placed[i];
            if (b.angularVelocity != Vec3::Zero()) measured[i].second = reachFrom(c.shape, placed.pose, placed.tight, b.position);
        }
    });
    std::vector<real>& size = scratch.halfSize;
    std::vector<real>& reach = scratch.reach;
    size.assign(bodies.slotCount(), std::numeric_limits<real>::infinity());
    reach.assign(bodies.slotCount(), 0);
    for (std::size_t i = 0; i < colliders.slotCount(); ++i) {
        if (!colliders.isAlive(i)) continue;
        const std::uint32_t slot = colliders.atSlot(i).body.index;
        size[slot] = std::min(size[slot], measured[i].first);
        reach[slot] = std::max(reach[slot], measured[i].second);
    }
    fast.resize(bodies.slotCount());
    parallelFor(tasks, bodySlots, sweptPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            fast[i] = 0;
            if (!bodies.isAlive(i)) continue;
            const Body& b = bodies.atSlot(i);
            if (!b.isDynamic() || !b.awake || !(size[i] < std::numeric_limits<real>::infinity())) continue;
            const real move = h * (b.linearVelocity.norm() + b.angularVelocity.norm() * reach[i]);
            fast[i] = b.bullet || move > size[i];
        }
    });
}

void limitFastMotion(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings,
                     const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                     const std::vector<ContactManifold>& contacts, real h, CollisionScratch& scratch, TaskSystem* tasks) {
    std::vector<real>& fraction = scratch.fraction;
    fraction.clear();
    holdWokenBodies(bodies, scratch.asleep, fraction);
    if (!settings.continuous) return;
    limitMotionIntoStatic(bodies, contacts, settings.collisionMargin, h, scratch.manifoldLimits, fraction, tasks);
    const std::vector<std::uint8_t>& fast = scratch.fast;
    if (std::find(fast.begin(), fast.end(), 1) == fast.end()) return;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& off = scratch.offPairs;
    std::sort(off.begin(), off.end());
    // The pairs with a fast body, in broad-phase order; each is swept on a worker into
    // its own limits, which are applied here in pair order, each body keeping its
    // earliest impact: the same answer whatever order the pairs came in.
    std::vector<std::uint32_t>& swept = scratch.sweptPairs;
    swept.clear();
    for (std::uint32_t k = 0; k < pairs.size(); ++k) {
        const ProxyPair& pair = pairs[k];
        if (pair.b >= proxyColliders.size()) continue; // a particle's pair
        const std::uint32_t ia = colliders[proxyColliders[pair.a]].body.index, ib = colliders[proxyColliders[pair.b]].body.index;
        if (!fast[ia] && !fast[ib]) continue;
        const std::pair<std::uint32_t, std::uint32_t> owners{std::min(ia, ib), std::max(ia, ib)};
        if (ia == ib || std::binary_search(noCollision.begin(), noCollision.end(), owners)) continue;
        const std::uint32_t xa = proxyColliders[pair.a].index, xb = proxyColliders[pair.b].index;
        if (std::binary_search(off.begin(), off.end(), std::pair{std::min(xa, xb), std::max(xa, xb)})) continue; // the game let it pass
        swept.push_back(k);
    }
    std::vector<PairLimit>& limits = scratch.pairLimits;
    limits.assign(swept.size(), PairLimit{});
    const std::uint32_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    if (scratch.workers.size() < workers) scratch.workers.resize(workers);
    // A sweep may throw (a NaN sweep of a body that overflowed): the error of the first
    // such pair in pair order is the one passed on, as on one thread.
    std::mutex failing;
    std::uint32_t failedAt = ~std::uint32_t{0};
    std::exception_ptr failure;
    parallelForWorkers(tasks, static_cast<std::uint32_t>(swept.size()), pairsPerSweepRange,
                       [&](std::uint32_t first, std::uint32_t last, std::uint32_t worker) {
        for (std::uint32_t k = first; k < last; ++k) {
            const ProxyPair& pair = pairs[swept[k]];
            try {
                limits[k] = sweepPair(bodies, colliders[proxyColliders[pair.a]], colliders[proxyColliders[pair.b]], fast, settings,
                                      h, scratch.workers[worker].sweep);
            } catch (...) {
                const std::lock_guard lock(failing);
                if (k < failedAt) failedAt = k, failure = std::current_exception();
                return; // the rest of this range is after it in pair order
            }
        }
    });
    if (failure) std::rethrow_exception(failure);
    for (std::uint32_t k = 0; k < swept.size(); ++k) {
        const ProxyPair& pair = pairs[swept[k]];
        const std::uint32_t ia = colliders[proxyColliders[pair.a]].body.index, ib = colliders[proxyColliders[pair.b]].body.index;
        if (limits[k].limitsA) limitShare(fraction, bodies.slotCount(), ia, limits[k].shareA);
        if (limits[k].limitsB) limitShare(fraction, bodies.slotCount(), ib, limits[k].shareB);
    }
}

void shareAcrossJoints(const BodyArray& bodies, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                       CollisionScratch& scratch) {
    std::vector<real>& fraction = scratch.fraction;
    if (fraction.empty() || links.empty()) return; // nothing was stopped short
    // Joined dynamic bodies as sets (a ragdoll, a chain): the smallest share in a set
    // becomes all of its bodies'. Stopped alone, a shin that would pass the floor halts
    // at the impact while its thigh makes the whole move: its knee came 11 cm apart.
    DisjointSets sets(scratch.linked, fraction.size());
    const auto dynamic = [&](std::uint32_t i) { return i < fraction.size() && bodies.isAlive(i) && bodies.atSlot(i).isDynamic(); };
    for (const auto& [a, b] : links)
        if (dynamic(a) && dynamic(b)) sets.unite(a, b);
    std::vector<real>& least = scratch.leastShare;
    least.assign(fraction.size(), 1);
    for (std::uint32_t i = 0; i < fraction.size(); ++i) least[sets.find(i)] = std::min(least[sets.find(i)], fraction[i]);
    for (std::uint32_t i = 0; i < fraction.size(); ++i) fraction[i] = least[sets.find(i)];
}

} // namespace jounce::detail
