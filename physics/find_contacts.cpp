// Stages 3 and 4 of the step: the broad phase over every collider's fat box, then
// the narrow phase over the pairs it finds (DESIGN.md steps 3-4). collision/ knows
// nothing of bodies; this file maps bodies and colliders onto its plain inputs.

#include "physics/stages.hpp"

#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>
#include <cmath>

namespace jounce::detail {

void colliderProxies(const BodyArray& bodies, ColliderArray& colliders, const WorldSettings& settings,
                     std::vector<BroadPhaseProxy>& proxies, std::vector<ColliderId>& proxyColliders, real h) {
    proxies.clear();
    proxyColliders.clear();
    for (std::size_t i = 0; i < colliders.slotCount(); ++i) {
        if (!colliders.isAlive(i)) continue;
        Collider& c = colliders.atSlot(i);
        const Body& b = bodies[c.body];
        const Transform pose = b.origin() * c.local;
        // The box covers where the shape is now and where its velocity takes it this
        // step, so a fast body meets what lies in its path (see narrowPhase).
        Aabb swept = computeAabb(c.shape, pose);
        if (b.type != BodyType::Static) {
            const Vec3 move = b.linearVelocity * h;
            swept.min = swept.min.cwiseMin(swept.min + move);
            swept.max = swept.max.cwiseMax(swept.max + move);
        }
        fattenAabb(c.fatBox, swept, settings.aabbMargin);
        BroadPhaseProxy p;
        p.box = c.fatBox;
        p.owner = c.body.index;
        p.moves = b.type != BodyType::Static;
        p.awake = b.awake;
        p.category = c.filter.category;
        p.mask = c.filter.mask;
        proxies.push_back(p);
        proxyColliders.push_back(colliders.idOf(i));
    }
}

void findPairs(BroadPhase& bp, const std::vector<BroadPhaseProxy>& proxies, std::vector<ProxyPair>& pairs) {
    bp.findPairs(proxies, pairs);
}

void narrowPhase(const BodyArray& bodies, const ColliderArray& colliders, const WorldSettings& settings,
                 const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                 std::vector<ContactManifold>& contacts, real h, std::vector<Manifold>& manifolds) {
    contacts.clear();
    for (const ProxyPair& pair : pairs) {
        if (pair.b >= proxyColliders.size()) continue; // a particle's pair: the particle layer's
        const ColliderId ia = proxyColliders[pair.a], ib = proxyColliders[pair.b];
        const Collider& ca = colliders[ia];
        const Collider& cb = colliders[ib];
        const Body& ba = bodies[ca.body];
        const Body& bb = bodies[cb.body];
        // Bodies a joint holds together (and told not to collide) skip the test.
        const std::pair<std::uint32_t, std::uint32_t> owners{std::min(ca.body.index, cb.body.index),
                                                             std::max(ca.body.index, cb.body.index)};
        if (std::binary_search(noCollision.begin(), noCollision.end(), owners)) continue;
        manifolds.clear();
        // Speculative margin: shapes closer than they can approach this step get a
        // contact (with the gap as negative depth), so the resolver stops a fast body
        // at the surface instead of finding it deep inside, or past, a thin one.
        const real approach = h * (ba.linearVelocity.norm() + bb.linearVelocity.norm());
        collideAll(ca.shape, ba.origin() * ca.local, cb.shape, bb.origin() * cb.local,
                   settings.collisionMargin + approach, manifolds);
        for (const Manifold& manifold : manifolds) {
            ContactManifold m;
            m.manifold = manifold;
            m.bodyA = ca.body;
            m.bodyB = cb.body;
            m.colliderA = ia;
            m.colliderB = ib;
            m.friction = std::sqrt(ca.material.friction * cb.material.friction);
            m.restitution = std::max(ca.material.restitution, cb.material.restitution);
            contacts.push_back(m);
        }
    }
}

MassProperties massFromColliders(const std::vector<const Collider*>& colliders) {
    MassProperties total;
    Vec3 moment = Vec3::Zero();
    std::vector<MassProperties> parts;
    for (const Collider* c : colliders) {
        if (isStaticOnly(c->shape)) continue;
        MassProperties mp = computeMassProperties(c->shape, c->density);
        const Mat3 r = c->local.orientation.toRotationMatrix();
        mp.inertia = r * mp.inertia * r.transpose();
        mp.centroid = c->local.toWorld(mp.centroid);
        total.mass += mp.mass;
        moment += mp.mass * mp.centroid;
        parts.push_back(mp);
    }
    if (total.mass <= 0) return total;
    total.centroid = moment / total.mass;
    for (const MassProperties& mp : parts) total.inertia += shiftInertia(mp.inertia, mp.mass, mp.centroid - total.centroid);
    return total;
}

} // namespace jounce::detail
