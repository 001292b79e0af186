// Particles in the shared broad phase (DESIGN.md step 3): each particle's sphere,
// swept over the step, is one more proxy after the colliders', and the pairs the
// broad phase finds become the particle layer's collision candidates. No second
// broad phase.

#include "physics/particles/stages.hpp"

#include <algorithm>

namespace jounce::detail {

void addParticleProxies(ParticleSystem& ps, const WorldSettings& settings, std::vector<BroadPhaseProxy>& proxies,
                        real h) {
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i)) continue;
        // Where the sphere is and where its velocity and gravity can take it this step.
        const Vec3 move = ps.v[i] * h;
        const real reach = ps.radius[i] + settings.gravity.norm() * h * h + settings.collisionMargin;
        Aabb tight;
        tight.min = ps.x[i].cwiseMin(ps.x[i] + move) - Vec3::Constant(reach);
        tight.max = ps.x[i].cwiseMax(ps.x[i] + move) + Vec3::Constant(reach);
        fattenAabb(ps.fatBox[i], tight, settings.aabbMargin);
        BroadPhaseProxy proxy;
        proxy.box = ps.fatBox[i];
        proxy.owner = particleOwnerBit | static_cast<std::uint32_t>(i);
        proxy.moves = true;
        proxy.awake = true;
        proxies.push_back(proxy);
    }
}

void particleCandidates(const ParticleSystem& ps, const std::vector<ColliderId>& proxyColliders,
                        const std::vector<BroadPhaseProxy>& proxies, const std::vector<ProxyPair>& pairs,
                        ParticleCandidates& out) {
    out.clear();
    const auto isParticle = [&](std::uint32_t proxy) { return (proxies[proxy].owner & particleOwnerBit) != 0; };
    const auto slot = [&](std::uint32_t proxy) { return proxies[proxy].owner & ~particleOwnerBit; };
    for (const ProxyPair& pair : pairs) {
        // Colliders' proxies come first, so a mixed pair has the collider as a.
        if (!isParticle(pair.b)) continue;
        if (!isParticle(pair.a)) {
            out.shapes.push_back({slot(pair.b), proxyColliders[pair.a]});
            continue;
        }
        const std::uint32_t a = slot(pair.a), b = slot(pair.b);
        if (ps.group[a] != 0 && ps.group[a] == ps.group[b]) continue;
        out.particles.push_back({std::min(a, b), std::max(a, b)});
    }
}

} // namespace jounce::detail
