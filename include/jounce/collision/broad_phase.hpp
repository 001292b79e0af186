// SPDX-License-Identifier: MIT
#pragma once
/// \file broad_phase.hpp
/// The broad phase: which pairs of proxies (a body's shape, a particle) have
/// overlapping fat boxes. One broad phase serves bodies and particles alike.
///
/// Fat boxes live in two Boost.Geometry R-trees, one for static proxies and one for
/// moving ones, which persist between calls together with the set of overlapping pairs.
/// A call compares each proxy's box with the one it had last call and queries only the
/// proxies whose box changed (a fat box changes only every few steps, so most do not);
/// changed boxes are removed and reinserted, and a tree is bulk-loaded again (STR
/// packing) after edits to a quarter of its boxes, or when the proxy count changes.
/// Unbounded boxes (half-spaces) are paired by a direct test. The pair rules are applied
/// to every overlap on every call, so flags, filters and the ignore list may change
/// freely. Pairs come out sorted by (a, b): the output depends only on the input, never
/// on the trees' shape, on history or on addresses.

#include <jounce/collision/shapes.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace jounce {

struct BroadPhaseProxy {
    Aabb box;                          ///< fat box (see fattenAabb)
    std::uint32_t owner = 0;           ///< whose shape: a body index, a particle index...
    bool moves = true;                 ///< false for static geometry
    bool awake = true;                 ///< false while its owner sleeps
    std::uint32_t category = 1;        ///< bits this proxy is
    std::uint32_t mask = 0xffffffffu;  ///< bits it collides with
    /// Proxies of one non-zero group never pair (a cloth's own particles, whose
    /// constraints keep them apart): rejected here, before any pair is made.
    std::uint32_t group = 0;
    /// A sensor's proxy pairs like any other; the particle layer and the deformables
    /// skip it (sensors report overlaps and touch nothing).
    bool sensor = false;
};

/// Indices into the proxy array, a < b.
struct ProxyPair {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    friend bool operator==(ProxyPair, ProxyPair) = default;
    friend auto operator<=>(ProxyPair, ProxyPair) = default;
};

/// Replaces `fat` by `tight` grown by `margin` when `tight` has left it; returns
/// whether it did. Fat boxes keep pairs stable while bodies jiggle in place. `ahead`
/// (a moving body's motion over the next steps) stretches a new box along it too
/// (Bullet's predictive boxes), so a body moving steadily needs a new one only every
/// few steps.
bool fattenAabb(Aabb& fat, const Aabb& tight, real margin, const Vec3& ahead = Vec3::Zero());

class TaskSystem;

class BroadPhase {
public:
    BroadPhase();
    ~BroadPhase();
    BroadPhase(BroadPhase&&) noexcept;
    BroadPhase& operator=(BroadPhase&&) noexcept;

    /// Pairs of proxies whose boxes overlap, where at least one moves and is awake,
    /// the category/mask filter passes both ways, the groups differ (or are 0), and
    /// the owners differ and are not an ignored pair. Sorted by (a, b); `out` is cleared first. Successive calls are
    /// fastest when index i names the same proxy each time (as the world's arrays do);
    /// any other array is still handled exactly. With `tasks`, the changed proxies'
    /// queries run on its workers (the same pairs, in the same order).
    void findPairs(std::span<const BroadPhaseProxy> proxies, std::vector<ProxyPair>& out, TaskSystem* tasks = nullptr);
    /// The same pairs, as the broad phase keeps them: valid until the next findPairs
    /// call or until the broad phase changes (nothing copied).
    const std::vector<ProxyPair>& findPairs(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks = nullptr);

    /// Indices of the proxies, as of the last findPairs call, whose boxes overlap `box`
    /// (touching counts), and of every unbounded one; ascending, each once, whatever
    /// their flags. `out` is cleared first. `box` must be bounded. Read only: several
    /// threads may query at once (between findPairs calls).
    void query(const Aabb& box, std::vector<std::uint32_t>& out) const;

    /// Owners that never collide with each other (bodies joined by a joint).
    void ignore(std::uint32_t ownerA, std::uint32_t ownerB);
    void unignore(std::uint32_t ownerA, std::uint32_t ownerB);
    bool ignores(std::uint32_t ownerA, std::uint32_t ownerB) const;

private:
    struct State; // the trees, last call's boxes and the overlapping pairs
    std::unique_ptr<State> state_;
    std::vector<std::uint64_t> ignored_; ///< sorted (min << 32 | max)
};

} // namespace jounce
