// SPDX-License-Identifier: MIT
// Stage 5c of the step: the narrow phase's manifolds become the resolver's contact
// points (Millington's contact data, seeds/004 ch. 14), each starting from the impulse
// its manifold carried from the last step (collision/persistent_contacts.cpp).

#include "common/parallel.hpp"
#include "contact/stages.hpp"

#include <jounce/common/error.hpp>

#include <atomic>
#include <cmath>
#include <string>

namespace jounce::detail {
namespace {

/// A contact's identity across steps: the two colliders (slot and generation) in the
/// high 32 bits (pairKey), the touching features in the low 32. Contacts of one collider
/// pair share the high half, so they sit together when sorted by key.
std::uint64_t pairKey(const ContactManifold& m) {
    std::uint32_t h = 2166136261u;
    for (const std::uint32_t part : {m.colliderA.index, m.colliderA.generation, m.colliderB.index, m.colliderB.generation})
        h = (h ^ part) * 16777619u;
    return std::uint64_t(h) << 32;
}

/// What a manifold's points share (checked once for all of them: the norm's root per
/// point cost 2 % of pyramid20's step).
bool finiteShared(const Vec3& normal, real friction, real restitution) {
    return isFinite(normal) && std::isfinite(friction) && std::isfinite(restitution) && std::abs(normal.norm() - 1) < real(1e-3);
}

bool finitePoint(const Contact& c) { return isFinite(c.point) && std::isfinite(c.penetration); }

bool finite(const Contact& c) { return finitePoint(c) && finiteShared(c.normal, c.friction, c.restitution); }

} // namespace

void gatherContacts(const std::vector<ContactManifold>& manifolds, std::span<const std::uint32_t> firsts,
                    const std::vector<Contact>& jointContacts, std::span<const std::uint32_t> jointPlaces,
                    std::vector<Contact>& out, std::vector<std::uint32_t>& islandStarts, std::vector<std::string>& errors,
                    TaskSystem* tasks) {
    errors.clear();
    // Built in place over last step's contacts (a Contact is ~300 bytes: constructing
    // them first cost as much as filling them). Every field a solver reads before it
    // writes it is set below; the rest the solvers' preparation fills. Each manifold
    // writes its own places (groupContacts chose them), so the workers share them.
    out.resize(firsts.back());
    for (std::size_t i = 0; i < jointContacts.size(); ++i)
        if (jointPlaces[i] != noPlace) out[jointPlaces[i]] = jointContacts[i];
    std::atomic<bool> anyBad{false};
    parallelFor(tasks, static_cast<std::uint32_t>(manifolds.size()), 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            if (firsts[k] == noPlace) continue;
            const ContactManifold& m = manifolds[k];
            // Shared by the manifold's points: one pair, one normal (its basis made at
            // the first point that passes the check).
            const std::uint64_t key = pairKey(m);
            const bool sharedOk = finiteShared(m.manifold.normal, m.friction, m.restitution);
            Mat3 basis = Mat3::Identity();
            bool haveBasis = false;
            for (std::uint32_t point = 0; point < static_cast<std::uint32_t>(m.manifold.count); ++point) {
                const ContactPoint& p = m.manifold.points[point];
                Contact& c = out[firsts[k] + point];
                c.body = {m.bodyA.index, m.bodyB.index};
                c.point = p.point;
                c.normal = m.manifold.normal;
                c.penetration = p.depth;
                c.friction = m.friction;
                c.restitution = m.restitution;
                c.surfaceVelocity = m.surfaceVelocity;
                c.key = key | p.feature;
                c.source = k * Manifold::maxPoints + point;
                c.carries = true;
                c.supports = true;
                c.desiredDeltaVelocity = 0; // the resolver's (the soft step leaves them 0)
                c.targetNormalVelocity = 0;
                c.accumulatedPush = 0;
                if (!sharedOk || !finitePoint(c)) {
                    anyBad.store(true, std::memory_order_relaxed);
                    continue;
                }
                // The impulse the point's manifold carried from the last step (warm
                // starting): friction as a world vector, read in this step's tangent
                // axes (rebuilt from the normal each step; for a floor's normal tipped
                // by rounding one way or the other contactBasis picks another helper
                // axis, turning them a quarter turn: docs/contact.md, warm starting).
                // The basis stays in the contact: the solvers' preparation reads it.
                if (!haveBasis) basis = contactBasis(c.normal);
                haveBasis = true;
                c.contactToWorld = basis;
                const Vec3& friction = m.frictionImpulse[point];
                c.accumulatedImpulse = Vec3(m.normalImpulse[point], c.contactToWorld.col(1).dot(friction),
                                            c.contactToWorld.col(2).dot(friction));
            }
        }
    });
    if (!anyBad.load()) return;
    // Bad data never reaches a body: report it and drop the point (in order, here),
    // each island's range shrinking with it (an island left empty is dropped: its
    // manifold joined its bodies, but nothing is left to solve). Joints' contacts (no
    // source) are kept.
    std::size_t kept = 0;
    const std::vector<std::uint32_t> starts = islandStarts;
    islandStarts.assign(1, 0);
    for (std::size_t island = 0; island + 1 < starts.size(); ++island) {
        const std::uint32_t first = starts[island], last = starts[island + 1];
        for (std::uint32_t i = first; i < last; ++i) {
            const Contact& c = out[i];
            if (c.source == noSource || finite(c)) {
                if (kept != i) out[kept] = out[i];
                ++kept;
                continue;
            }
            errors.push_back("contact between bodies " + std::to_string(c.body[0]) + " and " + std::to_string(c.body[1]) +
                             " dropped: non-finite point " + toText(c.point) + ", normal " + toText(c.normal) +
                             " or depth " + toText(c.penetration));
        }
        if (kept > islandStarts.back()) islandStarts.push_back(static_cast<std::uint32_t>(kept));
    }
    out.resize(kept);
}

void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds, std::vector<Contact>& out,
                    std::vector<std::string>& errors, std::vector<std::uint32_t>& firsts, TaskSystem* tasks) {
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
    std::vector<std::uint32_t> starts{0, total};
    gatherContacts(manifolds, firsts, {}, {}, out, starts, errors, tasks);
}

} // namespace jounce::detail
