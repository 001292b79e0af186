// SPDX-License-Identifier: MIT
// Stages 5b and 8 of the step: manifolds and joints grouped into islands (sleeping
// islands left out, a touched one woken), each contact's place in the step's list by
// island, and the links that keep a sleeping pile one island after
// its contacts are no longer looked for.

#include "common/disjoint_sets.hpp"
#include "common/parallel.hpp"
#include "contact/stages.hpp"

#include <jounce/common/error.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>
#include <string>

namespace jounce::detail {
namespace {

/// Whether slot i holds a live dynamic body that sleeps (noBody and static: no).
bool sleepingBody(const BodyArray& bodies, std::uint32_t i) {
    const std::span<const Body> slots = bodies.slots();
    return i < slots.size() && bodies.aliveFlags()[i] && slots[i].isDynamic() && !slots[i].awake;
}

/// The island of a pair of bodies: its dynamic body's (either, if both), or none when
/// neither is dynamic (nothing to resolve). Read from the islands' bytes per body slot,
/// not from the bodies (a Body is 0.6 kB, and a pair's lie anywhere in the array).
std::uint32_t islandOfPair(const Islands& islands, std::uint32_t a, std::uint32_t b) {
    if (a != noBody && islands.dynamic[a]) return islands.bodyIsland[a];
    if (b != noBody && islands.dynamic[b]) return islands.bodyIsland[b];
    return noIsland;
}

/// What a manifold's points share (checked once for all of them: the norm's root per
/// point cost 2 % of pyramid20's step).
bool finiteShared(const ContactManifold& m) {
    return isFinite(m.manifold.normal) && std::isfinite(m.friction) && std::isfinite(m.restitution) &&
           std::abs(m.manifold.normal.norm() - 1) < real(1e-3);
}

bool finitePoint(const ContactPoint& p) { return isFinite(p.point) && std::isfinite(p.depth); }

bool finiteManifold(const ContactManifold& m) {
    if (m.manifold.count == 0) return true; // nothing of it reaches a solver
    if (!finiteShared(m)) return false;
    for (int i = 0; i < m.manifold.count; ++i)
        if (!finitePoint(m.manifold.points[static_cast<std::size_t>(i)])) return false;
    return true;
}

/// Point i taken out of m, the points after it (and what they carry) moved down one.
void removePoint(ContactManifold& m, std::size_t i) {
    for (std::size_t k = i; k + 1 < static_cast<std::size_t>(m.manifold.count); ++k) {
        m.manifold.points[k] = m.manifold.points[k + 1];
        m.normalImpulse[k] = m.normalImpulse[k + 1];
        m.frictionImpulse[k] = m.frictionImpulse[k + 1];
        m.anchorA[k] = m.anchorA[k + 1];
        m.anchorB[k] = m.anchorB[k + 1];
    }
    --m.manifold.count;
    // No non-finite value left behind: snapshots write all four points.
    m.manifold.points[static_cast<std::size_t>(m.manifold.count)] = ContactPoint{};
}

} // namespace

void dropBadPoints(std::vector<ContactManifold>& manifolds, std::vector<std::string>& errors) {
    for (ContactManifold& m : manifolds) {
        const bool sharedOk = finiteShared(m);
        for (std::size_t i = 0; i < static_cast<std::size_t>(m.manifold.count);) {
            const ContactPoint& p = m.manifold.points[i];
            if (sharedOk && finitePoint(p)) {
                ++i;
                continue;
            }
            errors.push_back("contact between bodies " + std::to_string(m.bodyA.index) + " and " + std::to_string(m.bodyB.index) +
                             " dropped: non-finite point " + toText(p.point) + ", normal " + toText(m.manifold.normal) +
                             " or depth " + toText(p.depth));
            removePoint(m, i);
        }
    }
}

void groupContacts(BodyArray& bodies, std::vector<ContactManifold>& manifolds, const std::vector<Contact>& jointContacts,
                   const SleepSettings& sleep, Islands& islands, std::vector<std::uint32_t>& islandStarts,
                   std::vector<BodyLink>& sleepingLinks, const std::vector<BodyLink>& jointLinks, ContactScratch& scratch,
                   std::vector<std::string>& errors, TaskSystem* tasks) {
    // Sleeping bodies are not tested against each other, so the contacts that held a
    // sleeping pile together are not found again. The links kept from them join its
    // bodies into one island still, so a hit on any of them wakes all of them.
    const std::span<const Body> slots = bodies.slots();
    const auto asleep = [&](std::uint32_t i) { return sleepingBody(bodies, i); };
    std::erase_if(sleepingLinks, [&](const BodyLink& l) { return !asleep(l.first) && !asleep(l.second); });
    // The islands join the bodies of every manifold (a pair's points all join the same
    // two) and of every joint (its contacts join the bodies its link names). Points with
    // non-finite data (a contact modifier's, or the narrow phase's on absurd input) never
    // reach a solver: looked for in the same pass, then dropped from their manifolds.
    errors.clear();
    std::vector<ContactScratch::ManifoldPair>& pairs = scratch.manifoldPairs;
    pairs.resize(manifolds.size());
    std::atomic<bool> anyBad{false}, anyRolling{false};
    parallelFor(tasks, static_cast<std::uint32_t>(manifolds.size()), 1024, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t k = first; k < last; ++k) {
            const ContactManifold& m = manifolds[k];
            pairs[k] = {m.bodyA.index, m.bodyB.index, static_cast<std::uint32_t>(m.manifold.count)};
            if (!finiteManifold(m)) anyBad.store(true, std::memory_order_relaxed);
            if (m.rollingResistance > 0) anyRolling.store(true, std::memory_order_relaxed);
        }
    });
    scratch.anyRolling = anyRolling.load();
    if (anyBad.load()) {
        dropBadPoints(manifolds, errors);
        for (std::size_t k = 0; k < manifolds.size(); ++k)
            pairs[k].count = static_cast<std::uint32_t>(manifolds[k].manifold.count);
    }
    std::vector<BodyLink>& links = scratch.links;
    links.assign(sleepingLinks.begin(), sleepingLinks.end());
    links.insert(links.end(), jointLinks.begin(), jointLinks.end());
    for (const ContactScratch::ManifoldPair& m : pairs)
        if (m.count > 0) links.emplace_back(m.a, m.b);
    buildIslands(slots, bodies.aliveFlags(), {}, links, islands, tasks);
    // An island a moving kinematic body touches wakes (and the sleep stage keeps it awake).
    markMovedByKinematics(slots, links, islands, scratch.movedByKinematic);
    for (std::size_t k = 0; k < islands.count(); ++k)
        if (scratch.movedByKinematic[k]) wakeIsland(bodies.slots(), islands, k, sleep.sleepThreshold);
    wakeTouchedIslands(bodies.slots(), islands, sleep.sleepThreshold);
    // Where each manifold's points and each joint contact go in the step's contact list:
    // island by island (islands that sleep as a whole left out), in each its manifolds'
    // points in manifold order, then its joints' contacts in order. gatherContacts (or,
    // for the soft step's coloured blocks, describeColoured when they are read) writes
    // them there, so nothing is copied to put them in order.
    const auto islandCount = static_cast<std::uint32_t>(islands.count());
    groupByIsland(static_cast<std::uint32_t>(manifolds.size()), islandCount, [&](std::uint32_t k) {
        const ContactScratch::ManifoldPair& m = pairs[k];
        return m.count > 0 ? islandOfPair(islands, m.a, m.b) : noIsland;
    }, scratch.manifoldOrder, scratch.manifoldStarts);
    groupByIsland(static_cast<std::uint32_t>(jointContacts.size()), islandCount, [&](std::uint32_t i) {
        return islandOfPair(islands, jointContacts[i].body[0], jointContacts[i].body[1]);
    }, scratch.jointOrder, scratch.jointStarts);
    scratch.manifoldFirsts.assign(manifolds.size() + 1, noPlace);
    scratch.jointPlaces.assign(jointContacts.size(), noPlace);
    islandStarts.assign(1, 0);
    scratch.placedIslands.clear();
    std::uint32_t next = 0;
    for (std::uint32_t k = 0; k < islandCount; ++k) {
        const std::uint32_t firstManifold = scratch.manifoldStarts[k], lastManifold = scratch.manifoldStarts[k + 1];
        const std::uint32_t firstJoint = scratch.jointStarts[k], lastJoint = scratch.jointStarts[k + 1];
        if (firstManifold == lastManifold && firstJoint == lastJoint) continue;
        if (!slots[islands.bodies[islands.bodyStarts[k]]].awake) continue;
        for (std::uint32_t i = firstManifold; i < lastManifold; ++i) {
            const std::uint32_t m = scratch.manifoldOrder[i];
            scratch.manifoldFirsts[m] = next;
            next += pairs[m].count;
        }
        for (std::uint32_t i = firstJoint; i < lastJoint; ++i) scratch.jointPlaces[scratch.jointOrder[i]] = next++;
        islandStarts.push_back(next);
        scratch.placedIslands.push_back({firstManifold, lastManifold, lastJoint - firstJoint});
    }
    scratch.manifoldFirsts.back() = next; // the list's length
}

void keepSleepingLinks(const BodyArray& bodies, const std::vector<Contact>& contacts, std::vector<BodyLink>& links) {
    for (const Contact& c : contacts)
        if (sleepingBody(bodies, c.body[0]) && sleepingBody(bodies, c.body[1]))
            links.emplace_back(std::min(c.body[0], c.body[1]), std::max(c.body[0], c.body[1]));
    std::sort(links.begin(), links.end()); // plain numbers: deterministic
    links.erase(std::unique(links.begin(), links.end()), links.end());
}

} // namespace jounce::detail
