// SPDX-License-Identifier: MIT
// Stage 5c of the step: the narrow phase's manifolds become the resolver's contact
// points (Millington's contact data, seeds/004 ch. 14), each starting from the impulse
// its manifold carried from the last step (collision/persistent_contacts.cpp).

#include "common/growth.hpp"
#include "common/parallel.hpp"
#include "contact/stages.hpp"

namespace jounce::detail {

std::uint64_t contactKey(const ContactManifold& m, std::uint32_t feature) {
    std::uint32_t h = 2166136261u;
    for (const std::uint32_t part : {m.colliderA.index, m.colliderA.generation, m.colliderB.index, m.colliderB.generation})
        h = (h ^ part) * 16777619u;
    return (std::uint64_t(h) << 32) | feature;
}

void fillContact(const ContactManifold& m, std::uint32_t index, std::uint32_t point, std::uint64_t key, const Mat3& basis,
                 const Vec3& carried, Contact& c) {
    const ContactPoint& p = m.manifold.points[point];
    c.body = {m.bodyA.index, m.bodyB.index};
    c.point = p.point;
    c.normal = m.manifold.normal;
    c.penetration = p.depth;
    c.friction = m.friction;
    c.restitution = m.restitution;
    c.surfaceVelocity = m.surfaceVelocity;
    c.key = key | p.feature;
    c.source = index * Manifold::maxPoints + point;
    c.carries = true;
    c.supports = true;
    c.desiredDeltaVelocity = 0; // the resolver's (the soft step leaves them 0)
    c.targetNormalVelocity = 0;
    c.accumulatedPush = 0;
    // The basis stays in the contact: the solvers' preparation reads it.
    c.contactToWorld = basis;
    c.accumulatedImpulse = carried;
}

void gatherContacts(const std::vector<ContactManifold>& manifolds, std::span<const std::uint32_t> firsts,
                    const std::vector<Contact>& jointContacts, std::span<const std::uint32_t> jointPlaces,
                    std::span<const std::uint8_t> packed, std::vector<Contact>& out, TaskSystem* tasks) {
    // Built in place over last step's contacts (a Contact is 344 bytes in the double build: constructing
    // them first cost as much as filling them). Every field a solver reads before it
    // writes it is set below; the rest the solvers' preparation fills. Each manifold
    // writes its own places (groupContacts chose them), so the workers share them.
    // groupContacts dropped every point with non-finite data.
    resizeOver(out, firsts.back());
    for (std::size_t i = 0; i < jointContacts.size(); ++i)
        if (jointPlaces[i] != noPlace) out[jointPlaces[i]] = jointContacts[i];
    parallelFor(tasks, static_cast<std::uint32_t>(manifolds.size()), 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            // The soft step's coloured blocks pack theirs straight from the manifold, and
            // their contacts are written when read (soft_colours.cpp, describeColoured).
            if (firsts[k] == noPlace || (!packed.empty() && packed[k])) continue;
            const ContactManifold& m = manifolds[k];
            // Shared by the manifold's points: one pair, one normal, one basis. Each
            // starts from the impulse its manifold point carried from the last step (warm
            // starting): friction as a world vector, read in this step's tangent axes
            // (rebuilt from the normal each step; for a floor's normal tipped by rounding
            // one way or the other contactBasis picks another helper axis, turning them a
            // quarter turn: docs/contact.md, warm starting).
            const std::uint64_t key = contactKey(m, 0);
            const Mat3 basis = contactBasis(m.manifold.normal);
            for (std::uint32_t point = 0; point < static_cast<std::uint32_t>(m.manifold.count); ++point)
                fillContact(m, k, point, key, basis, warmStartImpulse(m, point, basis), out[firsts[k] + point]);
        }
    });
}

void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds, std::vector<Contact>& out,
                    std::vector<std::uint32_t>& firsts, TaskSystem* tasks) {
    // Every manifold with something to move, in manifold order, as one island.
    firsts.assign(manifolds.size() + 1, noPlace);
    std::uint32_t total = 0;
    for (std::size_t k = 0; k < manifolds.size(); ++k) {
        const ContactManifold& m = manifolds[k];
        if (!bodies[m.bodyA].isDynamic() && !bodies[m.bodyB].isDynamic()) continue;
        firsts[k] = total;
        total += static_cast<std::uint32_t>(m.manifold.count);
    }
    firsts.back() = total;
    gatherContacts(manifolds, firsts, {}, {}, {}, out, tasks);
}

} // namespace jounce::detail
