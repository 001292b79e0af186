// SPDX-License-Identifier: MIT
// Particles in the shared broad phase (DESIGN.md step 3): after the colliders'
// proxies come one proxy per group-0 particle and one per particle group; the pairs
// the broad phase finds are opened into the particle layer's collision candidates.
// No second broad phase.

#include "physics/particles/stages.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace jounce::detail {

namespace {

/// A particle's sphere where it is and where its velocity and gravity can take it this
/// step, grown by a margin of its radius (not the bodies' aabbMargin: a particle is
/// small and moves all the time).
const Aabb& refreshFatBox(ParticleSystem& ps, std::size_t i, const WorldSettings& settings, real h) {
    const Vec3 move = ps.v[i] * h;
    const real reach = ps.radius[i] + settings.gravity.norm() * h * h + settings.collisionMargin;
    Aabb tight;
    tight.min = ps.x[i].cwiseMin(ps.x[i] + move) - Vec3::Constant(reach);
    tight.max = ps.x[i].cwiseMax(ps.x[i] + move) + Vec3::Constant(reach);
    fattenAabb(ps.fatBox[i], tight, std::min(settings.aabbMargin, ps.radius[i]));
    return ps.fatBox[i];
}

/// Calls visit(j) for each member j of a group (its members ordered by their boxes'
/// lowest x, `widest` the widest box along x) whose box overlaps `box`. A member whose
/// box starts more than `widest` before `box` ends before it, so the candidates are one
/// range of the order: found by bisection, not by a pass over the whole group (a grain
/// beside a cloth of 4096 particles looks at a few of them).
template <class Visit>
void overlappingMembers(const ParticleSystem& ps, const ParticleCandidates::MembersByX& group, const Aabb& box,
                        const Visit& visit) {
    // The slack covers the round-off of min x + width (float builds, far from the origin).
    const real slack = 8 * std::numeric_limits<real>::epsilon() * (std::abs(box.min.x()) + group.widest);
    const real from = box.min.x() - group.widest - slack;
    auto it = std::lower_bound(group.byMinX.begin(), group.byMinX.end(), from,
                               [](const std::pair<real, std::uint32_t>& e, real x) { return e.first < x; });
    for (; it != group.byMinX.end() && it->first <= box.max.x(); ++it)
        if (ps.fatBox[it->second].overlaps(box)) visit(it->second);
}

} // namespace

void addParticleProxies(ParticleSystem& ps, const WorldSettings& settings, std::vector<BroadPhaseProxy>& proxies,
                        ParticleCandidates& map, real h) {
    // One proxy per group-0 particle, one per non-zero group (its particles' boxes
    // together): a cloth of 4096 particles is one box in the broad phase's trees, and
    // the few pairs it makes are opened below, particle by particle.
    map.firstProxy = static_cast<std::uint32_t>(proxies.size());
    map.memberStart.assign(1, 0);
    map.members.clear();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> grouped; // (group, slot)
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i)) continue;
        const Aabb& box = refreshFatBox(ps, i, settings, h);
        if (ps.group[i] != 0) {
            grouped.emplace_back(ps.group[i], static_cast<std::uint32_t>(i));
            continue;
        }
        BroadPhaseProxy proxy;
        proxy.box = box;
        proxy.owner = particleOwnerBit | static_cast<std::uint32_t>(i);
        proxies.push_back(proxy);
        map.members.push_back(static_cast<std::uint32_t>(i));
        map.memberStart.push_back(static_cast<std::uint32_t>(map.members.size()));
    }
    std::sort(grouped.begin(), grouped.end()); // by group, then slot: deterministic
    for (std::size_t s = 0; s < grouped.size();) {
        BroadPhaseProxy proxy;
        proxy.owner = particleOwnerBit | grouped[s].second; // its first particle names it
        proxy.group = grouped[s].first;
        std::size_t e = s;
        for (; e < grouped.size() && grouped[e].first == grouped[s].first; ++e) {
            proxy.box.min = proxy.box.min.cwiseMin(ps.fatBox[grouped[e].second].min);
            proxy.box.max = proxy.box.max.cwiseMax(ps.fatBox[grouped[e].second].max);
            map.members.push_back(grouped[e].second);
        }
        proxies.push_back(proxy);
        map.memberStart.push_back(static_cast<std::uint32_t>(map.members.size()));
        s = e;
    }
    map.endProxy = static_cast<std::uint32_t>(proxies.size());
}

void particleCandidates(const ParticleSystem& ps, const std::vector<BroadPhaseProxy>& proxies,
                        const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                        ParticleCandidates& out) {
    out.shapes.clear();
    out.particles.clear();
    // A particle attached to a body does not collide with that body, as two bodies a
    // joint holds do not: an attachment that holds it inside the body (a zero-length
    // one to its centre) fought the contact every substep, the surface holding the
    // particle off the point it is attached to (docs/particles.md).
    out.attached.clear();
    for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k) {
        if (!ps.attachments.isAlive(k)) continue;
        const ParticleAttachment& a = ps.attachments.atSlot(k);
        if (!a.target.body.isNull()) out.attached.emplace_back(a.particle, a.target.body.index);
    }
    std::sort(out.attached.begin(), out.attached.end());
    const auto attachedTo = [&](std::uint32_t particle, std::uint32_t body) {
        return !out.attached.empty() &&
               std::binary_search(out.attached.begin(), out.attached.end(), std::pair{particle, body});
    };
    const auto membersOf = [&](std::uint32_t proxy) {
        const std::uint32_t k = proxy - out.firstProxy;
        return std::span<const std::uint32_t>(out.members.data() + out.memberStart[k], out.memberStart[k + 1] - out.memberStart[k]);
    };
    // Each group's members by x, made the first time one of its pairs needs them in this
    // world substep (group-0 particles are one member each and need none).
    if (out.firstProxy == out.endProxy) return; // no particle: no pair to look at
    out.byX.resize(out.endProxy - out.firstProxy);
    out.byXBuilt.assign(out.endProxy - out.firstProxy, 0);
    const auto byX = [&](std::uint32_t proxy) -> const ParticleCandidates::MembersByX& {
        const std::uint32_t k = proxy - out.firstProxy;
        ParticleCandidates::MembersByX& g = out.byX[k];
        if (out.byXBuilt[k]) return g;
        out.byXBuilt[k] = 1;
        g.byMinX.clear();
        g.widest = 0;
        for (const std::uint32_t i : membersOf(proxy)) {
            g.byMinX.emplace_back(ps.fatBox[i].min.x(), i);
            g.widest = std::max(g.widest, ps.fatBox[i].max.x() - ps.fatBox[i].min.x());
        }
        std::sort(g.byMinX.begin(), g.byMinX.end());
        return g;
    };
    for (const ProxyPair& pair : pairs) {
        // Colliders' proxies come first and deformables' last, so a mixed pair has the
        // collider as a, and a pair with a deformable has it as b.
        if (pair.b < out.firstProxy || pair.b >= out.endProxy) continue;
        if (pair.a < out.firstProxy) {
            if (proxies[pair.a].sensor) continue;
            const Aabb& box = proxies[pair.a].box;
            const auto add = [&](std::uint32_t i) {
                if (!attachedTo(i, proxies[pair.a].owner)) out.shapes.push_back({i, proxyColliders[pair.a]});
            };
            // A group already in order (particles met it) is looked up; otherwise one pass
            // over its members costs less than ordering them for the few colliders near
            // it (a cloth over a sphere and the ground: 0.15 against 0.5 ms a step).
            if (pair.b - out.firstProxy < out.byXBuilt.size() && out.byXBuilt[pair.b - out.firstProxy]) {
                overlappingMembers(ps, byX(pair.b), box, add);
            } else {
                for (const std::uint32_t i : membersOf(pair.b))
                    if (ps.fatBox[i].overlaps(box)) add(i);
            }
            continue;
        }
        const std::span<const std::uint32_t> ma = membersOf(pair.a), mb = membersOf(pair.b);
        if (ma.size() == 1 && mb.size() == 1) { // two loose particles (sand): the common case
            // Their proxies' boxes are their fat boxes, which the broad phase found
            // overlapping (its test is Aabb::overlaps': touching counts): no test again.
            out.particles.push_back({std::min(ma[0], mb[0]), std::max(ma[0], mb[0])});
            continue;
        }
        // A loose grain or a group against a group: each member of the smaller side looks
        // its box up in the larger side's order.
        const bool aSmaller = ma.size() <= mb.size();
        const std::span<const std::uint32_t> few = aSmaller ? ma : mb;
        const ParticleCandidates::MembersByX& many = byX(aSmaller ? pair.b : pair.a);
        for (const std::uint32_t i : few)
            overlappingMembers(ps, many, ps.fatBox[i], [&](std::uint32_t j) {
                out.particles.push_back({std::min(i, j), std::max(i, j)});
            });
    }
    // In slot order, so the projection order never depends on the trees.
    std::sort(out.shapes.begin(), out.shapes.end(), [](const ParticleShapePair& x, const ParticleShapePair& y) {
        return x.particle != y.particle ? x.particle < y.particle : x.collider.index < y.collider.index;
    });
    const auto before = [](const ParticlePair& x, const ParticlePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; };
    if (!std::is_sorted(out.particles.begin(), out.particles.end(), before)) // loose grains come sorted
        std::sort(out.particles.begin(), out.particles.end(), before);
}

void findCoupledBodies(const ParticleSystem& ps, const BodyArray& bodies, const ColliderArray& colliders,
                       ParticleCandidates& candidates) {
    std::vector<std::uint32_t>& coupled = candidates.coupledBodies;
    coupled.clear();
    const auto consider = [&](BodyId id) {
        if (id.isNull() || !bodies.contains(id)) return;
        const Body& b = bodies[id];
        if (b.isDynamic() && b.awake) coupled.push_back(id.index);
    };
    for (const ParticleShapePair& pair : candidates.shapes) consider(colliders[pair.collider].body);
    for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k)
        if (ps.attachments.isAlive(k)) consider(ps.attachments.atSlot(k).target.body);
    std::sort(coupled.begin(), coupled.end());
    coupled.erase(std::unique(coupled.begin(), coupled.end()), coupled.end());
    candidates.coupledMask.assign(coupled.empty() ? 0 : bodies.slotCount(), 0);
    for (const std::uint32_t b : coupled) candidates.coupledMask[b] = 1;
}

} // namespace jounce::detail
