// SPDX-License-Identifier: MIT
// Deformables against shapes (issue 6's "honest approximation", after Choi 2017 sec. 4,
// who raises penetrating particles above the floor and damps their velocities):
// each deformable is one proxy in the shared broad phase (the box around its
// ellipsoids and where their velocities take them); the pairs with colliders become
// candidates. After each step, every ellipsoid is tested against its candidates'
// shapes at its support point: with d the signed distance of its centre and n the
// outward normal there (collision/'s point query, exact for every shape), the ellipsoid
// reaches sqrt(n^T E diag(a^2, b^2, c^2) E^T n) along -n (exact for a plane or a box
// face; for curved shapes n is the centre's, not the contact's, normal). A particle
// that overlaps is moved out along n; its velocity loses its inward normal part, and
// Coulomb friction takes up to mu times that from its sliding velocity (its spin is
// damped in the same ratio). A dynamic body it hits gets the opposite impulse at the
// support point, through its impulse accumulators: the next substep's velocity
// integration applies it as a force over that substep (explicit coupling, one substep
// late), before the rigid contacts are resolved. So a box under a resting creature
// carries the creature's weight into its own ground contacts and ends each step at
// rest (applied after the rigid resolve, as at first, it ended every step sinking at
// m g h / M and never slept). The body's position is not moved.

#include "physics/deformable/stages.hpp"

#include "physics/world/stages.hpp"

#include <jounce/collision/point_queries.hpp>

#include <algorithm>
#include <cmath>

namespace jounce::detail {

void addDeformableProxies(const SlotArray<Deformable, DeformableTag>& deformables, const WorldSettings& settings,
                          std::vector<BroadPhaseProxy>& proxies, DeformableCandidates& out, real h) {
    out.firstProxy = static_cast<std::uint32_t>(proxies.size());
    out.proxySlots.clear();
    const real reach = settings.gravity.norm() * h * h + settings.collisionMargin;
    for (std::uint32_t k = 0; k < deformables.slotCount(); ++k) {
        if (!deformables.isAlive(k)) continue;
        const Deformable& d = deformables.atSlot(k);
        Aabb box;
        for (std::size_t i = 0; i < d.size(); ++i) {
            const real r = d.radii[i].maxCoeff() + reach;
            const Vec3 to = d.position[i] + d.velocity[i] * h;
            box.min = box.min.cwiseMin(d.position[i].cwiseMin(to) - Vec3::Constant(r));
            box.max = box.max.cwiseMax(d.position[i].cwiseMax(to) + Vec3::Constant(r));
        }
        BroadPhaseProxy proxy;
        proxy.box = box;
        proxy.owner = deformableOwnerBit | k;
        proxy.awake = !d.asleep;
        proxies.push_back(proxy);
        out.proxySlots.push_back(k);
    }
}

void findDeformableCandidates(const std::vector<BroadPhaseProxy>& proxies, const std::vector<ColliderId>& proxyColliders,
                              const std::vector<ProxyPair>& pairs,
                              DeformableCandidates& out) {
    out.pairs.clear();
    if (out.proxySlots.empty()) return; // no deformable: no pair to look at (spheres4096's 38 000)
    for (const ProxyPair& pair : pairs) {
        // Colliders' proxies come first and deformables' last: a collider-deformable
        // pair has the collider as a.
        if (pair.b < out.firstProxy || pair.a >= proxyColliders.size() || proxies[pair.a].sensor) continue;
        out.pairs.push_back({out.proxySlots[pair.b - out.firstProxy], proxyColliders[pair.a]});
    }
    std::sort(out.pairs.begin(), out.pairs.end(), [](const DeformableShapePair& x, const DeformableShapePair& y) {
        return x.deformable != y.deformable ? x.deformable < y.deformable : x.collider.index < y.collider.index;
    });
}

std::pair<const DeformableShapePair*, const DeformableShapePair*> deformableRange(const DeformableCandidates& candidates,
                                                                                  std::uint32_t slot) {
    const auto [first, last] = std::equal_range(
        candidates.pairs.begin(), candidates.pairs.end(), DeformableShapePair{slot, {}},
        [](const DeformableShapePair& x, const DeformableShapePair& y) { return x.deformable < y.deformable; });
    return {candidates.pairs.data() + (first - candidates.pairs.begin()), candidates.pairs.data() + (last - candidates.pairs.begin())};
}

void collideDeformable(Deformable& d, const DeformableShapePair* first, const DeformableShapePair* last, BodyArray& bodies,
                       const ColliderArray& colliders) {
    for (const DeformableShapePair* pair = first; pair != last; ++pair) {
        const Collider& collider = colliders[pair->collider];
        const Transform pose = bodies[collider.body].origin() * collider.local;
        Body* body = bodies[collider.body].isDynamic() ? &bodies[collider.body] : nullptr;
        const real mu = combineFriction(d.friction, CombineRule::Default, collider.material.friction,
                                        collider.material.frictionCombine);
        for (std::size_t i = 0; i < d.size(); ++i) {
            const PointProximity near = signedDistance(collider.shape, pose, d.position[i]);
            const Mat3 axes = d.rotation[i] * d.restAxes[i];
            const Vec3 along = axes.transpose() * near.normal;
            const real extent = std::sqrt(along.cwiseProduct(d.radii[i]).squaredNorm());
            const real depth = extent - near.distance;
            if (!(depth > 0)) continue;
            d.position[i] += near.normal * depth;
            const Vec3 contact = d.position[i] - near.normal * extent;
            const Vec3 surfaceVelocity = body != nullptr ? body->velocityAt(contact) : Vec3(Vec3::Zero());
            const Vec3 relative = d.velocity[i] - surfaceVelocity;
            const real vn = relative.dot(near.normal);
            if (vn >= 0) continue; // already leaving
            const Vec3 sliding = relative - near.normal * vn;
            const real slide = sliding.norm();
            const real keep = slide > 0 ? std::max(real(0), 1 - mu * -vn / slide) : real(0);
            const Vec3 change = -near.normal * vn - sliding * (1 - keep);
            d.velocity[i] += change;
            d.angularVelocity[i] *= keep;
            if (body != nullptr) { // the opposite impulse, at the support point, for the next substep
                const Vec3 impulse = -change * d.mass[i];
                body->impulseAccum += impulse;
                body->angularImpulseAccum += (contact - body->position).cross(impulse);
            }
        }
    }
}

} // namespace jounce::detail
