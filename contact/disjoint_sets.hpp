#pragma once
// Union-find with path halving, shared by the islands of bodies and of particles. The
// root of a set is always its lowest index, so the result does not depend on the order
// of the unions (determinism).

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace jounce::detail {

struct DisjointSets {
    std::vector<std::uint32_t> parent;
    explicit DisjointSets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
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

} // namespace jounce::detail
