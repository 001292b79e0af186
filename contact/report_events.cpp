// SPDX-License-Identifier: MIT
// Stage 9 of the step: what touched what (Box2D v3's events: plain arrays read after
// the step). The pairs touching now are compared with the pairs that touched after
// the previous step, both sorted by collider handle: only-now is a begin, both a
// persist, only-before an end. Sensors work the same way on their overlaps.
// The manifolds are read in chunks on the workers: when each chunk's pairs rise in key
// order (the usual case: the narrow phase walks the pairs in collider order), each chunk
// is compared with its own part of the last list there too, counted and then written
// where the counts put it; otherwise (and on one thread) the comparison is one walk on
// the calling thread.

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

constexpr std::uint32_t eventChunk = 512; ///< manifolds per chunk of the events

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

namespace {

using Keys = std::pair<std::uint64_t, std::uint64_t>;
Keys keysOf(const ContactManifold& m) { return {key(m.colliderA), key(m.colliderB)}; }

/// A manifold's event: its deepest point (the caller has checked it has points).
ContactEvent eventOf(const ContactManifold& m) {
    const ContactPoint& deepest = m.manifold.deepest();
    return ContactEvent{m.colliderA, m.colliderB, m.bodyA, m.bodyB, deepest.point, m.manifold.normal, deepest.depth, m.approachSpeed};
}

/// What a manifold reports: nothing (no points), a near pair (speculative, and its gap
/// stays open this substep) or a touching one (TouchRule).
enum Reported : std::uint8_t { reportsNothing, reportsNear, reportsTouching };
Reported reportedOf(const ContactManifold& m, TouchRule rule) {
    if (m.manifold.count == 0) return reportsNothing;
    return rule.touches(m.manifold.deepest().depth, m.approachSpeed) ? reportsTouching : reportsNear;
}

/// Walks a chunk's touching pairs (keyOf(j) for j in [0, count), rising) against its
/// part of the last step's touching list, was[wasFirst, wasLast) (rising too), calling
/// begin(j), persist(j) and end(i) in key order.
template <class KeyOf, class Begin, class Persist, class End>
void mergeChunk(std::uint32_t count, KeyOf keyOf, const std::vector<ContactEvent>& was, std::uint32_t wasFirst,
                std::uint32_t wasLast, Begin begin, Persist persist, End end) {
    std::uint32_t i = wasFirst;
    for (std::uint32_t j = 0; j < count; ++j) {
        const Keys now = keyOf(j);
        while (i < wasLast && keys(was[i]) < now) end(i++);
        if (i < wasLast && keys(was[i]) == now) {
            persist(j);
            ++i;
        } else {
            begin(j);
        }
    }
    while (i < wasLast) end(i++);
}

/// Phase A, on the workers: what each manifold reports, each chunk's counts and whether
/// its touching and its near pairs come in strictly rising key order (the narrow phase
/// walks the broad phase's pairs in collider order, so they usually do).
void classifyEvents(const std::vector<ContactManifold>& contacts, TouchRule rule, ContactScratch& scratch, TaskSystem* tasks) {
    const auto count = static_cast<std::uint32_t>(contacts.size());
    // One chunk at least: with no manifolds left, the first chunk ends every pair.
    const std::uint32_t chunks = std::max<std::uint32_t>(1, (count + eventChunk - 1) / eventChunk);
    scratch.reported.resize(count);
    scratch.eventChunks.resize(chunks);
    parallelFor(tasks, chunks, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t c = begin; c < end; ++c) {
            ContactScratch::EventChunk& chunk = scratch.eventChunks[c];
            chunk = {};
            for (std::uint32_t k = c * eventChunk; k < std::min(count, (c + 1) * eventChunk); ++k) {
                const ContactManifold& m = contacts[k];
                const Reported r = reportedOf(m, rule);
                scratch.reported[k] = r;
                if (r == reportsNothing) continue;
                const Keys at = keysOf(m);
                std::uint32_t& n = r == reportsTouching ? chunk.touching : chunk.near;
                Keys& first = r == reportsTouching ? chunk.firstTouching : chunk.firstNear;
                Keys& last = r == reportsTouching ? chunk.lastTouching : chunk.lastNear;
                if (n == 0) first = at;
                else chunk.ordered = chunk.ordered && last < at;
                last = at;
                ++n;
            }
        }
    });
}

/// Whether the chunks' touching and near pairs each rise strictly across the whole list.
bool chunksOrdered(const std::vector<ContactScratch::EventChunk>& chunks) {
    bool anyTouching = false, anyNear = false;
    Keys lastTouching{}, lastNear{};
    for (const ContactScratch::EventChunk& c : chunks) {
        if (!c.ordered) return false;
        if (c.touching > 0) {
            if (anyTouching && !(lastTouching < c.firstTouching)) return false;
            anyTouching = true;
            lastTouching = c.lastTouching;
        }
        if (c.near > 0) {
            if (anyNear && !(lastNear < c.firstNear)) return false;
            anyNear = true;
            lastNear = c.lastNear;
        }
    }
    return true;
}

/// The events of a step whose pairs came in order and with nothing asleep (no pair was
/// left untested): each chunk merges its touching pairs with its part of the last
/// step's list on a worker, counted first, then written where the counts put it, so
/// the lists are the same as one walk in order would make.
void reportInOrder(const std::vector<ContactManifold>& contacts, std::vector<ContactEvent>& touching,
                   std::vector<ContactEvent>& nearNow, ContactScratch& scratch, ContactEvents& events, TaskSystem* tasks) {
    std::vector<ContactScratch::EventChunk>& chunks = scratch.eventChunks;
    const auto count = static_cast<std::uint32_t>(contacts.size());
    const auto chunkCount = static_cast<std::uint32_t>(chunks.size());
    const std::vector<ContactEvent>& was = touching;
    // Each chunk's part of the last list: from where its first touching pair would lie
    // (the first chunk from the start, an empty chunk nothing), to the next chunk's.
    auto next = static_cast<std::uint32_t>(was.size());
    for (std::uint32_t c = chunkCount; c-- > 0;) {
        if (c == 0) next = 0;
        else if (chunks[c].touching > 0)
            next = static_cast<std::uint32_t>(std::lower_bound(was.begin(), was.end(), chunks[c].firstTouching,
                                                               [](const ContactEvent& e, const Keys& k) { return keys(e) < k; }) -
                                              was.begin());
        chunks[c].wasFirst = next;
    }
    const auto wasLast = [&](std::uint32_t c) { return c + 1 < chunkCount ? chunks[c + 1].wasFirst : static_cast<std::uint32_t>(was.size()); };
    // Phase B: each chunk's begins, persists and ends, counted.
    parallelFor(tasks, chunkCount, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t c = begin; c < end; ++c) {
            ContactScratch::EventChunk& chunk = chunks[c];
            std::uint32_t k = c * eventChunk;
            const auto keyOf = [&](std::uint32_t) {
                while (scratch.reported[k] != reportsTouching) ++k;
                return keysOf(contacts[k++]);
            };
            mergeChunk(chunk.touching, keyOf, was, chunk.wasFirst, wasLast(c), [&](std::uint32_t) { ++chunk.begins; },
                       [&](std::uint32_t) { ++chunk.persists; }, [&](std::uint32_t) { ++chunk.ends; });
        }
    });
    // Where each chunk writes, and the lists sized.
    std::uint32_t touchingAt = 0, nearAt = 0, beginAt = 0, persistAt = 0, endAt = 0;
    for (ContactScratch::EventChunk& c : chunks) {
        c.touchingAt = touchingAt;
        c.nearAt = nearAt;
        c.beginAt = beginAt;
        c.persistAt = persistAt;
        c.endAt = endAt;
        touchingAt += c.touching;
        nearAt += c.near;
        beginAt += c.begins;
        persistAt += c.persists;
        endAt += c.ends;
    }
    std::vector<ContactEvent>& now = scratch.touching;
    resizeOver(now, touchingAt);
    resizeOver(nearNow, nearAt);
    resizeOver(events.begin, beginAt);
    resizeOver(events.persist, persistAt);
    resizeOver(events.end, endAt);
    // Phase C: written.
    parallelFor(tasks, chunkCount, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t c = begin; c < end; ++c) {
            const ContactScratch::EventChunk& chunk = chunks[c];
            ContactEvent* touched = now.data() + chunk.touchingAt;
            ContactEvent* nearby = nearNow.data() + chunk.nearAt;
            for (std::uint32_t k = c * eventChunk; k < std::min(count, (c + 1) * eventChunk); ++k) {
                if (scratch.reported[k] == reportsTouching) *touched++ = eventOf(contacts[k]);
                else if (scratch.reported[k] == reportsNear) *nearby++ = eventOf(contacts[k]);
            }
            const ContactEvent* own = now.data() + chunk.touchingAt;
            ContactEvent* begins = events.begin.data() + chunk.beginAt;
            ContactEvent* persists = events.persist.data() + chunk.persistAt;
            ContactEvent* ends = events.end.data() + chunk.endAt;
            mergeChunk(chunk.touching, [&](std::uint32_t j) { return keys(own[j]); }, was, chunk.wasFirst, wasLast(c),
                       [&](std::uint32_t j) { *begins++ = own[j]; }, [&](std::uint32_t j) { *persists++ = own[j]; },
                       [&](std::uint32_t i) { *ends++ = was[i]; });
        }
    });
}

/// The events from the pairs found (scratch.touching and scratch.near, in the order
/// found) in one walk here, when they came out of order or some were left untested.
void reportAnyOrder(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<std::uint8_t>& asleep,
                    bool anyUntestedDynamic, const std::vector<ContactEvent>& touching, ContactScratch& scratch,
                    ContactEvents& events) {
    std::vector<ContactEvent>& now = scratch.touching;
    std::vector<ContactEvent>& nearNow = scratch.near;
    // A pair whose bodies slept while the contacts were found (`asleep`, by body slot:
    // markFastBodies) was not tested: the broad phase pairs nothing asleep with what
    // does not move. It still touches, so it stays touching, silently (no persist
    // events while asleep, as in Jolt), until a body is awake for the search and the
    // narrow phase finds it again or not (then the end event). A kinematic body is
    // always searched. Per body slot, read once here: every pair asks about two bodies,
    // and a pair's bodies lie all over the body array (0.3 ms of spheres4096's 16 went
    // to reading them).
    constexpr std::uint8_t isDynamic = 1, isUntested = 2;
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
}

} // namespace

void reportContacts(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<std::uint8_t>& asleep,
                    const std::vector<ContactManifold>& contacts, TouchRule rule, std::vector<ContactEvent>& touching, std::vector<ContactEvent>& near,
                    ContactScratch& scratch, ContactEvents& events, TaskSystem* tasks) {
    std::vector<ContactEvent>& now = scratch.touching;
    std::vector<ContactEvent>& nearNow = scratch.near;
    // `asleep` holds live dynamic bodies only: none set, no pair was left untested.
    const bool anyUntestedDynamic = std::find(asleep.begin(), asleep.end(), std::uint8_t{1}) != asleep.end();
    // On several workers: what each manifold reports, chunk by chunk (reading 13 000
    // manifolds of 0.5 kB, spheres4096, is most of this stage), then, when the pairs
    // came in order, the comparison too.
    const bool shared = tasks != nullptr && tasks->workerCount() > 1 && contacts.size() > eventChunk;
    if (shared) classifyEvents(contacts, rule, scratch, tasks);
    if (shared && !anyUntestedDynamic && chunksOrdered(scratch.eventChunks)) {
        reportInOrder(contacts, touching, nearNow, scratch, events, tasks);
    } else {
        // One thread, the pairs out of order (a shape on a mesh has a manifold per
        // normal) or some left untested: one walk here. The touching ones stay, in
        // manifold order; the speculative ones go to `nearNow`.
        resizeOver(now, contacts.size());
        nearNow.clear();
        std::size_t kept = 0;
        for (std::size_t k = 0; k < contacts.size(); ++k) {
            const ContactManifold& m = contacts[k];
            if (m.manifold.count == 0) continue;
            const ContactEvent e = eventOf(m);
            if (rule.touches(e.depth, e.approachSpeed)) now[kept++] = e;
            else emplaceGrowing(nearNow, e);
        }
        now.resize(kept);
        reportAnyOrder(bodies, colliders, asleep, anyUntestedDynamic, touching, scratch, events);
    }
    releaseIdleRoom(events.begin);
    releaseIdleRoom(events.end);
    // A begin met at the speed the speculative contact of the step before saw (a pair
    // that begins did not touch then: its manifolds were all speculative, in `near`,
    // which rises strictly).
    for (ContactEvent& e : events.begin) {
        const auto k = std::lower_bound(near.begin(), near.end(), e, [](const ContactEvent& x, const ContactEvent& y) { return before(x, y); });
        if (k != near.end() && !before(e, *k)) e.approachSpeed = std::max(e.approachSpeed, k->approachSpeed);
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
