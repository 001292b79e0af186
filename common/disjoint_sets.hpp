// SPDX-License-Identifier: MIT
#pragma once
// Union-find with path halving, and a stable counting sort by island, shared by the
// islands of bodies, particles and deformables. The root of a set is always its lowest
// index, so the result does not depend on the order of the unions (determinism).

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace jounce::detail {

/// Works in caller-kept storage (resized to n; its capacity stays for the next step, so
/// a settled scene groups its islands without allocating).
struct DisjointSets {
    std::vector<std::uint32_t>& parent;
    DisjointSets(std::vector<std::uint32_t>& storage, std::size_t n) : parent(storage) {
        parent.resize(n);
        std::iota(parent.begin(), parent.end(), 0u);
    }
    std::uint32_t find(std::uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
};

/// Stable counting sort of the items 0..n-1 by island: island k's items end up in
/// order[starts[k] .. starts[k + 1]) in index order. islandOf(i) gives item i's island
/// in [0, count), or a value >= count for items in none.
template <typename IslandOf>
void groupByIsland(std::uint32_t n, std::uint32_t count, IslandOf islandOf, std::vector<std::uint32_t>& order,
                   std::vector<std::uint32_t>& starts) {
    starts.assign(count + 1, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        if (const std::uint32_t k = islandOf(i); k < count) ++starts[k + 1];
    for (std::uint32_t k = 0; k < count; ++k) starts[k + 1] += starts[k];
    order.assign(starts.back(), 0);
    // starts[k] serves as island k's next free place, then is shifted back.
    for (std::uint32_t i = 0; i < n; ++i)
        if (const std::uint32_t k = islandOf(i); k < count) order[starts[k]++] = i;
    for (std::uint32_t k = count; k > 0; --k) starts[k] = starts[k - 1];
    starts[0] = 0;
}

} // namespace jounce::detail
