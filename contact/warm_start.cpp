// SPDX-License-Identifier: MIT
// Warm starting (Catto, "Iterative dynamics with temporal coherence", 2005): what the
// next step keeps of each resolved contact (a collider pair's in its manifold,
// collision/persistent_contacts.cpp; a joint's in the cache sorted by key) and how a
// joint's new contact finds the one it continues and starts from its impulse.

#include "common/parallel.hpp"
#include "contact/stages.hpp"

#include <algorithm>
#include <span>

namespace jounce::detail {
namespace {

/// The first position in sorted `keys` whose key is not below `key` (std::lower_bound's
/// answer). Branch-free: each halving picks its half by a conditional move, not a
/// jump, since with hashed keys which half it is cannot be predicted and every
/// mispredicted jump costs more than the comparison (a contact's warm start searched
/// thousands of times per step).
std::size_t lowerBound(std::span<const std::uint64_t> keys, std::uint64_t key) {
    if (keys.empty()) return 0;
    const std::uint64_t* base = keys.data();
    std::size_t n = keys.size();
    while (n > 1) {
        const std::size_t half = n / 2;
        base = base[half] < key ? base + half : base;
        n -= half;
    }
    return static_cast<std::size_t>(base - keys.data()) + (*base < key ? 1 : 0);
}

/// Last step's contact that this one continues: the same features if they still
/// touch, otherwise the nearest point of the same collider pair within `reach`
/// (features renumber when a reference face changes sides, but the impulse that
/// held the point is still the best first guess). Null if none.
const KeptContact* previousMatch(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys,
                                 const Contact& c, real reach) {
    // Searched in the keys alone (8 bytes each, where a KeptContact is 88): the
    // search's steps stay in cache.
    const std::uint64_t pair = c.key >> 32;
    std::size_t i = lowerBound(keys, pair << 32);
    const KeptContact* nearest = nullptr;
    real best = reach * reach;
    for (; i < keys.size() && (keys[i] >> 32) == pair; ++i) {
        if (keys[i] == c.key) return &previous[i];
        const real d = (previous[i].point - c.point).squaredNorm();
        if (d < best) {
            best = d;
            nearest = &previous[i];
        }
    }
    return nearest;
}

} // namespace

void warmStart(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys, Contact& c) {
    // Last step's impulse on the same contact. The friction part is kept only if the
    // contact frame is (nearly) the same, and nothing if the normal turned over (a
    // rod switching from pulling to pushing).
    const KeptContact* p = previousMatch(previous, keys, c, real(0.05));
    if (p == nullptr) return;
    const real turn = p->normal.dot(c.normal);
    if (turn < 0) return;
    c.accumulatedImpulse = Vec3(p->accumulatedImpulse.x(), 0, 0);
    if (turn < real(0.999)) return;
    // Friction carries over as a world vector, not as contact-frame numbers: the
    // tangent axes are rebuilt from each step's normal, and for a floor's normal
    // (0, 1, 0) tipped by rounding one way or the other contactBasis picks a different
    // helper axis, turning them a quarter turn. Read in the new frame the old numbers
    // pushed sideways at the full friction load, a 1 m/s kick to a box resting in a
    // pyramid every few dozen steps (docs/contact.md, warm starting).
    const Mat3 before = contactBasis(p->normal), now = contactBasis(c.normal);
    const Vec3 friction = before.col(1) * p->accumulatedImpulse.y() + before.col(2) * p->accumulatedImpulse.z();
    c.accumulatedImpulse.y() = now.col(1).dot(friction);
    c.accumulatedImpulse.z() = now.col(2).dot(friction);
}

void keepForWarmStart(const std::vector<Contact>& contacts, std::span<const std::uint32_t> islandStarts,
                      std::span<const std::uint8_t> skip, std::vector<ContactManifold>& manifolds,
                      std::vector<KeptContact>& previous, std::vector<std::pair<std::uint64_t, std::uint32_t>>& order,
                      TaskSystem* tasks) {
    const auto count = static_cast<std::uint32_t>(contacts.size());
    // Calls f(i) for each contact in [begin, end) outside the skipped islands.
    const auto forKept = [&](std::uint32_t begin, std::uint32_t end, auto&& f) {
        if (skip.empty() || islandStarts.size() < 2) {
            for (std::uint32_t i = begin; i < end; ++i) f(i);
            return;
        }
        // The island holding `begin`, then island by island.
        const auto after = std::upper_bound(islandStarts.begin(), islandStarts.end(), begin);
        auto island = static_cast<std::size_t>(after - islandStarts.begin());
        island = island == 0 ? 0 : island - 1;
        for (std::uint32_t i = begin; i < end && island + 1 < islandStarts.size(); ++island) {
            const std::uint32_t last = std::min(end, islandStarts[island + 1]);
            if (!skip[island])
                for (; i < last; ++i) f(i);
            i = last;
        }
    };
    // A collider pair's point goes back to its manifold (persistent contacts: the
    // next step's manifold of the pair carries it on), friction as a world vector;
    // each point to its own place, so the workers may share them.
    parallelFor(tasks, count, 4096, [&](std::uint32_t begin, std::uint32_t end) {
        forKept(begin, end, [&](std::uint32_t i) {
            const Contact& c = contacts[i];
            if (c.source == noSource) return;
            ContactManifold& m = manifolds[c.source / Manifold::maxPoints];
            const std::size_t point = c.source % Manifold::maxPoints;
            if (c.carries) {
                keepImpulse(m, point, c.contactToWorld, c.accumulatedImpulse);
            } else { // sized for one body of the two: nothing for the next step
                m.normalImpulse[point] = 0;
                m.frictionImpulse[point] = Vec3f::Zero();
            }
        });
    });
    // Joints' contacts, sorted by key: sort (key, index) pairs, not 344-byte contacts,
    // and compare them without reaching into the contacts; the index breaks ties, so
    // std::sort (which needs no buffer, unlike stable_sort) gives the stable order. Only
    // what warmStart and the joint forces read is kept (KeptContact: 88 bytes, not 344, in the double build).
    order.clear();
    forKept(0, count, [&](std::uint32_t i) {
        if (contacts[i].source == noSource) order.push_back({contacts[i].key, i});
    });
    std::sort(order.begin(), order.end());
    previous.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Contact& c = contacts[order[i].second];
        previous[i] = KeptContact{c.key, c.point, c.normal, c.accumulatedImpulse, c.bounceImpulse.x()};
    }
}

} // namespace jounce::detail
