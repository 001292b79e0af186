// SPDX-License-Identifier: MIT
// Stages 3 and 4 of the step: the broad phase over every collider's fat box, then
// the narrow phase over the pairs it finds (DESIGN.md steps 3-4). The shape tests of
// collision/ know nothing of bodies; this file maps bodies and colliders onto their
// plain inputs.

#include "collision/stages.hpp"
#include "common/growth.hpp"
#include "common/parallel.hpp"

#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/time_of_impact.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <type_traits>

namespace jounce::detail {

namespace {
/// How many steps of motion ahead a moving collider's new fat box reaches.
constexpr real predictedSteps = 4;

template <typename Derived> bool sameBits(const Eigen::DenseBase<Derived>& a, const Eigen::DenseBase<Derived>& b) {
    return std::memcmp(a.derived().data(), b.derived().data(), sizeof(real) * static_cast<std::size_t>(a.size())) == 0;
}
} // namespace

bool PlacedCollider::madeFrom(const Body& body, std::uint32_t colliderGeneration) const {
    return valid && generation == colliderGeneration && sameBits(position, body.position) &&
           sameBits(orientation.coeffs(), body.orientation.coeffs()) && sameBits(localCentroid, body.localCentroid);
}

bool PlacedCollider::place(const Body& body, const Collider& collider, std::uint32_t colliderGeneration) {
    if (madeFrom(body, colliderGeneration)) return true;
    const Transform at = body.origin() * collider.local;
    *this = {colliderGeneration, true, body.position, body.localCentroid, body.orientation, at, computeAabb(collider.shape, at)};
    return false;
}

namespace {

constexpr std::uint32_t noProxy = 0xffffffff;
/// The least colliders a worker places at a time (colliderProxies).
constexpr std::uint32_t collidersPerRange = 256;

/// Collider slot i's fat box, refreshed to cover the step's sweep, as proxy k.
void placeProxy(const BodyArray& bodies, ColliderArray& colliders, const CollisionSettings& settings, std::uint32_t i,
                std::uint32_t k, std::vector<BroadPhaseProxy>& proxies, std::vector<ColliderId>& proxyColliders,
                CollisionScratch& scratch, real h) {
    Collider& c = colliders.atSlot(i);
    const Body& b = bodies[c.body];
    PlacedCollider& placed = scratch.placed[i];
    placed.place(b, c, colliders.idOf(i).generation); // or as World::indexQueries placed it after the last step
    // The box covers where the shape is now and where its velocity takes it this
    // step, so a fast body meets what lies in its path (see narrowPhase).
    const Aabb& tight = placed.tight;
    Aabb swept = tight;
    const Vec3 move = b.type != BodyType::Static ? Vec3(b.linearVelocity * h) : Vec3::Zero();
    if (settings.continuous) {
        swept.min = swept.min.cwiseMin(swept.min + move);
        swept.max = swept.max.cwiseMax(swept.max + move);
    }
    // A new fat box also reaches where the velocity takes the body over the next
    // steps, so a falling body is moved in the broad phase's tree every few steps,
    // not every step (docs/collision.md has the figures).
    fattenAabb(c.fatBox, swept, settings.aabbMargin, predictedSteps * move);
    BroadPhaseProxy& p = proxies[k];
    p = BroadPhaseProxy{};
    p.box = c.fatBox;
    p.owner = c.body.index;
    p.moves = b.type != BodyType::Static;
    p.awake = b.awake;
    p.category = c.filter.category;
    p.mask = c.filter.mask;
    p.sensor = c.sensor;
    proxyColliders[k] = colliders.idOf(i);
    scratch.poses[k] = placed.pose;
    scratch.boxes[k] = tight;
    scratch.velocities[k] = b.linearVelocity;
    scratch.sensors[k] = c.sensor ? 1 : 0;
}

} // namespace

void colliderProxies(const BodyArray& bodies, ColliderArray& colliders, const CollisionSettings& settings,
                     std::vector<BroadPhaseProxy>& proxies, std::vector<ColliderId>& proxyColliders,
                     CollisionScratch& scratch, real h, TaskSystem* tasks) {
    // Proxy k is the k-th live collider in slot order: where each goes is counted first,
    // then the colliders are placed on their own, shared among the workers.
    std::vector<std::uint32_t>& proxyOf = scratch.proxyOf;
    proxyOf.resize(colliders.slotCount());
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < colliders.slotCount(); ++i) proxyOf[i] = colliders.isAlive(i) ? count++ : noProxy;
    proxies.resize(count);
    proxyColliders.resize(count);
    scratch.poses.resize(count);
    scratch.boxes.resize(count);
    scratch.velocities.resize(count);
    scratch.sensors.resize(count);
    scratch.placed.resize(colliders.slotCount());
    parallelFor(tasks, static_cast<std::uint32_t>(colliders.slotCount()), collidersPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i)
            if (proxyOf[i] != noProxy) placeProxy(bodies, colliders, settings, i, proxyOf[i], proxies, proxyColliders, scratch, h);
    });
}

namespace {

/// The depth of a manifold's deepest point (negative: still apart by that much).
real deepestDepth(const Manifold& m) {
    return m.count > 0 ? m.deepest().depth : -std::numeric_limits<real>::infinity();
}

/// Speculative contacts, made honest. The closest features of two shapes still apart
/// say nothing of where they will meet: a ball flying past a box's corner gets a
/// contact whose normal points at the corner, and the resolver would stop it at a
/// wall that is not in its way (a "ghost" collision). So each speculative manifold is
/// kept only if the shapes' sweeps over the step come within `margin`
/// (conservative advancement, time_of_impact.hpp), and then it is rebuilt at the
/// time of impact: the normal and points where they meet, the points moved back with
/// the bodies and the gap measured back along that normal, so the resolver lets them
/// close exactly that gap this step. Contacts within the margin stay as they are.
void checkSpeculative(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, real margin,
                      std::vector<Manifold>& manifolds, std::vector<Manifold>& rebuilt, std::vector<Manifold>& walk) {
    const TimeOfImpact toi = timeOfImpact(a, sa, b, sb, margin, 32, &walk);
    std::erase_if(manifolds, [&](const Manifold& m) { return deepestDepth(m) < -margin; });
    if (!toi.hit) return;
    rebuilt.clear();
    collideAll(a, sa.at(toi.fraction), b, sb.at(toi.fraction), 2 * margin, rebuilt);
    // Relative move of A against B up to the impact, and how the points travel back:
    // with the body that moves (both: halfway between).
    const Vec3 relative = toi.fraction * (sa.linear - sb.linear);
    const bool bothMove = sa.linear != Vec3::Zero() && sb.linear != Vec3::Zero();
    const Vec3 back = toi.fraction * (bothMove ? Vec3((sa.linear + sb.linear) / 2) : Vec3(sa.linear + sb.linear));
    for (Manifold& m : rebuilt) {
        // The normal points from B toward A: A moving by `relative` opened the gap by
        // relative . n, so now it is that much wider (the depth that much smaller).
        const real opened = relative.dot(m.normal);
        for (int i = 0; i < m.count; ++i) {
            ContactPoint& p = m.points[static_cast<std::size_t>(i)];
            p.depth += opened;
            p.point -= back;
        }
        if (deepestDepth(m) >= -margin) continue; // already touching: the contact is there
        manifolds.push_back(m);
    }
}

/// Closing speed along the normal at the deepest point (> 0: approaching).
real approachSpeed(const Body& a, const Body& b, const Manifold& m) {
    const Vec3& p = m.deepest().point;
    return -(a.velocityAt(p) - b.velocityAt(p)).dot(m.normal);
}

/// Whether two boxes lie more than `gap` apart along some world axis: then so do the
/// shapes inside them, by at least that much (a gap along any direction bounds the
/// distance from below).
bool apart(const Aabb& a, const Aabb& b, real gap) {
    return (a.min.array() > b.max.array() + gap).any() || (b.min.array() > a.max.array() + gap).any();
}

/// Whether a pair's points are worth keeping while it barely moves: not for spheres,
/// capsules and planes among themselves, whose tests in closed form cost less than
/// placing the kept points again (spheres4096: refreshing was a third of the narrow
/// phase).
bool worthRefreshing(const Shape& a, const Shape& b) {
    const auto closedForm = [](const Shape& s) {
        return std::holds_alternative<Sphere>(s) || std::holds_alternative<Capsule>(s) || std::holds_alternative<HalfSpace>(s);
    };
    return !closedForm(a) || !closedForm(b);
}

bool isFast(const std::vector<std::uint8_t>& fast, std::uint32_t a, std::uint32_t b) {
    return (a < fast.size() && fast[a]) || (b < fast.size() && fast[b]);
}

} // namespace

const std::vector<ProxyPair>& findPairs(BroadPhase& bp, const std::vector<BroadPhaseProxy>& proxies, TaskSystem* tasks) {
    return bp.findPairs(proxies, tasks);
}

namespace {

/// What one worker of the narrow phase needs: a pair's manifolds as they are built.
struct PairInputs {
    const BodyArray& bodies;
    const ColliderArray& colliders;
    const CollisionSettings& settings;
    const std::vector<ColliderId>& proxyColliders;
    const std::vector<ProxyPair>& pairs;
    const std::vector<ContactManifold>& previous;
    real h;
    CollisionScratch& scratch;
};

/// The radius a shape rolls on: a sphere's, a capsule's or a cylinder's; 0 for shapes
/// that do not roll.
real rollingRadius(const Shape& shape) {
    if (const auto* s = std::get_if<Sphere>(&shape)) return s->radius;
    if (const auto* c = std::get_if<Capsule>(&shape)) return c->radius;
    if (const auto* c = std::get_if<Cylinder>(&shape)) return c->radius;
    return 0;
}

/// The pair's contact as the step reports it: bodies, colliders, combined material.
void describeInto(ContactManifold& m, const Collider& ca, const Collider& cb, ColliderId ia, ColliderId ib) {
    m.bodyA = ca.body;
    m.bodyB = cb.body;
    m.colliderA = ia;
    m.colliderB = ib;
    m.friction = combineFriction(ca.material.friction, ca.material.frictionCombine, cb.material.friction,
                                 cb.material.frictionCombine);
    m.restitution = combineRestitution(ca.material.restitution, ca.material.restitutionCombine, cb.material.restitution,
                                       cb.material.restitutionCombine);
    m.surfaceVelocity = Vec3::Zero(); // a contact modifier's: set again each substep (a refreshed manifold kept the last)
    // Either side may carry the coefficient (turf slows every ball; a soft tyre slows on
    // anything), the roller its radius: the larger coefficient, and the smaller radius of
    // two rollers (a ball on a great drum rolls as a ball).
    const real ra = rollingRadius(ca.shape), rb = rollingRadius(cb.shape);
    const real radius = ra > 0 && rb > 0 ? std::min(ra, rb) : std::max(ra, rb);
    m.rollingResistance = std::max(ca.material.rollingResistance, cb.material.rollingResistance) * radius;
}

/// Where a run of pairs puts its manifolds: first into `room` slots of the step's list
/// from `slots` on (on several workers, the slots its pairs' manifolds filled last step:
/// a settled pair makes as many again), then onto `extra`. Each manifold starts as a
/// default-constructed one or a copy, wherever it lands.
struct ManifoldSink {
    ContactManifold* slots = nullptr;
    std::size_t room = 0, used = 0;
    std::vector<ContactManifold>* extra = nullptr;

    ContactManifold& add() {
        if (used == room) return emplaceGrowing(*extra);
        // Made in its slot (a temporary copied over it wrote the 0.5 kB twice);
        // nothing to destroy first: every member is plain data.
        static_assert(std::is_trivially_destructible_v<ContactManifold>);
        return *std::construct_at(&slots[used++]);
    }
    ContactManifold& add(const ContactManifold& from) {
        if (used == room) return emplaceGrowing(*extra, from);
        slots[used] = from;
        return slots[used++];
    }
};

/// Tested pair `tested`'s manifolds (or sensor overlap) added to `contacts` (`sensors`).
void collidePair(const PairInputs& in, std::uint32_t tested, CollisionScratch::PairWork& work, ManifoldSink& contacts,
                 std::vector<SensorEvent>& sensors) {
    const ProxyPair& pair = in.pairs[in.scratch.tested[tested]];
    const Aabb& boxA = in.scratch.boxes[pair.a];
    const Aabb& boxB = in.scratch.boxes[pair.b];
    const CollisionSettings& settings = in.settings;
    // Speculative margin: shapes closer than they can approach this step get a contact
    // (with the gap as negative depth), so the resolver stops a fast body at the
    // surface instead of finding it deep inside, or past, a thin one. They approach
    // at most at their relative speed: boxes falling side by side, a whole pile of
    // them, make no contacts (with |v_a| + |v_b| each pair's sweep was tested: 5 ms a
    // step while pile1000 fell).
    const bool sensing = in.scratch.sensors[pair.a] || in.scratch.sensors[pair.b];
    const real closing = in.h * (in.scratch.velocities[pair.a] - in.scratch.velocities[pair.b]).norm(); // at most, this step
    const real approach = settings.continuous ? closing : 0;
    // The broad phase pairs fat boxes (grown by aabbMargin, so pairs change seldom): most
    // of its pairs in a pile are neighbours whose shapes lie farther apart than that,
    // and their tight boxes say so for the cost of six comparisons (pile1000: 83 % of
    // the pairs, each a separating-axis test of fifteen axes otherwise).
    if (!sensing && apart(boxA, boxB, settings.collisionMargin + approach)) return;
    const ColliderId ia = in.proxyColliders[pair.a], ib = in.proxyColliders[pair.b];
    const Collider& ca = in.colliders[ia];
    const Collider& cb = in.colliders[ib];
    const Body& ba = in.bodies[ca.body];
    const Body& bb = in.bodies[cb.body];
    // The colliders' poses, composed once per step by colliderProxies (nothing moves
    // between the two stages), not once per pair.
    const Transform& pa = in.scratch.poses[pair.a];
    const Transform& pb = in.scratch.poses[pair.b];
    std::vector<Manifold>& manifolds = work.manifolds;
    manifolds.clear();
    if (sensing) {
        // A sensor only reports what overlaps it (touching counts), and two sensors do
        // not sense each other.
        if ((ca.sensor && cb.sensor) || apart(boxA, boxB, 0)) return;
        if (collideAll(ca.shape, pa, cb.shape, pb, 0, manifolds) > 0)
            sensors.push_back(ca.sensor ? SensorEvent{ia, ib, ca.body, cb.body} : SensorEvent{ib, ia, cb.body, ca.body});
        return;
    }
    // A pair that barely moved since its points were found keeps them, if the two move
    // slowly relative to each other: a refresh skips the search ahead along the motion
    // (for a fast body, the sweep below). Relative: two boxes of a stack share the step's
    // gravity kick, g h = 16 cm/s, and their speeds summed passed half the margin.
    const bool slow = closing <= settings.collisionMargin / 2;
    const ManifoldRange range = in.scratch.previous[tested];
    const std::span<const ContactManifold> last(in.previous.data() + range.first, range.last - range.first);
    const bool refreshable = worthRefreshing(ca.shape, cb.shape);
    if (refreshable && slow && !isFast(in.scratch.fast, ca.body.index, cb.body.index) && mayRefresh(last, pa, pb, settings)) {
        for (const ContactManifold& kept : last) {
            // Its impulses, anchors and pose when found carry over whole; the points move
            // with the anchors.
            ContactManifold& m = contacts.add(kept);
            describeInto(m, ca, cb, ia, ib);
            refreshPoints(m, pa, pb);
            m.approachSpeed = approachSpeed(ba, bb, m.manifold);
        }
        return;
    }
    collideAll(ca.shape, pa, cb.shape, pb, settings.collisionMargin + approach, manifolds);
    // Speculative manifolds (still apart by more than the margin) are checked against
    // the shapes' sweeps over the step and rebuilt where they meet.
    const bool speculative = std::any_of(manifolds.begin(), manifolds.end(), [&](const Manifold& m) {
        return deepestDepth(m) < -settings.collisionMargin;
    });
    if (speculative && isFast(in.scratch.fast, ca.body.index, cb.body.index))
        // A fast body is swept after the resolver instead (continuous.cpp): moved only to
        // its first impact, it meets the contact next step, within the margin, where it
        // is (far ahead, the points would sit on the wrong part of a body that moves
        // much farther than its size in the step). Manifolds within twice the margin
        // stay: the sweep measures box and hull gaps by a lower bound, finds them
        // "touching at the start" and leaves them to the resolver, which must then have
        // them (the soak: a box 1.02 cm over the floor at 12 m/s had neither, and went
        // through).
        std::erase_if(manifolds, [&](const Manifold& m) { return deepestDepth(m) < -2 * settings.collisionMargin; });
    else if (speculative)
        checkSpeculative(ca.shape, sweepOf(ba, pa, in.h), cb.shape, sweepOf(bb, pb, in.h), settings.collisionMargin,
                         manifolds, work.speculative, work.sweep);
    for (const Manifold& manifold : manifolds) {
        // Built where it stays (a manifold is 0.5 kB: made aside and copied, it cost twice).
        ContactManifold& m = contacts.add();
        m.manifold = manifold;
        describeInto(m, ca, cb, ia, ib);
        m.approachSpeed = approachSpeed(ba, bb, manifold);
        // Points apart by more than the margin describe where the shapes will meet,
        // not where they are: never refreshed; nor is a pair closing fast (no anchors).
        m.origin = deepestDepth(manifold) < -settings.collisionMargin ? ContactManifold::Origin::Speculative
                   : slow                                             ? ContactManifold::Origin::Found
                                                                      : ContactManifold::Origin::Moving;
        if (m.origin == ContactManifold::Origin::Found && refreshable) recordAnchors(m, pa, pb);
        carryImpulses(last, m);
    }
}

/// Pairs per chunk: a chunk's results go to its own lists, joined in chunk order, so
/// the contacts come out in pair order whichever worker ran which chunk.
constexpr std::uint32_t pairsPerChunk = 64;
/// Fewer chunks are tested on the calling thread: handing them out costs more than it shares.
constexpr std::uint32_t minChunksForThreads = 8;

} // namespace

void narrowPhase(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings,
                 const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                 const std::vector<ContactManifold>& previous, std::vector<ContactManifold>& contacts, real h,
                 CollisionScratch& scratch, const ContactFilter& filter, std::vector<SensorEvent>& sensorOverlaps,
                 TaskSystem* tasks) {
    sensorOverlaps.clear();
    // The pairs to test, in pair order; the game's filter is called here, on this
    // thread, in pair order (as documented), never from a worker.
    std::vector<std::uint32_t>& tested = scratch.tested;
    tested.clear();
    scratch.offPairs.clear();
    // Without joints that turn collision off or a filter, every body pair is tested
    // (and the colliders, all over memory, need not be looked up here).
    const bool screened = !noCollision.empty() || static_cast<bool>(filter);
    if (!screened) {
        // Every pair but the particles' (the particle layer's), without a branch: this
        // loop runs on the calling thread while the workers wait, and with a push_back
        // a pair it was the narrow phase's largest serial part.
        tested.resize(pairs.size());
        std::uint32_t* out = tested.data();
        const ProxyPair* in = pairs.data();
        const std::size_t colliderProxies = proxyColliders.size();
        std::uint32_t count = 0;
        for (std::uint32_t k = 0; k < pairs.size(); ++k) {
            out[count] = k;
            count += in[k].b < colliderProxies ? 1 : 0;
        }
        tested.resize(count);
    }
    for (std::uint32_t k = 0; screened && k < pairs.size(); ++k) {
        const ProxyPair& pair = pairs[k];
        if (pair.b >= proxyColliders.size()) continue; // a particle's pair: the particle layer's
        const ColliderId ia = proxyColliders[pair.a], ib = proxyColliders[pair.b];
        const std::uint32_t a = colliders[ia].body.index, b = colliders[ib].body.index;
        // Bodies a joint holds together (and told not to collide) skip the test.
        if (std::binary_search(noCollision.begin(), noCollision.end(), std::pair{std::min(a, b), std::max(a, b)})) continue;
        if (filter && !filter(ia, ib)) { // the game vetoed the pair
            scratch.offPairs.emplace_back(std::min(ia.index, ib.index), std::max(ia.index, ib.index));
            continue;
        }
        tested.push_back(k);
    }
    findPreviousManifolds(previous, proxyColliders, pairs, tested, scratch.previous, tasks);
    const auto chunks = static_cast<std::uint32_t>((tested.size() + pairsPerChunk - 1) / pairsPerChunk);
    const std::uint32_t workers = tasks ? tasks->workerCount() : 1;
    if (scratch.workers.size() < workers) scratch.workers.resize(workers);
    if (scratch.chunkContacts.size() < chunks) {
        scratch.chunkContacts.resize(chunks);
        scratch.chunkSensors.resize(chunks);
        scratch.chunkErrors.resize(chunks);
    }
    const PairInputs in{bodies, colliders, settings, proxyColliders, pairs, previous, h, scratch};
    if (!tasks || workers < 2 || chunks < minChunksForThreads) {
        // One worker: straight into the step's lists, in pair order.
        // Room for as many as last step before the first is added: a growing scene's list
        // then grows while empty, instead of copying what this step has found so far.
        contacts.clear();
        reserveGrowing(contacts, previous.size());
        ManifoldSink sink{nullptr, 0, 0, &contacts};
        for (std::uint32_t k = 0; k < tested.size(); ++k) collidePair(in, k, scratch.workers[0], sink, sensorOverlaps);
        return;
    }
    // Each chunk writes where its pairs' manifolds of the last step lay, counted from
    // the last step's list, straight into the step's list; what does not fit goes to the
    // chunk's own list. A settled scene's chunks make as many manifolds as before and
    // nothing is copied; otherwise the chunks are joined in chunk order afterwards.
    std::vector<std::size_t>& predicted = scratch.chunkOffsets; // where each chunk's manifolds went last step
    predicted.assign(chunks + 1, 0);
    parallelFor(tasks, chunks, 64, [&](std::uint32_t begin, std::uint32_t end) { // each chunk's count, then the sums
        for (std::uint32_t chunk = begin; chunk < end; ++chunk) {
            const std::size_t first = std::size_t{chunk} * pairsPerChunk, last = std::min(tested.size(), first + pairsPerChunk);
            std::size_t count = 0;
            for (std::size_t k = first; k < last; ++k) count += scratch.previous[k].last - scratch.previous[k].first;
            predicted[chunk + 1] = count;
        }
    });
    for (std::uint32_t chunk = 0; chunk < chunks; ++chunk) predicted[chunk + 1] += predicted[chunk];
    // Sized over what the list held (an older step's manifolds, each overwritten before it
    // is read): clearing first constructed every manifold again, 8 MB a step for spheres4096.
    resizeOver(contacts, predicted[chunks]);
    scratch.chunkUsed.assign(chunks, 0);
    struct Context {
        const PairInputs& in;
        CollisionScratch& scratch;
        std::vector<ContactManifold>& contacts;
    } context{in, scratch, contacts};
    const TaskFunction collideChunks = [](std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* raw) {
        const Context& c = *static_cast<const Context*>(raw);
        for (std::uint32_t chunk = begin; chunk < end; ++chunk) {
            const std::size_t at = c.scratch.chunkOffsets[chunk];
            std::vector<ContactManifold>& extra = c.scratch.chunkContacts[chunk];
            std::vector<SensorEvent>& sensed = c.scratch.chunkSensors[chunk];
            extra.clear();
            sensed.clear();
            ManifoldSink sink{c.contacts.data() + at, c.scratch.chunkOffsets[chunk + 1] - at, 0, &extra};
            const std::size_t first = std::size_t{chunk} * pairsPerChunk;
            const std::size_t last = std::min(c.scratch.tested.size(), first + pairsPerChunk);
            try {
                for (std::size_t k = first; k < last; ++k)
                    collidePair(c.in, static_cast<std::uint32_t>(k), c.scratch.workers[worker], sink, sensed);
            } catch (...) { // kept, so the step fails with the first pair's error, as on one thread
                c.scratch.chunkErrors[chunk] = std::current_exception();
            }
            c.scratch.chunkUsed[chunk] = sink.used;
        }
    };
    std::fill(scratch.chunkErrors.begin(), scratch.chunkErrors.begin() + chunks, nullptr);
    tasks->run(chunks, 1, collideChunks, &context);
    for (std::uint32_t chunk = 0; chunk < chunks; ++chunk)
        if (scratch.chunkErrors[chunk]) std::rethrow_exception(scratch.chunkErrors[chunk]);
    bool asPredicted = true;
    for (std::uint32_t chunk = 0; chunk < chunks; ++chunk) {
        sensorOverlaps.insert(sensorOverlaps.end(), scratch.chunkSensors[chunk].begin(), scratch.chunkSensors[chunk].end());
        asPredicted = asPredicted && scratch.chunkContacts[chunk].empty() &&
                      scratch.chunkUsed[chunk] == predicted[chunk + 1] - predicted[chunk];
    }
    if (asPredicted) return;
    // Joined in chunk order into the other list, each chunk's part (its slots, then its
    // own list) copied by a worker, and the lists swapped.
    std::vector<std::size_t>& offsets = scratch.joinOffsets;
    offsets.assign(chunks + 1, 0);
    for (std::uint32_t chunk = 0; chunk < chunks; ++chunk)
        offsets[chunk + 1] = offsets[chunk] + scratch.chunkUsed[chunk] + scratch.chunkContacts[chunk].size();
    std::vector<ContactManifold>& joined = scratch.joined;
    resizeOver(joined, offsets[chunks]);
    struct Join {
        CollisionScratch& scratch;
        const std::vector<ContactManifold>& contacts;
        std::vector<ContactManifold>& joined;
    } join{scratch, contacts, joined};
    tasks->run(chunks, 4, [](std::uint32_t begin, std::uint32_t end, std::uint32_t, void* raw) {
        const Join& j = *static_cast<const Join*>(raw);
        for (std::uint32_t chunk = begin; chunk < end; ++chunk) {
            const auto from = j.contacts.begin() + static_cast<std::ptrdiff_t>(j.scratch.chunkOffsets[chunk]);
            auto to = j.joined.begin() + static_cast<std::ptrdiff_t>(j.scratch.joinOffsets[chunk]);
            to = std::copy(from, from + static_cast<std::ptrdiff_t>(j.scratch.chunkUsed[chunk]), to);
            std::copy(j.scratch.chunkContacts[chunk].begin(), j.scratch.chunkContacts[chunk].end(), to);
        }
    }, &join);
    contacts.swap(joined);
}

} // namespace jounce::detail
