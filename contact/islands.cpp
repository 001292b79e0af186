// SPDX-License-Identifier: MIT
// Islands by union-find over dynamic bodies, and sleeping by island (Millington ch. 16).

#include <jounce/contact/islands.hpp>

#include "common/disjoint_sets.hpp"
#include "common/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jounce {
namespace {

using detail::DisjointSets;

bool joins(const std::vector<std::uint8_t>& dynamic, std::uint32_t i) { return i != noBody && dynamic[i]; }

} // namespace

void buildIslands(std::span<const Body> bodies, std::span<const std::uint8_t> alive, std::span<const Contact> contacts,
                  std::span<const std::pair<std::uint32_t, std::uint32_t>> links, Islands& out, TaskSystem* tasks) {
    DisjointSets sets(out.unionFind, bodies.size());
    const std::vector<std::uint8_t>& dynamic = out.dynamic;
    out.dynamic.resize(bodies.size());
    // One byte from each Body, on the workers: the bodies lie 0.6 kB apart, and the
    // workers wrote them last.
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies.size()), 512, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) out.dynamic[i] = bodies[i].isDynamic() ? 1 : 0;
    });
    for (const Contact& c : contacts)
        if (joins(dynamic, c.body[0]) && joins(dynamic, c.body[1])) sets.unite(c.body[0], c.body[1]);
    for (const auto& [a, b] : links)
        if (joins(dynamic, a) && joins(dynamic, b)) sets.unite(a, b);

    // Number the islands by their root (= lowest body index), in index order.
    out.bodyIsland.assign(bodies.size(), noIsland);
    std::uint32_t count = 0;
    for (std::uint32_t i = 0; i < bodies.size(); ++i)
        if (alive[i] && dynamic[i] && sets.find(i) == i) out.bodyIsland[i] = count++;
    for (std::uint32_t i = 0; i < bodies.size(); ++i)
        if (alive[i] && dynamic[i]) out.bodyIsland[i] = out.bodyIsland[sets.find(i)];

    // Counting sort of bodies and contacts by island (stable: input order kept).
    detail::groupByIsland(static_cast<std::uint32_t>(bodies.size()), count, [&](std::uint32_t i) { return out.bodyIsland[i]; },
                          out.bodies, out.bodyStarts);
    const auto contactIsland = [&](std::uint32_t k) {
        const Contact& c = contacts[k];
        // A contact belongs to the island of its dynamic body (either, if both).
        if (joins(dynamic, c.body[0])) return out.bodyIsland[c.body[0]];
        if (joins(dynamic, c.body[1])) return out.bodyIsland[c.body[1]];
        return noIsland; // between static or kinematic bodies only: nothing to resolve
    };
    detail::groupByIsland(static_cast<std::uint32_t>(contacts.size()), count, contactIsland, out.contactOrder, out.contactStarts);
}

int updateSleep(std::span<Body> bodies, const Islands& islands, real dt, const SleepSettings& settings,
                std::span<const std::uint8_t> keepAwake) {
    if (!settings.enabled) return 0;
    const real bias = std::pow(settings.motionBias, dt);
    int fellAsleep = 0;
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool allQuiet = true;
        for (std::uint32_t i = islands.bodyStarts[k]; i < islands.bodyStarts[k + 1]; ++i) {
            Body& b = bodies[islands.bodies[i]];
            if (!b.awake) continue;
            const real current = b.linearVelocity.squaredNorm() + b.angularVelocity.squaredNorm();
            b.motion = std::min(bias * b.motion + (1 - bias) * current, settings.motionCap * settings.sleepThreshold);
            allQuiet = allQuiet && b.canSleep && b.motion < settings.sleepThreshold;
        }
        if (!allQuiet || (k < keepAwake.size() && keepAwake[k])) continue;
        for (std::uint32_t i = islands.bodyStarts[k]; i < islands.bodyStarts[k + 1]; ++i) {
            Body& b = bodies[islands.bodies[i]];
            if (!b.awake) continue;
            b.awake = false;
            b.linearVelocity.setZero();
            b.angularVelocity.setZero();
            ++fellAsleep;
        }
    }
    return fellAsleep;
}

void markMovedByKinematics(std::span<const Body> bodies, std::span<const std::pair<std::uint32_t, std::uint32_t>> links,
                           const Islands& islands, std::vector<std::uint8_t>& moved) {
    moved.assign(islands.count(), 0);
    const auto movingKinematic = [&](std::uint32_t i) {
        return i != noBody && bodies[i].type == BodyType::Kinematic &&
               (!bodies[i].linearVelocity.isZero(0) || !bodies[i].angularVelocity.isZero(0));
    };
    // A dynamic body is no kinematic one: its byte says so before its Body is read.
    const auto isDynamic = [&](std::uint32_t i) {
        return i != noBody && (i < islands.dynamic.size() ? islands.dynamic[i] != 0 : bodies[i].isDynamic());
    };
    for (const auto& [a, b] : links) {
        if (!isDynamic(a) && isDynamic(b) && movingKinematic(a)) moved[islands.bodyIsland[b]] = 1;
        if (!isDynamic(b) && isDynamic(a) && movingKinematic(b)) moved[islands.bodyIsland[a]] = 1;
    }
}

int wakeTouchedIslands(std::span<Body> bodies, const Islands& islands, real sleepThreshold) {
    int woken = 0;
    for (std::size_t k = 0; k < islands.count(); ++k) {
        bool anyAwake = false, anyAsleep = false;
        for (std::uint32_t i = islands.bodyStarts[k]; i < islands.bodyStarts[k + 1]; ++i) {
            anyAwake = anyAwake || bodies[islands.bodies[i]].awake;
            anyAsleep = anyAsleep || !bodies[islands.bodies[i]].awake;
        }
        if (anyAwake && anyAsleep) woken += wakeIsland(bodies, islands, k, sleepThreshold);
    }
    return woken;
}

int wakeIsland(std::span<Body> bodies, const Islands& islands, std::size_t k, real sleepThreshold) {
    int woken = 0;
    for (std::uint32_t i = islands.bodyStarts[k]; i < islands.bodyStarts[k + 1]; ++i) {
        Body& b = bodies[islands.bodies[i]];
        if (b.awake) continue;
        b.awake = true;
        b.motion = 2 * sleepThreshold; // Millington: wake with some motion so it does not fall straight back asleep
        ++woken;
    }
    return woken;
}

} // namespace jounce
