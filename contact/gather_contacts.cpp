// SPDX-License-Identifier: MIT
// Stage 5a of the step: the narrow phase's manifolds become the resolver's contact
// points (Millington's contact data, seeds/004 ch. 14), each given the impulse it
// ended last step with when it continues a kept contact (warm_start.cpp).

#include "contact/stages.hpp"

#include <jounce/common/error.hpp>

#include <cmath>
#include <string>

namespace jounce::detail {
namespace {

/// A contact's identity across steps: the two colliders (slot and generation) in the
/// high 32 bits, the touching features in the low 32. Contacts of one collider pair
/// share the high half, so they sit together when sorted by key.
std::uint64_t contactKey(const ContactManifold& m, std::uint32_t feature) {
    std::uint32_t h = 2166136261u;
    for (const std::uint32_t part : {m.colliderA.index, m.colliderA.generation, m.colliderB.index, m.colliderB.generation})
        h = (h ^ part) * 16777619u;
    return std::uint64_t(h) << 32 | feature;
}

bool finite(const Contact& c) {
    return isFinite(c.point) && isFinite(c.normal) && std::isfinite(c.penetration) && std::isfinite(c.friction) &&
           std::isfinite(c.restitution) && std::abs(c.normal.norm() - 1) < real(1e-3);
}

} // namespace

void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds,
                    const std::vector<KeptContact>& previous, std::vector<std::uint64_t>& previousKeys,
                    std::vector<Contact>& out, std::vector<std::string>& errors) {
    out.clear();
    errors.clear();
    previousKeys.clear();
    for (const KeptContact& p : previous) previousKeys.push_back(p.key); // sorted, as previous is
    for (const ContactManifold& m : manifolds) {
        if (!bodies[m.bodyA].isDynamic() && !bodies[m.bodyB].isDynamic()) continue; // nothing to move
        for (int k = 0; k < m.manifold.count; ++k) {
            const ContactPoint& p = m.manifold.points[static_cast<std::size_t>(k)];
            Contact& c = out.emplace_back(); // built in place: a Contact is ~400 bytes
            c.body = {m.bodyA.index, m.bodyB.index};
            c.point = p.point;
            c.normal = m.manifold.normal;
            c.penetration = p.depth;
            c.friction = m.friction;
            c.restitution = m.restitution;
            c.key = contactKey(m, p.feature);
            if (!finite(c)) {
                // Bad data never reaches a body: report it and drop the point.
                errors.push_back("contact between bodies " + std::to_string(m.bodyA.index) + " and " +
                                 std::to_string(m.bodyB.index) + " dropped: non-finite point " + toText(c.point) +
                                 ", normal " + toText(c.normal) + " or depth " + toText(c.penetration));
                out.pop_back();
                continue;
            }
            warmStart(previous, previousKeys, c);
        }
    }
}

} // namespace jounce::detail
