// SPDX-License-Identifier: MIT
// Stage 9 of the step: what touched what (Box2D v3's events: plain arrays read after
// the step). The pairs touching now are compared with the pairs that touched after
// the previous step, both sorted by collider handle: only-now is a begin, both a
// persist, only-before an end. Sensors work the same way on their overlaps.

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
template <class Event> bool before(const Event& x, const Event& y) { return keys(x) < keys(y); }

/// Walks two sorted lists: `now` only -> begin, both -> persist (now's record),
/// `was` only -> end (was's record).
template <typename Event, typename Persist>
void compare(const std::vector<Event>& was, const std::vector<Event>& now, std::vector<Event>& begin,
             std::vector<Event>& end, Persist persist) {
    std::size_t i = 0, k = 0;
    while (i < was.size() || k < now.size()) {
        if (k == now.size() || (i < was.size() && before(was[i], now[k]))) end.push_back(was[i++]);
        else if (i == was.size() || before(now[k], was[i])) begin.push_back(now[k++]);
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
                    ContactScratch& scratch, ContactEvents& events) {
    std::vector<ContactEvent>& now = scratch.touching;
    std::vector<ContactEvent>& nearNow = scratch.near;
    now.clear();
    nearNow.clear();
    for (const ContactManifold& m : contacts) {
        const Manifold& mf = m.manifold;
        if (mf.count == 0) continue;
        const ContactPoint& deepest = mf.deepest();
        const ContactEvent e{m.colliderA, m.colliderB, m.bodyA, m.bodyB, deepest.point, mf.normal, deepest.depth,
                             m.approachSpeed};
        nearNow.push_back(e);
        if (e.depth >= -touchDepth) now.push_back(e); // farther apart: speculative, not touching yet
    }
    // A pair whose bodies slept while the contacts were found (`asleep`, by body slot:
    // markFastBodies) was not tested: the broad phase pairs nothing asleep with what
    // does not move. It still touches, so it stays touching, silently (no persist
    // events while asleep, as in Jolt), until a body is awake for the search and the
    // narrow phase finds it again or not (then the end event). A kinematic body is
    // always searched.
    const auto untested = [&](BodyId b) {
        if (!bodies.contains(b)) return false;
        const Body& body = bodies[b];
        return body.type == BodyType::Static || (body.isDynamic() && b.index < asleep.size() && asleep[b.index]);
    };
    const auto sleeping = [&](const ContactEvent& e) {
        const bool dynamicSide = (bodies.contains(e.bodyA) && bodies[e.bodyA].isDynamic()) ||
                               (bodies.contains(e.bodyB) && bodies[e.bodyB].isDynamic());
        return dynamicSide && untested(e.bodyA) && untested(e.bodyB) && colliders.contains(e.colliderA) &&
               colliders.contains(e.colliderB);
    };
    for (const ContactEvent& e : touching)
        if (sleeping(e)) now.push_back(e);
    sortUnique(now);
    sortUnique(nearNow);
    events.begin.clear();
    events.persist.clear();
    events.end.clear();
    compare(touching, now, events.begin, events.end, [&](const ContactEvent& e) {
        if (!sleeping(e)) events.persist.push_back(e);
    });
    // A begin met at the speed the speculative contact of the step before saw.
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
