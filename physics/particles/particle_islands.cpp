// SPDX-License-Identifier: MIT
// Particle islands and sleep (DESIGN.md steps 5 and 8 for particles): particles join
// contact/'s islands by the same rules as bodies (Millington ch. 16). Particles joined
// by internal constraints or touching each other form an island with the body islands
// they touch (broad-phase candidates with dynamic bodies, attachments to them); pinned
// particles join nothing, as static bodies do. An island wakes as a whole when any of
// its particles or bodies is awake, and sleeps as a whole when every particle's
// recency-weighted motion (v.v) and every body's is below sleepThreshold.

#include "physics/particles/stages.hpp"

#include "common/disjoint_sets.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jounce::detail {
namespace {

void wake(ParticleSystem& ps, std::uint32_t i, real sleepThreshold) {
    if (!ps.asleep[i]) return;
    ps.asleep[i] = 0;
    ps.motion[i] = 2 * sleepThreshold; // as a woken body: not straight back to sleep
}

} // namespace

void groupParticles(ParticleSystem& ps, BodyArray& bodies, const ColliderArray& colliders, const ParticleCandidates& candidates,
                    const Islands& bodyIslands, real sleepThreshold, ParticleIslands& out) {
    // Nodes: particle slots, then body islands.
    const auto particleCount = static_cast<std::uint32_t>(ps.slotCount());
    const auto joins = [&](std::uint32_t i) { return ps.isAlive(i) && ps.w[i] > 0; };
    // The internal links (a soft cube's 30 000) change only with the topology: their
    // sets are kept, as each particle's root, and each step starts from them. The roots
    // are the sets' lowest slots either way, so the islands come out the same.
    if (out.internalFor != ps.topologyVersion || out.internalRoot.size() != particleCount) {
        out.internalFor = ~std::uint64_t(0); // unset until built (an allocation may throw)
        DisjointSets internal(out.internalRoot, particleCount);
        forEachInternalLink(ps, [&](std::uint32_t a, std::uint32_t b) {
            if (joins(a) && joins(b)) internal.unite(a, b);
        });
        for (std::uint32_t i = 0; i < particleCount; ++i) out.internalRoot[i] = internal.find(i);
        out.internalFor = ps.topologyVersion;
    }
    DisjointSets sets(out.unionFind, particleCount + bodyIslands.count());
    std::copy(out.internalRoot.begin(), out.internalRoot.end(), sets.parent.begin());
    const auto link = [&](std::uint32_t a, std::uint32_t b) {
        if (joins(a) && joins(b)) sets.unite(a, b);
    };
    const auto bodyNode = [&](BodyId id) -> std::uint32_t {
        if (id.isNull() || !bodies.contains(id) || !bodies[id].isDynamic()) return noIsland;
        const std::uint32_t k = id.index < bodyIslands.bodyIsland.size() ? bodyIslands.bodyIsland[id.index] : noIsland;
        return k == noIsland ? noIsland : particleCount + k;
    };
    for (const ParticlePair& pair : candidates.particles) link(pair.a, pair.b);
    for (const ParticleTrianglePair& pair : candidates.triangles)
        for (const std::uint32_t corner : ps.surfaces.atSlot(pair.surface).triangles[pair.triangle]) link(pair.particle, corner);
    for (const ParticleShapePair& pair : candidates.shapes)
        if (const std::uint32_t node = bodyNode(colliders[pair.collider].body); node != noIsland && joins(pair.particle))
            sets.unite(pair.particle, node);
    for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k) {
        if (!ps.attachments.isAlive(k)) continue;
        const ParticleAttachment& a = ps.attachments.atSlot(k);
        if (const std::uint32_t node = bodyNode(a.target.body); node != noIsland && joins(a.particle)) sets.unite(a.particle, node);
    }
    // Islands numbered by their root, in slot order (counting sort: deterministic).
    std::vector<std::uint32_t>& islandOf = out.islandOf;
    islandOf.assign(particleCount + bodyIslands.count(), noIsland);
    std::uint32_t count = 0;
    for (std::uint32_t i = 0; i < particleCount; ++i)
        if (joins(i) && sets.find(i) == i) islandOf[i] = count++;
    for (std::uint32_t i = 0; i < particleCount; ++i)
        if (joins(i)) islandOf[i] = islandOf[sets.find(i)];
    groupByIsland(particleCount, count, [&](std::uint32_t i) { return islandOf[i]; }, out.particles, out.particleStarts);
    groupByIsland(static_cast<std::uint32_t>(bodyIslands.count()), count,
          [&](std::uint32_t k) {
              const std::uint32_t root = sets.find(particleCount + k);
              return root < particleCount ? islandOf[root] : noIsland; // joined to particles
          },
          out.bodyIslands, out.bodyIslandStarts);

    // Wake every island with an awake member: its particles and its bodies.
    for (std::size_t k = 0; k < out.count(); ++k) {
        bool anyAwake = false, anyAsleep = false;
        for (std::uint32_t n = out.particleStarts[k]; n < out.particleStarts[k + 1]; ++n) {
            anyAwake = anyAwake || !ps.asleep[out.particles[n]];
            anyAsleep = anyAsleep || ps.asleep[out.particles[n]];
        }
        for (std::uint32_t n = out.bodyIslandStarts[k]; n < out.bodyIslandStarts[k + 1]; ++n) {
            const std::uint32_t b = out.bodyIslands[n];
            for (std::uint32_t m = bodyIslands.bodyStarts[b]; m < bodyIslands.bodyStarts[b + 1]; ++m) {
                anyAwake = anyAwake || bodies.slots()[bodyIslands.bodies[m]].awake;
                anyAsleep = anyAsleep || !bodies.slots()[bodyIslands.bodies[m]].awake;
            }
        }
        if (!anyAwake || !anyAsleep) continue;
        for (std::uint32_t n = out.particleStarts[k]; n < out.particleStarts[k + 1]; ++n) wake(ps, out.particles[n], sleepThreshold);
        for (std::uint32_t n = out.bodyIslandStarts[k]; n < out.bodyIslandStarts[k + 1]; ++n) {
            const std::uint32_t b = out.bodyIslands[n];
            for (std::uint32_t m = bodyIslands.bodyStarts[b]; m < bodyIslands.bodyStarts[b + 1]; ++m) {
                Body& body = bodies.slots()[bodyIslands.bodies[m]];
                if (body.awake) continue;
                body.awake = true;
                body.motion = 2 * sleepThreshold;
            }
        }
    }
}

void particleMotion(ParticleSystem& ps, const ParticleIslands& islands, std::size_t bodyIslandCount, real dt,
                    const SleepSettings& settings, std::vector<std::uint8_t>& keepAwake) {
    keepAwake.assign(bodyIslandCount, 0);
    if (!settings.enabled) { // sleeping switched off: nothing stays asleep
        std::fill(ps.asleep.begin(), ps.asleep.end(), std::uint8_t{0});
        return;
    }
    const real bias = std::pow(settings.motionBias, dt);
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool quiet = true;
        for (std::uint32_t n = islands.particleStarts[k]; n < islands.particleStarts[k + 1]; ++n) {
            const std::uint32_t i = islands.particles[n];
            if (ps.asleep[i]) continue;
            ps.motion[i] = std::min(bias * ps.motion[i] + (1 - bias) * ps.v[i].squaredNorm(), settings.motionCap * settings.sleepThreshold);
            quiet = quiet && ps.motion[i] < settings.sleepThreshold;
        }
        if (quiet) continue;
        for (std::uint32_t n = islands.bodyIslandStarts[k]; n < islands.bodyIslandStarts[k + 1]; ++n) keepAwake[islands.bodyIslands[n]] = 1;
    }
}

void sleepParticles(ParticleSystem& ps, const BodyArray& bodies, const Islands& bodyIslands, const ParticleIslands& islands,
                    const SleepSettings& settings) {
    if (!settings.enabled) return;
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool quiet = true;
        for (std::uint32_t n = islands.particleStarts[k]; n < islands.particleStarts[k + 1]; ++n) {
            const std::uint32_t i = islands.particles[n];
            quiet = quiet && (ps.asleep[i] || ps.motion[i] < settings.sleepThreshold);
        }
        for (std::uint32_t n = islands.bodyIslandStarts[k]; quiet && n < islands.bodyIslandStarts[k + 1]; ++n) {
            const std::uint32_t b = islands.bodyIslands[n];
            for (std::uint32_t m = bodyIslands.bodyStarts[b]; m < bodyIslands.bodyStarts[b + 1]; ++m)
                quiet = quiet && !bodies.slots()[bodyIslands.bodies[m]].awake;
        }
        if (!quiet) continue;
        for (std::uint32_t n = islands.particleStarts[k]; n < islands.particleStarts[k + 1]; ++n) {
            const std::uint32_t i = islands.particles[n];
            ps.asleep[i] = 1;
            ps.v[i].setZero();
            ps.p[i] = ps.x[i];
        }
    }
}

} // namespace jounce::detail
