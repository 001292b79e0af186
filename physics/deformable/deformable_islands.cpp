// SPDX-License-Identifier: MIT
// Deformable islands and sleep (DESIGN.md steps 5 and 8 for deformables; Millington
// ch. 16, by the same rules as bodies and particles). A deformable is one node: its
// graph is connected, so it moves, wakes and sleeps as a whole. It joins the islands of
// the dynamic bodies it may touch (its broad-phase pairs), and deformables that touch
// one body island share an island. An island wakes as a whole when any of its
// deformables or bodies is awake; it sleeps when every deformable's recency-weighted
// motion is below sleepThreshold and its bodies sleep too. A deformable's motion is the
// largest v.v of its particles, so one wagging tail keeps the whole creature awake.

#include "physics/deformable/stages.hpp"

#include "common/disjoint_sets.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

void wake(Deformable& d, real sleepThreshold) {
    if (!d.asleep) return;
    d.asleep = false;
    d.motion = 2 * sleepThreshold; // as a woken body: not straight back to sleep
}

real fastestSquared(const Deformable& d) {
    real fastest = 0;
    for (const Vec3& v : d.velocity) fastest = std::max(fastest, v.squaredNorm());
    return fastest;
}

/// Calls visit(body) for every dynamic body of island k's body islands.
template <typename Visit>
void forEachBody(const DeformableIslands& islands, const Islands& bodyIslands, std::size_t k, Visit visit) {
    for (std::uint32_t n = islands.bodyIslandStarts[k]; n < islands.bodyIslandStarts[k + 1]; ++n) {
        const std::uint32_t b = islands.bodyIslands[n];
        for (std::uint32_t m = bodyIslands.bodyStarts[b]; m < bodyIslands.bodyStarts[b + 1]; ++m) visit(bodyIslands.bodies[m]);
    }
}

} // namespace

void groupDeformables(DeformableArray& deformables, BodyArray& bodies, const ColliderArray& colliders,
                      const DeformableCandidates& candidates, const Islands& bodyIslands, real sleepThreshold,
                      DeformableIslands& out) {
    // Nodes: deformable slots, then body islands.
    const auto slots = static_cast<std::uint32_t>(deformables.slotCount());
    DisjointSets sets(out.unionFind, slots + bodyIslands.count());
    for (const DeformableShapePair& pair : candidates.pairs) {
        const BodyId body = colliders[pair.collider].body;
        if (!bodies[body].isDynamic() || body.index >= bodyIslands.bodyIsland.size()) continue;
        if (const std::uint32_t k = bodyIslands.bodyIsland[body.index]; k != noIsland) sets.unite(pair.deformable, slots + k);
    }
    // Islands numbered by their root, in slot order (deterministic).
    std::vector<std::uint32_t>& islandOf = out.islandOf;
    islandOf.assign(slots, noIsland);
    std::uint32_t count = 0;
    for (std::uint32_t i = 0; i < slots; ++i)
        if (deformables.isAlive(i) && sets.find(i) == i) islandOf[i] = count++;
    for (std::uint32_t i = 0; i < slots; ++i)
        if (deformables.isAlive(i)) islandOf[i] = islandOf[sets.find(i)];
    groupByIsland(slots, count, [&](std::uint32_t i) { return islandOf[i]; }, out.deformables, out.deformableStarts);
    groupByIsland(static_cast<std::uint32_t>(bodyIslands.count()), count,
                  [&](std::uint32_t k) {
                      const std::uint32_t root = sets.find(slots + k);
                      return root < slots ? islandOf[root] : noIsland; // joined to a deformable
                  },
                  out.bodyIslands, out.bodyIslandStarts);

    // Wake every island with an awake member: its deformables and its bodies.
    for (std::size_t k = 0; k < out.count(); ++k) {
        bool anyAwake = false, anyAsleep = false;
        for (std::uint32_t n = out.deformableStarts[k]; n < out.deformableStarts[k + 1]; ++n) {
            const bool asleep = deformables.atSlot(out.deformables[n]).asleep;
            anyAwake = anyAwake || !asleep;
            anyAsleep = anyAsleep || asleep;
        }
        forEachBody(out, bodyIslands, k, [&](std::uint32_t b) {
            anyAwake = anyAwake || bodies.slots()[b].awake;
            anyAsleep = anyAsleep || !bodies.slots()[b].awake;
        });
        if (!anyAwake || !anyAsleep) continue;
        for (std::uint32_t n = out.deformableStarts[k]; n < out.deformableStarts[k + 1]; ++n)
            wake(deformables.atSlot(out.deformables[n]), sleepThreshold);
        forEachBody(out, bodyIslands, k, [&](std::uint32_t b) {
            Body& body = bodies.slots()[b];
            if (body.awake) return;
            body.awake = true;
            body.motion = 2 * sleepThreshold;
        });
    }
}

void deformableMotion(DeformableArray& deformables, const DeformableIslands& islands, std::size_t bodyIslandCount,
                      real dt, const SleepSettings& settings, std::vector<std::uint8_t>& keepAwake) {
    keepAwake.resize(std::max(keepAwake.size(), bodyIslandCount), 0);
    if (!settings.enabled) { // sleeping switched off: nothing stays asleep
        for (std::size_t k = 0; k < deformables.slotCount(); ++k)
            if (deformables.isAlive(k)) deformables.atSlot(k).asleep = false;
        return;
    }
    const real bias = std::pow(settings.motionBias, dt);
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool quiet = true;
        for (std::uint32_t n = islands.deformableStarts[k]; n < islands.deformableStarts[k + 1]; ++n) {
            Deformable& d = deformables.atSlot(islands.deformables[n]);
            if (d.asleep) continue;
            d.motion = std::min(bias * d.motion + (1 - bias) * fastestSquared(d), settings.motionCap * settings.sleepThreshold);
            quiet = quiet && d.motion < settings.sleepThreshold;
        }
        if (quiet) continue;
        for (std::uint32_t n = islands.bodyIslandStarts[k]; n < islands.bodyIslandStarts[k + 1]; ++n)
            keepAwake[islands.bodyIslands[n]] = 1;
    }
}

void sleepDeformables(DeformableArray& deformables, const BodyArray& bodies, const Islands& bodyIslands,
                      const DeformableIslands& islands, const SleepSettings& settings) {
    if (!settings.enabled) return;
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool quiet = true;
        for (std::uint32_t n = islands.deformableStarts[k]; n < islands.deformableStarts[k + 1]; ++n) {
            const Deformable& d = deformables.atSlot(islands.deformables[n]);
            quiet = quiet && (d.asleep || d.motion < settings.sleepThreshold);
        }
        forEachBody(islands, bodyIslands, k, [&](std::uint32_t b) { quiet = quiet && !bodies.slots()[b].awake; });
        if (!quiet) continue;
        for (std::uint32_t n = islands.deformableStarts[k]; n < islands.deformableStarts[k + 1]; ++n) {
            Deformable& d = deformables.atSlot(islands.deformables[n]);
            d.asleep = true;
            std::fill(d.velocity.begin(), d.velocity.end(), Vec3::Zero());
            std::fill(d.angularVelocity.begin(), d.angularVelocity.end(), Vec3::Zero());
        }
    }
}

} // namespace jounce::detail
