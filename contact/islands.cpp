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

/// The least links a worker joins in a forest of its own (joinLinks).
constexpr std::size_t linksPerForest = 2048;

/// Joins the links' dynamic bodies in `sets`. With workers and links enough, each worker
/// joins a share of them in a forest of its own (the first in `sets`), and the forests
/// are joined here, a union for each body that is not a root in one: spheres4096's one
/// island of 13 000 links, 4096 unions on this thread. A set's root is its lowest
/// index however its unions came (DisjointSets), so the sets, their roots and the
/// islands' numbers are those of one thread.
void joinLinks(std::span<const std::pair<std::uint32_t, std::uint32_t>> links, const std::vector<std::uint8_t>& dynamic,
               DisjointSets& sets, std::vector<std::vector<std::uint32_t>>& forests, TaskSystem* tasks) {
    const auto joinShare = [&](DisjointSets& forest, std::size_t first, std::size_t last) {
        for (std::size_t k = first; k < last; ++k)
            if (joins(dynamic, links[k].first) && joins(dynamic, links[k].second)) forest.unite(links[k].first, links[k].second);
    };
    const std::size_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    const auto shares = static_cast<std::uint32_t>(std::min(workers, links.size() / linksPerForest));
    if (shares < 2) {
        joinShare(sets, 0, links.size());
        return;
    }
    if (forests.size() < shares - 1) forests.resize(shares - 1);
    const std::size_t n = sets.parent.size();
    detail::parallelFor(tasks, shares, 1, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t s = first; s < last; ++s) {
            if (s == 0) {
                joinShare(sets, 0, links.size() / shares);
                continue;
            }
            DisjointSets forest(forests[s - 1], n);
            joinShare(forest, links.size() * s / shares, links.size() * (s + 1) / shares);
        }
    });
    for (std::uint32_t s = 1; s < shares; ++s) {
        const std::vector<std::uint32_t>& parent = forests[s - 1];
        for (std::uint32_t i = 0; i < n; ++i)
            if (parent[i] != i) sets.unite(i, parent[i]);
    }
}

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
    joinLinks(links, dynamic, sets, out.forests, tasks);

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
