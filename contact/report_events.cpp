// SPDX-License-Identifier: MIT
// Stage 9 of the step: what touched what (Box2D v3's events: plain arrays read after
// the step). The pairs touching now are compared with the pairs that touched after
// the previous step, both sorted by collider handle: only-now is a begin, both a
// persist, only-before an end. Sensors work the same way on their overlaps.

#include "common/hot_inline.hpp"
#include "common/growth.hpp"
#include "common/parallel.hpp"
#include "contact/stages.hpp"

#include <algorithm>
#include <utility>

namespace jounce::detail {
namespace {

/// Handles in a total order: index, then generation (a reused slot is a new collider),
/// as one integer, so a pair of handles compares in two integer comparisons.
std::uint64_t key(ColliderId id) { return std::uint64_t{id.index} << 32 | id.generation; }
std::pair<std::uint64_t, std::uint64_t> keys(const ContactEvent& e) { return {key(e.colliderA), key(e.colliderB)}; }
std::pair<std::uint64_t, std::uint64_t> keys(const SensorEvent& e) { return {key(e.sensor), key(e.visitor)}; }
template <class Event> JOUNCE_HOT_INLINE bool before(const Event& x, const Event& y) { return keys(x) < keys(y); }

constexpr std::uint32_t eventChunk = 2048; ///< manifolds per chunk of the events' build

/// Whether every key is above the one before: sorted and no pair twice (the list
/// sortUnique would leave as it is). The narrow phase walks the broad phase's pairs in
/// collider order, so this is the usual case: one read of the list, not two.
bool strictlyOrdered(const std::vector<ContactEvent>& events) {
    for (std::size_t i = 1; i < events.size(); ++i)
        if (!before(events[i - 1], events[i])) return false;
    return true;
}

/// Walks two sorted lists: `now` only -> begin, both -> persist (now's record),
/// `was` only -> end (was's record).
template <typename Event, typename Persist>
void compare(const std::vector<Event>& was, const std::vector<Event>& now, std::vector<Event>& begin,
             std::vector<Event>& end, Persist persist) {
    std::size_t i = 0, k = 0;
    while (i < was.size() || k < now.size()) {
        if (k == now.size() || (i < was.size() && before(was[i], now[k]))) emplaceGrowing(end, was[i++]);
        else if (i == was.size() || before(now[k], was[i])) emplaceGrowing(begin, now[k++]);
        else {
            persist(now[k++]);
            ++i;
        }
    }
}

} // namespace

/// One event per collider pair (a shape on a mesh has a manifold per normal): the
/// deepest. Sorted by handle.
void sortUnique(std::vector<ContactEvent>& events) {
    const auto order = [](const ContactEvent& x, const ContactEvent& y) {
        const auto kx = keys(x), ky = keys(y);
        return kx != ky ? kx < ky : x.depth > y.depth;
    };
    // The narrow phase walks the broad phase's pairs in collider order, so the list
    // usually arrives sorted: checking is one pass, sorting n log n comparisons of
    // four handles each.
    if (!std::is_sorted(events.begin(), events.end(), order)) std::sort(events.begin(), events.end(), order);
    events.erase(std::unique(events.begin(), events.end(),
                             [](const ContactEvent& x, const ContactEvent& y) { return keys(x) == keys(y); }),
                 events.end());
}

void reportContacts(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<std::uint8_t>& asleep,
                    const std::vector<ContactManifold>& contacts, real touchDepth, std::vector<ContactEvent>& touching, std::vector<ContactEvent>& near,
                    ContactScratch& scratch, ContactEvents& events, TaskSystem* tasks) {
    std::vector<ContactEvent>& now = scratch.touching;
    std::vector<ContactEvent>& nearNow = scratch.near;
    // Every manifold's deepest point, chunk by chunk on the workers, each manifold into
    // its own slot of `now` (an empty manifold's a null event). Reading 13 000 manifolds
    // of 0.5 kB (spheres4096) is most of this stage.
    const auto count = static_cast<std::uint32_t>(contacts.size());
    const std::uint32_t chunks = (count + eventChunk - 1) / eventChunk;
    resizeOver(now, count);
    parallelFor(tasks, chunks, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin * eventChunk; k < std::min(count, end * eventChunk); ++k) {
            const ContactManifold& m = contacts[k];
            const Manifold& mf = m.manifold;
            if (mf.count == 0) {
                now[k] = ContactEvent{};
                continue;
            }
            const ContactPoint& deepest = mf.deepest();
            now[k] = ContactEvent{m.colliderA, m.colliderB, m.bodyA, m.bodyB, deepest.point, mf.normal, deepest.depth, m.approachSpeed};
        }
    });
    // The touching ones stay, in manifold order; the speculative ones (farther apart than
    // `touchDepth`: not touching yet) go to `nearNow`. Both lists are kept for the next
    // step, so they are three lists of events (with `touching` and the persists), not five
    // (each was a manifold's 96 bytes in the double build).
    nearNow.clear();
    std::uint32_t kept = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
        const ContactEvent& e = now[k];
        if (e.colliderA.isNull()) continue;
        if (!(e.depth >= -touchDepth)) {
            emplaceGrowing(nearNow, e);
            continue;
        }
        if (kept != k) now[kept] = e;
        ++kept;
    }
    now.resize(kept);
    // A pair whose bodies slept while the contacts were found (`asleep`, by body slot:
    // markFastBodies) was not tested: the broad phase pairs nothing asleep with what
    // does not move. It still touches, so it stays touching, silently (no persist
    // events while asleep, as in Jolt), until a body is awake for the search and the
    // narrow phase finds it again or not (then the end event). A kinematic body is
    // always searched. Per body slot, read once here: every pair asks about two bodies,
    // and a pair's bodies lie all over the body array (0.3 ms of spheres4096's 16 went
    // to reading them).
    constexpr std::uint8_t isDynamic = 1, isUntested = 2;
    // `asleep` holds live dynamic bodies only: none set, no pair was left untested.
    const bool anyUntestedDynamic = std::find(asleep.begin(), asleep.end(), std::uint8_t{1}) != asleep.end();
    std::vector<std::uint8_t>& flags = scratch.untested;
    flags.assign(anyUntestedDynamic ? bodies.slotCount() : 0, 0);
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if (!bodies.isAlive(i)) continue;
        const Body& body = bodies.atSlot(i);
        const bool dynamic = body.isDynamic(), sleeps = dynamic && i < asleep.size() && asleep[i];
        flags[i] = static_cast<std::uint8_t>((dynamic ? isDynamic : 0) | (body.type == BodyType::Static || sleeps ? isUntested : 0));
    }
    const auto flagsOf = [&](BodyId b) { return bodies.contains(b) ? flags[b.index] : std::uint8_t{0}; };
    const auto sleeping = [&](const ContactEvent& e) {
        if (!anyUntestedDynamic) return false; // a pair left untested has a sleeping side
        const std::uint8_t a = flagsOf(e.bodyA), b = flagsOf(e.bodyB);
        return ((a | b) & isDynamic) != 0 && (a & b & isUntested) != 0 && colliders.contains(e.colliderA) &&
               colliders.contains(e.colliderB);
    };
    if (anyUntestedDynamic)
        for (const ContactEvent& e : touching)
            if (sleeping(e)) now.push_back(e);
    if (!strictlyOrdered(now)) sortUnique(now);
    if (!strictlyOrdered(nearNow)) sortUnique(nearNow);
    events.begin.clear();
    events.persist.clear();
    reserveGrowing(events.persist, now.size());
    events.end.clear();
    compare(touching, now, events.begin, events.end, [&](const ContactEvent& e) {
        if (!sleeping(e)) events.persist.push_back(e);
    });
    releaseIdleRoom(events.begin);
    releaseIdleRoom(events.end);
    // A begin met at the speed the speculative contact of the step before saw (a pair
    // that begins did not touch then: its manifolds were all speculative, in `near`).
    std::size_t k = 0;
    for (ContactEvent& e : events.begin) {
        while (k < near.size() && before(near[k], e)) ++k;
        if (k < near.size() && !before(e, near[k])) e.approachSpeed = std::max(e.approachSpeed, near[k].approachSpeed);
    }
    touching.swap(now);
    near.swap(nearNow);
}

void reportSensors(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<SensorEvent>& overlaps,
                   ContactScratch& scratch, SensorEvents& events) {
    std::vector<SensorEvent>& now = scratch.sensing;
    now.assign(overlaps.begin(), overlaps.end());
    // A sleeping visitor is not tested (the broad phase pairs nothing that sleeps with
    // what does not move): it stays where it was, so it stays in.
    for (const SensorEvent& e : events.overlaps)
        if (colliders.contains(e.sensor) && colliders.contains(e.visitor) && bodies.contains(e.visitorBody) &&
            !bodies[e.visitorBody].awake)
            now.push_back(e);
    std::sort(now.begin(), now.end(), [](const SensorEvent& x, const SensorEvent& y) { return before(x, y); });
    now.erase(std::unique(now.begin(), now.end(), [](const SensorEvent& x, const SensorEvent& y) { return keys(x) == keys(y); }),
              now.end());
    events.begin.clear();
    events.end.clear();
    compare(events.overlaps, now, events.begin, events.end, [](const SensorEvent&) {});
    events.overlaps.swap(now);
}

} // namespace jounce::detail
