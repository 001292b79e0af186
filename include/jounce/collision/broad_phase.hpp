#pragma once
/// \file broad_phase.hpp
/// The broad phase: which pairs of proxies (a body's shape, a particle) have
/// overlapping fat boxes. One broad phase serves bodies and particles alike.
///
/// Each call rebuilds a Boost.Geometry R-tree over all bounded boxes with the packing
/// (STR bulk-load) constructor, then queries it with every active box; unbounded boxes
/// (half-spaces) are paired by a direct test. Pairs come out sorted by (a, b), so
/// their order never depends on the tree's shape or on addresses.

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
};

/// Indices into the proxy array, a < b.
struct ProxyPair {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    friend bool operator==(ProxyPair, ProxyPair) = default;
    friend auto operator<=>(ProxyPair, ProxyPair) = default;
};

/// Replaces `fat` by `tight` grown by `margin` when `tight` has left it; returns
/// whether it did. Fat boxes keep pairs stable while bodies jiggle in place.
bool fattenAabb(Aabb& fat, const Aabb& tight, real margin);

class BroadPhase {
public:
    BroadPhase();
    ~BroadPhase();
    BroadPhase(BroadPhase&&) noexcept;
    BroadPhase& operator=(BroadPhase&&) noexcept;

    /// Pairs of proxies whose boxes overlap, where at least one moves and is awake,
    /// the category/mask filter passes both ways, and the owners differ and are not
    /// an ignored pair. Sorted by (a, b); `out` is cleared first.
    void findPairs(std::span<const BroadPhaseProxy> proxies, std::vector<ProxyPair>& out);

    /// Owners that never collide with each other (bodies joined by a joint).
    void ignore(std::uint32_t ownerA, std::uint32_t ownerB);
    void unignore(std::uint32_t ownerA, std::uint32_t ownerB);
    bool ignores(std::uint32_t ownerA, std::uint32_t ownerB) const;

private:
    struct Tree;
    std::unique_ptr<Tree> tree_;
    std::vector<std::uint64_t> ignored_; ///< sorted (min << 32 | max)
};

} // namespace jounce
